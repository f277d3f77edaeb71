"""BM25: keyword ranking that saturates repeated words and discounts long documents.

For a query q and a document d of length |d| (terms after the analyzer) in a corpus of N
documents of mean length avgdl:

    score(q, d) = sum over query terms t of  idf(t) * f(t, d) / (f(t, d) + k1 * (1 - b + b * |d| / avgdl))

The term-frequency part is Lucene's (since Lucene 8 it drops the constant factor (k1 + 1) of the
textbook form, which changes no ranking). BM25 variants differ mainly in the idf, so it is named:

- ``"lucene"`` (default): ``ln(1 + (N - n_t + 0.5) / (n_t + 0.5))``, never negative;
- ``"robertson"``: ``ln((N - n_t + 0.5) / (n_t + 0.5))``, the classic Robertson-Sparck Jones
  weight, negative for terms in more than half the documents (rank-bm25's BM25Okapi floors
  those at a fraction of the mean idf; this one does not);
- ``"atire"``: ``ln(N / n_t)``, zero for a term present everywhere.

Names and formulas follow Kamphuis, de Vries, Boytsov and Lin, "Which BM25 do you mean?"
(ECIR 2020), as does bm25s. A query term repeated counts once per repetition, as in Lucene.

Fitting precomputes every document's weight for every term it contains (a sparse matrix,
column per term), so a query costs one column slice per query term plus a sum: that is
:meth:`BM25.score`, the formula as written. Searching (:meth:`BM25.top_k_many`) gives the same
top k with the same scores, in compiled code, without reading every slice whole: each column's
largest weight bounds what a document can get from that term, so once k documents are found the
long columns of frequent words are only looked up for the documents that can still enter, and
each weight has a one-byte level that bounds it, read instead of the weight to find the few
documents worth scoring; the terms in a sixteenth of the documents or more also keep their levels
by document, so that a query sums them for every document in vectorised loops
(:mod:`lab.vectors.max_score`, through :func:`lab.vectors.search.top_k_sparse_product`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np
import scipy.sparse as sp
from numba import njit

from lab.arguments import check_share
from lab.vectors.analyzers import WordAnalyzer
from lab.vectors.counting import known_term_columns, learn_counts
from lab.vectors.estimator import Estimator
from lab.vectors.max_score import dense_levels, weight_levels
from lab.vectors.search import top_k_sparse_product

__all__ = ["BM25", "BM25_IDF", "check_bm25_parameters"]


def _lucene_idf(n_docs: int, document_frequency: np.ndarray) -> np.ndarray:
    return np.log1p((n_docs - document_frequency + 0.5) / (document_frequency + 0.5))


def _robertson_idf(n_docs: int, document_frequency: np.ndarray) -> np.ndarray:
    return np.log((n_docs - document_frequency + 0.5) / (document_frequency + 0.5))


def _atire_idf(n_docs: int, document_frequency: np.ndarray) -> np.ndarray:
    # a column no document uses (counts fitted with a fixed vocabulary) weighs 0, not log(N / 0) = infinity
    ratio = np.divide(float(n_docs), document_frequency, out=np.ones_like(document_frequency, dtype=np.float64),
                      where=document_frequency > 0)
    return np.log(ratio)


#: The idf variants BM25 accepts, by name.
BM25_IDF: dict[str, Callable[[int, np.ndarray], np.ndarray]] = {
    "lucene": _lucene_idf,
    "robertson": _robertson_idf,
    "atire": _atire_idf,
}



def check_bm25_parameters(k1: float, idf: str) -> None:
    """Refuse a saturation ``k1`` that is not a finite number >= 0 and an unknown idf variant
    (BM25 and BM25F alike; an infinite k1 makes every score NaN)."""
    if idf not in BM25_IDF:
        raise ValueError(f"unknown idf variant {idf!r}; use one of {sorted(BM25_IDF)}")
    if not 0 <= k1 < float("inf"):
        raise ValueError(f"k1 must be a finite number >= 0, not {k1!r}")


@njit(nogil=True, cache=True)
def _weights_by_term(indptr, indices, counts, idf, length_norm):  # type: ignore[no-untyped-def]
    """Every stored count's weight, ``idf[t] * f / (f + length_norm[d])``, laid out term by term.

    Reads a count matrix by document (CSR) and writes its weights by term (CSC: ``data``,
    ``indices``, ``indptr``), documents in order within each term, in one pass: what building
    the weights by document and converting them would do, without the weights held twice.
    """
    n_terms = idf.size
    term_indptr = np.zeros(n_terms + 1, dtype=indptr.dtype)
    for p in range(indices.size):
        term_indptr[indices[p] + 1] += 1
    for t in range(n_terms):
        term_indptr[t + 1] += term_indptr[t]
    free = term_indptr[:-1].copy()  # where each term's next document goes
    documents = np.empty(indices.size, dtype=indptr.dtype)
    weights = np.empty(indices.size)
    for d in range(indptr.size - 1):
        for p in range(indptr[d], indptr[d + 1]):
            t = indices[p]
            tf = np.float64(counts[p])
            documents[free[t]] = d
            weights[free[t]] = idf[t] * (tf / (tf + length_norm[d]))  # the formula, as written above
            free[t] += 1
    return weights, documents, term_indptr


def _column_maxima(matrix: sp.csc_matrix) -> np.ndarray:
    """The largest stored value of each column of a CSC matrix (0 for an empty column)."""
    maxima = np.zeros(matrix.shape[1])
    filled = np.flatnonzero(np.diff(matrix.indptr))
    if filled.size:
        maxima[filled] = np.maximum.reduceat(matrix.data, matrix.indptr[filled])
    return maxima


class BM25(Estimator):
    """A BM25 index over a list of texts, queried with raw text.

    Parameters
    ----------
    k1 : float >= 0
        How fast repeated occurrences saturate (0: presence only).
    b : float in [0, 1]
        How much document length is normalised away (0: not at all, 1: fully).
    idf : "lucene", "robertson" or "atire"
        The idf variant (see the module docstring).
    analyzer : callable ``text -> list[str]``
        The same for documents and queries.

    Attributes
    ----------
    vocabulary_ : dict term -> column, sorted terms.
    idf_ : ndarray of shape (n_terms,).
    doc_lengths_ : ndarray of shape (n_docs,), terms per document after the analyzer.
    avgdl_ : float, mean document length.
    weights_ : scipy.sparse.csc_matrix of shape (n_docs, n_terms), the score each term gives each document.
    max_weights_ : ndarray of shape (n_terms,), each column's largest weight: the most a term adds to a score.
    weight_levels_ : uint8 ndarray parallel to ``weights_.data``, each weight rounded up to a 255th of its column's largest.
    level_rows_ : uint8 ndarray of shape (n_frequent, n_docs), the levels of the terms found in at least a sixteenth
        of the documents, laid out by document (0 where a document lacks the term).
    level_slots_ : int32 ndarray of shape (n_terms,), each term's row in ``level_rows_``, -1 for the others.
    """

    def __init__(
        self,
        k1: float = 1.5,
        b: float = 0.75,
        idf: str = "lucene",
        analyzer: Callable[[str], list[str]] = WordAnalyzer(),
    ) -> None:
        self.k1 = k1
        self.b = b
        self.idf = idf
        self.analyzer = analyzer

    def fit(self, texts: Iterable[str]) -> BM25:
        """Index ``texts``: count terms and precompute every (document, term) weight; returns self."""
        return self.fit_counts(*learn_counts(texts, self.analyzer))

    def fit_counts(self, counts: sp.csr_matrix, terms: Sequence[str]) -> BM25:
        """Index a term count matrix already made (shape (n_docs, n_terms), ``terms[j]`` the term
        of column ``j`` in sorted order, as :func:`~lab.vectors.counting.learn_counts` returns it):
        what a stored index holds, so loading it analyses no text; returns self."""
        if len(terms) != counts.shape[1]:
            raise ValueError(f"need one term per column: {counts.shape[1]} columns, {len(terms)} terms")
        check_bm25_parameters(self.k1, self.idf)
        check_share("b", self.b)
        n_docs = counts.shape[0]
        if n_docs == 0:
            raise ValueError("fit needs at least one text; got an empty collection")
        if not terms:
            raise ValueError(
                "the vocabulary is empty: every term was dropped by the analyzer "
                "(only stop words or digits?); check the texts or the analyzer's stop_words"
            )
        document_frequency = np.bincount(counts.indices, minlength=len(terms))
        doc_lengths = np.asarray(counts.sum(axis=1), dtype=np.float64).ravel()
        avgdl = float(doc_lengths.mean())
        idf = BM25_IDF[self.idf](n_docs, document_frequency.astype(np.float64))
        length_norm = self.k1 * (1 - self.b + self.b * doc_lengths / (avgdl if avgdl > 0 else 1.0))
        self.vocabulary_ = {term: column for column, term in enumerate(terms)}
        self.idf_ = idf
        self.doc_lengths_ = doc_lengths
        self.avgdl_ = avgdl
        self.weights_ = sp.csc_matrix(_weights_by_term(counts.indptr, counts.indices, counts.data, idf, length_norm),
                                      shape=counts.shape)
        self.max_weights_ = _column_maxima(self.weights_)
        self.weight_levels_ = weight_levels(self.weights_, self.max_weights_)
        self.level_slots_, self.level_rows_ = dense_levels(self.weights_, self.weight_levels_)
        return self

    def query_terms(self, query: str) -> list[int]:
        """Columns of the query's known terms in query order, repeats kept; unknown terms score nothing."""
        return self._occurrences([query]).indices.tolist()

    def score(self, query: str) -> np.ndarray:
        """BM25 score of every document for ``query``, shape (n_docs,); 0 where no query term occurs."""
        columns = self.query_terms(query)
        weights = self.weights_
        scores = np.zeros(weights.shape[0])
        for column in columns:  # a repeated term adds its weights once per repetition
            documents = slice(weights.indptr[column], weights.indptr[column + 1])
            scores[weights.indices[documents]] += weights.data[documents]
        return scores

    def top_k(self, query: str, k: int = 10) -> list[tuple[int, float]]:
        """The ``k`` best documents as ``(row, score)``, best first, ties in row order.

        Only documents containing at least one query term are ranked, so fewer than ``k`` may
        come back (none for a query whose terms the corpus never uses).
        """
        return self.top_k_many([query], k)[0]

    def top_k_many(self, queries: Iterable[str], k: int = 10, *, mask: np.ndarray | None = None,
                   min_score: float | None = None) -> list[list[tuple[int, float]]]:
        """:meth:`top_k` for every query of a list, scored together; one list per query, in order.

        Documents where ``mask`` (shape (n_docs,)) is false, or scoring below ``min_score``, are
        never ranked, as in :func:`lab.vectors.top_k_rows`.

        The queries become a (n_queries, n_terms) sparse matrix holding a 1 per occurrence of a
        known term, and each document's score is that row times its weights: the sum of
        :meth:`score`, added in the same order, so both give the very same numbers. Documents
        that cannot reach the top k are skipped with the columns' largest weights, which bound
        what they can still get; that needs weights >= 0, so a Robertson idf that went negative
        scores every matching document.
        """
        occurrences = self._occurrences(queries)
        bounds = self.max_weights_ if (self.idf_ >= 0).all() else None
        return top_k_sparse_product(occurrences, self.weights_, k, mask=mask, min_score=min_score,
                                    column_bounds=bounds, levels=self.weight_levels_,
                                    level_rows=(self.level_slots_, self.level_rows_))

    def _occurrences(self, queries: Iterable[str]) -> sp.csr_matrix:
        """The queries' known terms, one row per query (the one place queries meet the analyzer)."""
        self._check_fitted("weights_")
        return known_term_columns(queries, self.analyzer, self.vocabulary_)
