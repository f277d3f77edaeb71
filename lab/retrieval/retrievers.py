"""Retrievers: one interface, ``search(query, k, audience=None, min_score=None, where=None) -> list[Hit]``.

``search_many(queries, ...)`` answers a list of queries at once, one list of hits per query, and
``search`` is a batch of one. TF-IDF and BM25 add each score in a fixed order, so a query gets
the very same hits alone or in a batch; LSA and stored vectors multiply with BLAS, which adds a
batch's products in another order than one query's, so their scores may differ in the last
float32 digit (and rows scoring the same to that precision may swap).

Every retriever here scores the rows of a :class:`~lab.retrieval.corpus.SearchCorpus` and
ranks them the same way:

1. the filters come first: rows outside the caller's audience, and rows the ``where`` filter
   (:class:`~lab.retrieval.filters.ChunkFilter`: a version, a window of dates) does not keep, are
   removed before anything is ranked, so a top-k is never cut down afterwards and never silently
   shrinks;
2. the abstain threshold comes second: rows scoring below ``min_score`` are not answers (no
   result is better than an unrelated one), so fewer than ``k`` hits, or none, may come back;
3. the ``k`` best remaining rows are returned, best first, equal scores in corpus row order.

Cosine retrievers (TF-IDF, LSA, stored or embedded dense vectors) rank every visible row, even at cosine
0; BM25, like Lucene, ranks only rows that contain at least one query term.

A large stored index is searched the same way, without a pass over every row per query:
``SearchCorpus.from_index(store)`` reads the chunks and their stored term counts once
(a few seconds for 80,000 chunks), :class:`TfidfRetriever` and :class:`BM25Retriever` fit on
those counts without analysing a single text, and each query then adds up only the rows that
contain one of its terms, term by term, keeping the best as it goes
(:func:`~lab.vectors.search.top_k_sparse_product`): milliseconds per query.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np
import scipy.sparse as sp

from lab.retrieval.corpus import SearchCorpus
from lab.retrieval.filters import ChunkFilter
from lab.embedders import check_embedder_limit
from lab.index import CorpusModels, ModelMismatchError
from lab.vectors import BM25, WordAnalyzer
from lab.vectors.estimator import Estimator
from lab.vectors.sparse_rows import unit_rows
from lab.vectors.search import (Hit, check_k, cosine_scores, top_k_dense_product, top_k_rows,
                                 top_k_sparse_product)

__all__ = ["Retriever", "RowScorer", "TfidfRetriever", "LsaRetriever", "BM25Retriever", "StoredVectorRetriever",
           "EmbeddingRetriever"]

TextAnalyzer = Callable[[str], list[str]]
Ranked = list[list[tuple[int, float]]]  # for each query, (row, score) pairs, best first


class Retriever(Estimator):
    """What every retriever offers: ``fit(corpus)`` once, then ``search`` as often as needed."""

    def fit(self, corpus: SearchCorpus) -> Retriever:
        """Learn whatever the retriever needs from ``corpus``; returns self."""
        raise NotImplementedError

    def search(self, query: str, k: int = 10, audience: str | None = None,
               min_score: float | None = None, where: ChunkFilter | None = None) -> list[Hit]:
        """The ``k`` best chunks ``audience`` may see that ``where`` keeps, best first, none scoring below
        ``min_score``."""
        raise NotImplementedError

    def search_many(self, queries: Sequence[str], k: int = 10, audience: str | None = None,
                    min_score: float | None = None, where: ChunkFilter | None = None) -> list[list[Hit]]:
        """:meth:`search` for every query of a list, one list of hits per query, in order."""
        return [self.search(query, k, audience, min_score, where) for query in _query_list(queries)]


class RowScorer(Retriever):
    """A retriever that gives rows a score each; ranking, filtering and the threshold are shared here."""

    def fit(self, corpus: SearchCorpus) -> RowScorer:
        """Keep the corpus and fit the scoring model on its texts; returns self."""
        if not isinstance(corpus, SearchCorpus):
            raise TypeError(f"fit takes a SearchCorpus (SearchCorpus.from_chunks(chunks)), not {type(corpus).__name__}")
        if len(corpus) == 0:
            raise ValueError("the corpus has no chunks; a retriever needs at least one to search")
        self._fit(corpus)
        self.corpus_ = corpus
        return self

    def score(self, query: str) -> np.ndarray:
        """The score of every row for ``query``, shape (n_rows,), in corpus order, before any filter."""
        return self._score_and_eligible(query)[0]

    def search(self, query: str, k: int = 10, audience: str | None = None,
               min_score: float | None = None, where: ChunkFilter | None = None) -> list[Hit]:
        """The ``k`` best chunks ``audience`` may see that ``where`` keeps, best first, none scoring below
        ``min_score``."""
        return self.search_many([query], k, audience, min_score, where)[0]

    def search_many(self, queries: Sequence[str], k: int = 10, audience: str | None = None,
                    min_score: float | None = None, where: ChunkFilter | None = None) -> list[list[Hit]]:
        """:meth:`search` for every query of a list, scored and ranked together, one list per query."""
        self._check_fitted("corpus_")
        k = check_k(k)
        visible = self.corpus_.visible(audience, where)  # before ranking: hidden rows never compete
        hit = self.corpus_.hit
        return [[hit(row, score) for row, score in found]
                for found in self._top_k(_query_list(queries), k, visible, min_score)]

    def _fit(self, corpus: SearchCorpus) -> None:
        raise NotImplementedError

    def _top_k(self, queries: list[str], k: int, visible: np.ndarray, min_score: float | None) -> Ranked:
        """The ``k`` best visible rows of each query scoring at least ``min_score``.

        This default scores one query at a time with :meth:`_score_and_eligible`, for scorers with
        no batch form (RM3, whose expanded query depends on each query's own first results, read
        among the ``visible`` rows); TF-IDF, LSA, BM25, BM25F and stored vectors rank a batch at once.
        """
        ranked = []
        for query in queries:
            scores, eligible = self._score_and_eligible(query, visible)
            ranked.append(top_k_rows(scores, k, mask=visible & eligible, min_score=min_score))
        return ranked

    def _score_and_eligible(self, query: str, visible: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Scores of every row and which rows may be ranked at all (``visible``: the rows the caller may see)."""
        raise NotImplementedError


