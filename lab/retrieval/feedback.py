"""Pseudo-relevance feedback (RM3): search once, learn words from the top results, search again.

A question and the page that answers it often share only a word or two. RM3 (Abdul-Jaleel et
al., UMass at TREC 2004; as in Anserini, Lin et al.) assumes the first search's top documents
are relevant, and adds the words they use most to the query:

    P(t | R) ∝ sum over the fb_docs best documents d of  score(d) * tf(t, d) / |d|

The ``fb_terms`` most likely terms are kept, their weights scaled to sum to 1, and mixed with
the query's own terms (each ``1 / |q|``) as ``original_weight * query + (1 - original_weight) *
feedback``; documents are scored again, by the same BM25 or BM25F, with that weighted query. The
defaults (10 documents, 10 terms, 0.5) are Anserini's.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from lab.arguments import check_share
from lab.retrieval.corpus import SearchCorpus
from lab.retrieval.fields import BM25FRetriever
from lab.retrieval.retrievers import BM25Retriever, RowScorer, TextAnalyzer
from lab.vectors import WordAnalyzer

__all__ = ["RM3Retriever", "BM25FRM3Retriever"]


class _RelevanceFeedback:
    """RM3 over any lexical scorer that gives each (row, term) a score: what BM25 and BM25F share.

    A subclass provides :meth:`_first_search` (the first search's best rows), :meth:`_query_columns`,
    :meth:`_term_scores` (rows x terms) and sets ``term_shares_``, tf(t, d) / |d| over the same columns.
    """

    fb_docs: int
    fb_terms: int
    original_weight: float
    term_shares_: sp.csr_matrix

    def _fit(self, corpus: SearchCorpus) -> None:
        check_share("original_weight", self.original_weight)
        super()._fit(corpus)  # type: ignore[misc]  # the scorer's own fit, next in the method order

    def _first_search(self, query: str, k: int, visible: np.ndarray | None) -> list[tuple[int, float]]:
        raise NotImplementedError

    def _query_columns(self, query: str) -> list[int]:
        raise NotImplementedError

    def _term_scores(self) -> sp.spmatrix:
        raise NotImplementedError

    def expanded_query(self, query: str, visible: np.ndarray | None = None) -> dict[int, float]:
        """Column -> weight of the expanded query (the query alone when nothing matches it).

        ``visible`` (a row mask) limits the first search to the rows the caller may see, so that
        a hidden page's words never reach the query that ranks the visible ones.
        """
        columns = self._query_columns(query)
        weights = {column: 0.0 for column in columns}
        for column in columns:
            weights[column] += self.original_weight / len(columns)
        top = self._first_search(query, self.fb_docs, visible)  # only rows holding a query term
        if not top:  # no row holds a query term (so the query has no known term either)
            return {}
        rows = [row for row, _ in top]
        scores = np.array([score for _, score in top])
        relevance = np.asarray(self.term_shares_[rows].T @ (scores / scores.sum())).ravel()
        best = [int(t) for t in np.argsort(-relevance, kind="stable")[:self.fb_terms] if relevance[t] > 0]
        total = float(relevance[best].sum())
        for column in best:
            weights[column] = weights.get(column, 0.0) + (1 - self.original_weight) * relevance[column] / total
        return weights

    # Each query is expanded from its own first search, so scoring and ranking go query by query
    # through the expanded weights, not through the scorer's batch of plain queries.
    score = RowScorer.score
    _top_k = RowScorer._top_k

    def _score_and_eligible(self, query: str, visible: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        term_scores = self._term_scores()
        weights = self.expanded_query(query, visible)
        n_rows = term_scores.shape[0]
        if not weights:
            return np.zeros(n_rows), np.zeros(n_rows, dtype=bool)
        columns = sorted(weights)
        matrix = term_scores[:, columns]
        scores = np.asarray(matrix @ np.array([weights[c] for c in columns])).ravel()
        return scores, np.asarray(matrix.getnnz(axis=1) > 0).ravel()


def _term_shares(counts: sp.spmatrix) -> sp.csr_matrix:
    """tf(t, d) / |d| for every row of a (rows x terms) count matrix (an empty row stays empty)."""
    lengths = np.maximum(np.asarray(counts.sum(axis=1), dtype=np.float64).ravel(), 1.0)
    return sp.csr_matrix(sp.diags(1.0 / lengths) @ sp.csr_matrix(counts).astype(np.float64))


class RM3Retriever(_RelevanceFeedback, BM25Retriever):
    """BM25 (Lucene's idf) with RM3 query expansion from its own first search.

    Parameters
    ----------
    k1, b, idf, analyzer : as for :class:`~lab.retrieval.BM25Retriever`.
    fb_docs : how many first-search results the feedback reads.
    fb_terms : how many of their terms join the query.
    original_weight : the query's own share of the expanded query, in [0, 1].

    Attributes
    ----------
    bm25_ : the fitted BM25; term_shares_ : sparse (n_rows, n_terms), tf(t, d) / |d|;
    corpus_ : the corpus.
    """

    def __init__(self, k1: float = 1.5, b: float = 0.75, idf: str = "lucene", analyzer: TextAnalyzer = WordAnalyzer(),
                 fb_docs: int = 10, fb_terms: int = 10, original_weight: float = 0.5) -> None:
        super().__init__(k1=k1, b=b, idf=idf, analyzer=analyzer)
        self.fb_docs = fb_docs
        self.fb_terms = fb_terms
        self.original_weight = original_weight

    def _fit_counts(self, counts: sp.csr_matrix, terms: list[str]) -> None:
        super()._fit_counts(counts, terms)  # the feedback's term shares use the very columns BM25 does
        self.term_shares_ = _term_shares(counts)

    def _first_search(self, query: str, k: int, visible: np.ndarray | None) -> list[tuple[int, float]]:
        return self.bm25_.top_k_many([query], k, mask=visible)[0]

    def _query_columns(self, query: str) -> list[int]:
        return self.bm25_.query_terms(query)

    def _term_scores(self) -> sp.spmatrix:
        self._check_fitted("bm25_")
        return self.bm25_.weights_


class BM25FRM3Retriever(_RelevanceFeedback, BM25FRetriever):
    """BM25F (title, section, body as fields) with RM3 query expansion from its own first search.

    The feedback reads a chunk as its three fields together: tf(t, d) / |d| counts a term once
    per occurrence in any field, unweighted (the weights shape the scores, not the words a
    chunk is about). Parameters as :class:`~lab.retrieval.BM25FRetriever` and :class:`RM3Retriever`.
    """

    def __init__(self, weights: Sequence[float] = (2.0, 2.0, 1.0), k1: float = 1.5,
                 b: Sequence[float] = (0.75, 0.75, 0.75), idf: str = "lucene",
                 analyzer: TextAnalyzer = WordAnalyzer(), fb_docs: int = 10, fb_terms: int = 10,
                 original_weight: float = 0.5) -> None:
        super().__init__(weights=weights, k1=k1, b=b, idf=idf, analyzer=analyzer)
        self.fb_docs = fb_docs
        self.fb_terms = fb_terms
        self.original_weight = original_weight

    def _keep_field_counts(self, fields: Sequence[sp.csr_matrix]) -> None:
        self.term_shares_ = _term_shares(sum(fields[1:], fields[0]))

    def _first_search(self, query: str, k: int, visible: np.ndarray | None) -> list[tuple[int, float]]:
        return BM25FRetriever._top_k(self, [query], k, visible, None)[0]  # the plain BM25F search

    def _query_columns(self, query: str) -> list[int]:
        return self.query_terms(query)

    def _term_scores(self) -> sp.spmatrix:
        self._check_fitted("weights_")
        return self.weights_
