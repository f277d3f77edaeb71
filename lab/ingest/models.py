"""The models an index stores, fitted over chunks and written to the store in one place.

TF-IDF and LSA-N are corpus models: one chunk added or changed moves every vector (the idf, the
SVD), so :class:`CorpusModels` is refitted over all the chunks and replaces its models' rows. A
dense embedder vectorises each chunk on its own, and a paid one bills per token, so
:class:`DenseVectors` holds only the chunks sent to it and adds their rows. The sync (and the
command line through it), lesson 05's offline index, :func:`stored_tfidf` and the retrievers
all fit here, so a stored model and the encoder of its queries always come from the same code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import scipy.sparse as sp

from lab.chunking import check_input_limit
from lab.ingest.store import IndexStore
from lab.vectors import LsaVectorizer, TfidfVectorizer, WordAnalyzer
from lab.vectors.estimator import Estimator

__all__ = ["TFIDF_MODEL", "lsa_model_name", "CorpusModels", "stored_tfidf", "DenseEmbedder", "DenseVectors"]

TFIDF_MODEL = "tfidf"


def lsa_model_name(components: int) -> str:
    """The name LSA vectors of ``components`` dimensions are stored under (a dimension is a model)."""
    return f"lsa-{components}"


class CorpusModels(Estimator):
    """TF-IDF over a corpus of texts and, when ``lsa_components`` is given, LSA-N on top of it.

    Parameters
    ----------
    analyzer : callable ``text -> list[str]``, how texts become terms (Spanish stop words and
        digits dropped by default).
    lsa_components : int or None, LSA dimensions wanted (fewer if the corpus allows fewer);
        ``None`` fits TF-IDF only.
    random_state : int, seed of LSA's ARPACK start vector.

    Attributes
    ----------
    tfidf_ : the fitted :class:`~lab.vectors.TfidfVectorizer`.
    matrix_ : scipy.sparse.csr_matrix of shape (n_texts, n_terms), unit rows.
    lsa_ : the fitted :class:`~lab.vectors.LsaVectorizer` (``None`` without LSA).
    lsa_matrix_ : float32 ndarray of shape (n_texts, n_components_), unit rows (``None`` without LSA).
    names_ : the model names the vectors are stored under: ``"tfidf"``, then ``"lsa-N"``.
    """

    #: TF-IDF counts every term of a text and LSA reads its TF-IDF row: no input limit to cut at.
    max_input_tokens = None

    def __init__(self, analyzer: Callable[[str], list[str]] = WordAnalyzer(), lsa_components: int | None = None,
                 random_state: int = 0) -> None:
        self.analyzer = analyzer
        self.lsa_components = lsa_components
        self.random_state = random_state

    def fit(self, texts: Iterable[str]) -> CorpusModels:
        """Fit TF-IDF (and LSA) on ``texts``, in their order; returns self."""
        self.tfidf_ = TfidfVectorizer(analyzer=self.analyzer)
        self.matrix_: sp.csr_matrix = self.tfidf_.fit_transform(texts)
        self.lsa_: LsaVectorizer | None = None
        self.lsa_matrix_: np.ndarray | None = None
        self.names_ = [TFIDF_MODEL]
        if self.lsa_components is not None:
            self.lsa_ = LsaVectorizer(n_components=self.lsa_components, random_state=self.random_state)
            self.lsa_matrix_ = self.lsa_.fit_transform(self.matrix_)
            self.names_.append(lsa_model_name(self.lsa_matrix_.shape[1]))
        return self

    def vectors(self, model: str) -> np.ndarray:
        """The fitted texts' float32 rows under ``model``, shape (n_texts, dimension)."""
        self._check_fitted("names_")
        if model == TFIDF_MODEL:
            return self.matrix_.toarray().astype(np.float32)
        self._check_model(model)
        return self.lsa_matrix_

    def query_vector(self, question: str, model: str = TFIDF_MODEL) -> np.ndarray:
        """The question as a float32 vector of ``model`` (unit length, so dot = cosine)."""
        self._check_fitted("names_")
        tfidf = self.tfidf_.transform([question])
        if model == TFIDF_MODEL:
            return tfidf.toarray()[0].astype(np.float32)
        self._check_model(model)
        return self.lsa_.transform(tfidf)[0].astype(np.float32)

    def save(self, store: IndexStore, chunks: Sequence[Any]) -> None:
        """Make every model's rows in ``store`` exactly ``chunks`` (the fitted texts, in order), in one transaction."""
        self._check_fitted("names_")
        if len(chunks) != self.matrix_.shape[0]:
            raise ValueError(f"the models were fitted on {self.matrix_.shape[0]} texts; got {len(chunks)} chunks")
        with store.transaction():
            for model in self.names_:
                store.replace_model(chunks, self.vectors(model), model)

    def _check_model(self, model: str) -> None:
        if model not in self.names_:
            raise ValueError(f"unknown model {model!r}; these models are {', '.join(map(repr, self.names_))}")


def stored_tfidf(store: IndexStore, analyzer: Callable[[str], list[str]] = WordAnalyzer()) -> CorpusModels:
    """The TF-IDF behind the store's ``tfidf`` rows, refitted on the stored texts in id order.

    The sync fitted it with this same code on the same texts in the same order, so refitting is
    exact, and cheaper than storing the vocabulary.
    """
    return CorpusModels(analyzer=analyzer).fit([row["text"] for row in store.chunks(TFIDF_MODEL)])


class DenseEmbedder(Protocol):
    """What a dense model offers (``lab.services.voyage.VoyageEmbedder`` is one).

    ``embed_documents`` returns a result with ``vectors`` (one row per text) and ``tokens`` (billed);
    ``max_input_tokens`` is how much of each text the model reads (``None``: no known limit).
    """

    name: str
    max_input_tokens: int | None

    def embed_documents(self, texts: Sequence[str]) -> Any: ...


@dataclass(frozen=True)
class DenseVectors:
    """A dense embedder's vectors for some chunks: embedded before a write (a network call), saved in it."""

    model: str
    chunks: Sequence[Any]
    vectors: np.ndarray  # float32, shape (n_chunks, dimension)
    tokens: int  # tokens the service billed for them

    @classmethod
    def embed(cls, embedder: DenseEmbedder, chunks: Sequence[Any]) -> DenseVectors:
        """Send the chunks' texts to ``embedder`` (in its batches) and keep what comes back.

        Raises :class:`~lab.chunking.InputTooLongError` before any call if a chunk is longer than
        the embedder's ``max_input_tokens``: the model would embed only its beginning.
        """
        limit = getattr(embedder, "max_input_tokens", None)  # an embedder that names no limit is not checked
        if limit is not None:
            check_input_limit(chunks, limit).raise_if_over()
        result = embedder.embed_documents([chunk.text for chunk in chunks])
        return cls(model=embedder.name, chunks=chunks, vectors=np.asarray(result.vectors, dtype=np.float32),
                   tokens=int(result.tokens))

    def save(self, store: IndexStore) -> None:
        """Add or replace these chunks' rows of the model; the model's other chunks keep theirs."""
        store.put_chunks(self.chunks, self.vectors, self.model)