def _query_list(queries: Sequence[str]) -> list[str]:
    if isinstance(queries, str):
        raise TypeError("search_many takes a list of queries, got a single str; wrap it in a list: [query]")
    queries = list(queries)
    wrong = next((i for i, query in enumerate(queries) if not isinstance(query, str)), None)
    if wrong is not None:
        raise TypeError(f"a query is a str (the question's text), but query {wrong} is {type(queries[wrong]).__name__}")
    return queries


class TfidfRetriever(RowScorer):
    """Cosine similarity between TF-IDF vectors (sublinear tf, smoothed idf, L2 rows), as in lesson 05.

    Parameters
    ----------
    analyzer : callable ``text -> list[str]``
        Terms of chunks and queries (Spanish stop words and digits dropped by default; pass
        ``CJKBigramAnalyzer()`` for Chinese).

    Attributes
    ----------
    vectorizer_ : the fitted :class:`~lab.vectors.TfidfVectorizer`.
    by_term_ : scipy.sparse.csc_matrix of shape (n_rows, n_terms), the unit TF-IDF rows kept by
        column (each term's rows in one slice): a search adds up the weights of the rows
        containing its terms only; the others score 0. One copy: a CSR twice the memory at scale.
    corpus_ : the corpus searched.
    """

    def __init__(self, analyzer: TextAnalyzer = WordAnalyzer()) -> None:
        self.analyzer = analyzer

    def _fit(self, corpus: SearchCorpus) -> None:
        models = CorpusModels(analyzer=self.analyzer).fit_counts(*corpus.counts_for(self.analyzer))
        self.vectorizer_, self.by_term_ = models.tfidf_, models.matrix_.tocsc()

    def score(self, query: str) -> np.ndarray:
        """The cosine of every row with ``query``, shape (n_rows,), in corpus order, before any filter."""
        self._check_fitted("by_term_")
        return cosine_scores(self.by_term_, self.vectorizer_.transform([query]))

    def _top_k(self, queries: list[str], k: int, visible: np.ndarray, min_score: float | None) -> Ranked:
        return top_k_sparse_product(self.vectorizer_.transform(queries), self.by_term_, k, mask=visible,
                                    min_score=min_score, unmatched_score=0.0)


