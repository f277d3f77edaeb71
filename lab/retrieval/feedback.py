"""Pseudo-relevance feedback (RM3): search once, learn words from the top results, search again.

A question and the page that answers it often share only a word or two. RM3 (Abdul-Jaleel et
al., UMass at TREC 2004; as in Anserini, Lin et al.) assumes the first search's top documents
are relevant, and adds the words they use most to the query:

    P(t | R) ∝ sum over the fb_docs best documents d of  score(d) * tf(t, d) / |d|

The ``fb_terms`` most likely terms are kept, their weights scaled to sum to 1, and mixed with
the query's own terms (each ``1 / |q|``) as ``original_weight * query + (1 - original_weight) *
feedback``; documents are scored again with BM25 by that weighted query. The defaults (10
documents, 10 terms, 0.5) are Anserini's.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from lab.retrieval.corpus import SearchCorpus
from lab.retrieval.retrievers import BM25Retriever, RowScorer, TextAnalyzer
from lab.vectors import WordAnalyzer

__all__ = ["RM3Retriever"]


class RM3Retriever(BM25Retriever):
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

    def _fit(self, corpus: SearchCorpus) -> None:
        if not 0 <= self.original_weight <= 1:
            raise ValueError(f"original_weight must be between 0 and 1, not {self.original_weight!r}")
        super()._fit(corpus)

    def _fit_counts(self, counts: sp.csr_matrix, terms: list[str]) -> None:
        super()._fit_counts(counts, terms)  # the feedback's term shares use the very columns BM25 does
        lengths = np.maximum(np.asarray(counts.sum(axis=1), dtype=np.float64).ravel(), 1.0)
        self.term_shares_ = sp.csr_matrix(sp.diags(1.0 / lengths) @ counts.astype(np.float64))

    def expanded_query(self, query: str) -> dict[int, float]:
        """Column -> weight of the expanded query (the query alone when nothing matches it)."""
        columns = self.bm25_.query_terms(query)
        weights = {column: 0.0 for column in columns}
        for column in columns:
            weights[column] += self.original_weight / len(columns)
        top = self.bm25_.top_k(query, self.fb_docs)  # the first search: only rows holding a query term
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
    # through the expanded weights, not through BM25's batch of plain queries.
    score = RowScorer.score
    _top_k = RowScorer._top_k

    def _score_and_eligible(self, query: str) -> tuple[np.ndarray, np.ndarray]:
        self._check_fitted("bm25_")
        weights = self.expanded_query(query)
        n_rows = self.bm25_.weights_.shape[0]
        if not weights:
            return np.zeros(n_rows), np.zeros(n_rows, dtype=bool)
        columns = sorted(weights)
        matrix = self.bm25_.weights_[:, columns]
        scores = np.asarray(matrix @ np.array([weights[c] for c in columns])).ravel()
        return scores, np.asarray(matrix.getnnz(axis=1) > 0).ravel()
