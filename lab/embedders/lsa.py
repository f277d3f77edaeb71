"""An offline dense embedder: LSA fitted once on a corpus, then frozen like a downloaded model.

A corpus model refitted on every run would move every vector whenever one text changes, so an
incremental run could never skip a chunk. Fitted once and kept, the LSA behaves as a paid
embedder does: a text gets the same vector whatever else is indexed, and only new or changed
chunks need embedding. Words the fit never saw add nothing to a vector (a real model has the
same blind spot for words outside its training data, only smaller).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from lab.chunking import count_tokens
from lab.vectors import LsaVectorizer, TfidfVectorizer, WordAnalyzer
from lab.vectors.lsa import lsa_model_name
from lab.vectors.estimator import Estimator

__all__ = ["LsaEmbedder", "OfflineEmbedding"]


@dataclass(frozen=True)
class OfflineEmbedding:
    """What :meth:`LsaEmbedder.embed_documents` returns, shaped as a paid embedder's result."""

    vectors: np.ndarray
    tokens: int  # lab tokens of the texts: what a service would have billed, roughly
    requests: int = 1


class LsaEmbedder(Estimator):
    """TF-IDF then LSA-N, fitted on ``fit(texts)`` and then used as a fixed embedder.

    Parameters
    ----------
    n_components : int, dimensions wanted (the corpus must have more texts and terms than that).
    analyzer : callable ``text -> list[str]``; English stop words dropped by default.
    random_state : int, seed of LSA's ARPACK start vector.

    Attributes
    ----------
    tfidf_, lsa_ : the fitted vectorisers.
    name : ``"lsa-N"`` once fitted, the model name its vectors are stored under.
    """

    #: LSA reads a text's whole TF-IDF row: there is no input limit to cut at.
    max_input_tokens = None

    def __init__(self, n_components: int = 64, analyzer: Callable[[str], list[str]] = WordAnalyzer(stop_words="en"),
                 random_state: int = 0) -> None:
        self.n_components = n_components
        self.analyzer = analyzer
        self.random_state = random_state

    def fit(self, texts: Iterable[str]) -> LsaEmbedder:
        """Fit TF-IDF and LSA on ``texts``; refuses a corpus too small for ``n_components``."""
        self.tfidf_ = TfidfVectorizer(analyzer=self.analyzer)
        matrix = self.tfidf_.fit_transform(list(texts))
        self.lsa_ = LsaVectorizer(n_components=self.n_components, random_state=self.random_state).fit(matrix)
        if self.lsa_.n_components_ != self.n_components:
            raise ValueError(f"{matrix.shape[0]} texts and {matrix.shape[1]} terms allow only "
                             f"{self.lsa_.n_components_} LSA dimensions, not {self.n_components}: fit on more "
                             "(or shorter) texts, or ask for fewer dimensions")
        return self

    @property
    def name(self) -> str:
        self._check_fitted("lsa_")
        return lsa_model_name(self.n_components)

    def embed_documents(self, texts: Sequence[str]) -> OfflineEmbedding:
        """Unit float32 rows, one per text, in order."""
        self._check_fitted("lsa_")
        vectors = self.lsa_.transform(self.tfidf_.transform(list(texts))).astype(np.float32)
        return OfflineEmbedding(vectors=vectors, tokens=sum(count_tokens(t) for t in texts))

    def embed_query(self, text: str) -> np.ndarray:
        """A question as one unit float32 vector of this model."""
        return self.embed_documents([text]).vectors[0]
