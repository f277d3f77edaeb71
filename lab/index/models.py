"""The models an index stores, fitted over chunks and written to the store in one place.

TF-IDF is stored as what it is made of, not as its vectors. Each chunk's term counts are
written once (a few hundred (term, count) pairs, where a dense row would hold one float per
term of the vocabulary: 80,000 chunks x 100,000 terms is 32 GB), with one document frequency
per term beside them; BM25 needs exactly the same counts (term frequencies, document lengths
and frequencies), so one stored form serves both. An edit rewrites only its page's counts and
moves the frequencies of the terms it adds or drops: no other chunk's row changes, although
the idf of every term moved. The idf and the unit rows are recomputed when an index is loaded
(:func:`stored_tfidf`, :meth:`~lab.index.IndexStore.term_counts`): one pass over the
counts, a second or so for 80,000 chunks, and exactly a full refit's numbers. The other ways
out cost more or are wrong: storing weighted rows means rewriting them all on every edit (what
the dense rows did), and refitting lazily or only when the vocabulary drifts past a threshold
serves stale idf in between, so a search would no longer match a full index of the same pages.

LSA-N is a corpus model too (one chunk changed moves the SVD), so :class:`CorpusModels` fits it
over all the chunks and replaces its float32 rows. A dense embedder vectorises each chunk on its
own, and a paid one bills per token, so :class:`DenseVectors` holds only the chunks sent to it
and adds their rows. The sync (and the command line through it), lesson 05's offline index,
:func:`stored_tfidf` and the retrievers all fit here, so a stored model and the encoder of its
queries always come from the same code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from lab.embedders.protocol import DenseEmbedder, check_embedder_limit
from lab.index.store import IndexStore
from lab.vectors import LsaVectorizer, TfidfVectorizer, WordAnalyzer
from lab.vectors.counting import learn_counts
from lab.vectors.lsa import lsa_model_name
from lab.vectors.estimator import Estimator

__all__ = ["TFIDF_MODEL", "CorpusModels", "stored_tfidf", "DenseVectors"]

TFIDF_MODEL = "tfidf"


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
    counts_, terms_ : the texts' term counts (CSR int32) and the sorted terms naming their columns.
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
        return self.fit_counts(*learn_counts(texts, self.analyzer))

    def fit_counts(self, counts: sp.csr_matrix, terms: Sequence[str]) -> CorpusModels:
        """Fit on term counts already made by this analyzer (one row per text, ``terms`` sorted,
        as :func:`~lab.vectors.counting.learn_counts` returns them, or as an index stores them)."""
        self.counts_, self.terms_ = counts, list(terms)
        self.tfidf_ = TfidfVectorizer(analyzer=self.analyzer)
        self.matrix_: sp.csr_matrix = self.tfidf_.fit_transform_counts(counts, self.terms_)
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
        """Make every model's rows in ``store`` exactly ``chunks`` (the fitted texts, in order), in one
        transaction: TF-IDF as the texts' term counts, LSA as float32 vectors."""
        self._check_fitted("names_")
        if len(chunks) != self.matrix_.shape[0]:
            raise ValueError(f"the models were fitted on {self.matrix_.shape[0]} texts; got {len(chunks)} chunks")
        with store.transaction():
            store.replace_term_counts(chunks, self.counts_, self.terms_, TFIDF_MODEL, repr(self.analyzer))
            for model in self.names_[1:]:
                store.replace_model(chunks, self.vectors(model), model)

    def _check_model(self, model: str) -> None:
        if model not in self.names_:
            raise ValueError(f"unknown model {model!r}; these models are {', '.join(map(repr, self.names_))}")


def stored_tfidf(store: IndexStore, analyzer: Callable[[str], list[str]] = WordAnalyzer()) -> CorpusModels:
    """The TF-IDF behind the store's ``tfidf`` rows, fitted on its stored term counts (in chunk id order).

    The counts were made by the same analyzer, so this is exactly the TF-IDF a refit on the stored
    texts would give, without analysing any text. Counts made by another analyzer say nothing
    about this one's terms: then the texts are counted again.
    """
    stored = store.term_counts(TFIDF_MODEL)
    if stored.analyzer == repr(analyzer):
        return CorpusModels(analyzer=analyzer).fit_counts(stored.counts, stored.terms)
    return CorpusModels(analyzer=analyzer).fit([row["text"] for row in store.chunks(TFIDF_MODEL)])


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
        check_embedder_limit(embedder, chunks)
        result = embedder.embed_documents([chunk.text for chunk in chunks])
        return cls(model=embedder.name, chunks=chunks, vectors=np.asarray(result.vectors, dtype=np.float32),
                   tokens=int(result.tokens))

    def save(self, store: IndexStore) -> None:
        """Add or replace these chunks' rows of the model; the model's other chunks keep theirs."""
        store.put_chunks(self.chunks, self.vectors, self.model)