class LsaRetriever(RowScorer):
    """Cosine similarity between LSA vectors: a truncated SVD of the TF-IDF matrix (dense, offline).

    Parameters
    ----------
    n_components : int
        Dimensions kept (fewer when the corpus is small: see ``LsaVectorizer.n_components_``).
    analyzer : callable, the TF-IDF analyzer underneath.
    random_state : int, seed of ARPACK's start vector.

    Attributes
    ----------
    vectorizer_ : the fitted TF-IDF vectorizer; lsa_ : the fitted ``LsaVectorizer``;
    matrix_ : float32 ndarray of shape (n_rows, n_components_), unit rows; corpus_ : the corpus.
    """

    def __init__(self, n_components: int = 128, analyzer: TextAnalyzer = WordAnalyzer(), random_state: int = 0) -> None:
        self.n_components = n_components
        self.analyzer = analyzer
        self.random_state = random_state

    def _fit(self, corpus: SearchCorpus) -> None:
        models = CorpusModels(analyzer=self.analyzer, lsa_components=self.n_components,
                              random_state=self.random_state).fit(corpus.texts)
        self.vectorizer_, self.lsa_, self.matrix_ = models.tfidf_, models.lsa_, models.lsa_matrix_

    def score(self, query: str) -> np.ndarray:
        """The cosine of every row with ``query``, shape (n_rows,), in corpus order, before any filter."""
        self._check_fitted("matrix_")
        return cosine_scores(self.matrix_, self._vectors([query])[0])

    def _top_k(self, queries: list[str], k: int, visible: np.ndarray, min_score: float | None) -> Ranked:
        return top_k_dense_product(self._vectors(queries), self.matrix_, k, mask=visible, min_score=min_score)

    def _vectors(self, queries: list[str]) -> np.ndarray:
        return self.lsa_.transform(self.vectorizer_.transform(queries))


class BM25Retriever(RowScorer):
    """BM25 with Lucene's idf, ``ln(1 + (N - n_t + 0.5) / (n_t + 0.5))``, and Lucene's tf part.

    The variant matters (rank-bm25's ``BM25Okapi`` uses Robertson's idf, floored, and the
    textbook ``(k1 + 1)`` factor); this one scores exactly like bm25s with ``method="lucene"``.
    Only rows containing at least one query term are ranked.

    Parameters
    ----------
    k1, b : saturation of repeated terms and strength of length normalisation.
    idf : "lucene" (default), "robertson" or "atire" (see :class:`lab.vectors.BM25`).
    analyzer : callable ``text -> list[str]`` (``CJKBigramAnalyzer()`` for Chinese).

    Attributes
    ----------
    bm25_ : the fitted :class:`~lab.vectors.BM25`; corpus_ : the corpus.
    """

    def __init__(self, k1: float = 1.5, b: float = 0.75, idf: str = "lucene",
                 analyzer: TextAnalyzer = WordAnalyzer()) -> None:
        self.k1 = k1
        self.b = b
        self.idf = idf
        self.analyzer = analyzer

    def _fit(self, corpus: SearchCorpus) -> None:
        self._fit_counts(*corpus.counts_for(self.analyzer))  # a stored index's counts: no text analysed again

    def _fit_counts(self, counts: sp.csr_matrix, terms: list[str]) -> None:
        self.bm25_ = BM25(k1=self.k1, b=self.b, idf=self.idf, analyzer=self.analyzer).fit_counts(counts, terms)

    def score(self, query: str) -> np.ndarray:
        """The BM25 score of every row for ``query``, shape (n_rows,), in corpus order, before any filter."""
        self._check_fitted("bm25_")
        return self.bm25_.score(query)

    def _top_k(self, queries: list[str], k: int, visible: np.ndarray, min_score: float | None) -> Ranked:
        return self.bm25_.top_k_many(queries, k, mask=visible, min_score=min_score)

class _QueryEncodedRows(RowScorer):
    """Cosine similarity between unit row vectors ``matrix_`` and query vectors from a model's encoder."""

    model: str

    def score(self, query: str) -> np.ndarray:
        """The cosine of every row with ``query``, shape (n_rows,), in corpus order, before any filter."""
        self._check_fitted("matrix_")
        return cosine_scores(self.matrix_, self._vector(query))

    def _top_k(self, queries: list[str], k: int, visible: np.ndarray, min_score: float | None) -> Ranked:
        vectors = np.stack([self._vector(query) for query in queries]) if queries else self.matrix_[:0]
        return top_k_dense_product(vectors, self.matrix_, k, mask=visible, min_score=min_score)

    def _encode(self, query: str) -> np.ndarray:
        raise NotImplementedError

    def _vector(self, query: str) -> np.ndarray:
        vector = np.asarray(self._encode(query), dtype=np.float32).ravel()
        if vector.shape[0] != self.matrix_.shape[1]:
            raise ModelMismatchError(f"the query vector has dimension {vector.shape[0]} but {self.model!r} vectors "
                                     f"have {self.matrix_.shape[1]}: it was made by another model; encode queries "
                                     "with the model that made the rows")
        if not np.isfinite(vector).all():  # every cosine would be NaN, and no hit would come back
            raise ValueError(f"the query vector for {self.model!r} holds NaN or infinity: check the model that "
                             "embedded the question")
        return vector


class StoredVectorRetriever(_QueryEncodedRows):
    """Cosine similarity against the vectors an index stored for a model (a corpus from ``SearchCorpus.from_index``).

    The chunk vectors come from the index (written by whichever model, Voyage AI or LSA); the
    query vector comes from ``encode``, which must be the same model's query encoder.

    Parameters
    ----------
    model : the model name the vectors are stored under.
    encode : callable ``query -> ndarray of shape (dimension,)``, unit length.

    Attributes
    ----------
    matrix_ : float32 ndarray of shape (n_rows, dimension), the stored vectors in corpus row order.
    corpus_ : the corpus.
    """

    def __init__(self, model: str, encode: Callable[[str], np.ndarray]) -> None:
        self.model = model
        self.encode = encode

    def _fit(self, corpus: SearchCorpus) -> None:
        vectors = corpus.stored_vectors(self.model)
        if vectors is None:
            held = " and ".join(map(repr, corpus.stored_models)) or "no dense model"
            raise ModelMismatchError(f"the corpus has no stored {self.model!r} vectors (it holds {held}): vectors "
                                     f"of two models cannot be compared; search with the model that made the rows, "
                                     f"or read the corpus from an index that holds {self.model!r} vectors, with "
                                     f"SearchCorpus.from_index(store)")
        self.matrix_ = vectors

    def _encode(self, query: str) -> np.ndarray:
        return self.encode(query)


class EmbeddingRetriever(_QueryEncodedRows):
    """Cosine similarity between a dense embedder's vectors of the chunks and of each query.

    ``fit`` sends every chunk text to ``embedder.embed_documents`` (one batched call, or the
    embedder's own batches), unless the corpus was read from an index that stored this model's
    vectors: then those are used and nothing is embedded again. Each distinct query is embedded
    once with ``embedder.embed_query`` and kept, so a ladder that searches the same questions
    again pays for them once. Any
    :class:`~lab.index.DenseEmbedder` with an ``embed_query`` works: Voyage AI's, or the
    offline :class:`~lab.embedders.lsa.LsaEmbedder`.

    Attributes
    ----------
    matrix_ : float32 ndarray of shape (n_rows, dimension), unit rows in corpus order.
    tokens_ : tokens the embedder reported for the chunk texts.
    corpus_ : the corpus.
    """

    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder
        self._queries: dict[str, np.ndarray] = {}  # each distinct query's vector (a cache, not fitted state)

    @property
    def model(self) -> str:  # type: ignore[override]
        return str(getattr(self.embedder, "name", type(self.embedder).__name__))

    def _fit(self, corpus: SearchCorpus) -> None:
        self._queries = {}
        self.tokens_ = 0
        stored = corpus.stored_vectors(self.model)
        if stored is not None:
            self.matrix_ = unit_rows(stored, np.float32)
            return
        check_embedder_limit(self.embedder, [SimpleNamespace(id=i, text=t) for i, t in zip(corpus.ids, corpus.texts)])
        result = self.embedder.embed_documents(list(corpus.texts))
        self.matrix_ = unit_rows(np.asarray(result.vectors, dtype=np.float32), np.float32)
        if self.matrix_.shape[0] != len(corpus):
            raise ModelMismatchError(f"{self.model!r} returned {self.matrix_.shape[0]} vectors for "
                                     f"{len(corpus)} chunk texts")
        self.tokens_ = int(getattr(result, "tokens", 0))

    def _encode(self, query: str) -> np.ndarray:
        if query not in self._queries:
            vector = np.asarray(self.embedder.embed_query(query), dtype=np.float32).ravel()
            self._queries[query] = unit_rows(vector[None, :], np.float32)[0]
        return self._queries[query]
