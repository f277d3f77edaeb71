"""BM25F: a chunk's title, section heading and body scored as fields, each normalised by its own length.

Repeating the headings (:class:`~lab.retrieval.HeadingWeighted`) makes them count more, but
it also makes every chunk longer, and the length that BM25 normalises is then one number for
text of very different kinds: a title of four words and a body of a hundred and fifty. BM25F
(Robertson, Zaragoza and Taylor 2004; in the simple form of Robertson and Zaragoza, "The
Probabilistic Relevance Framework: BM25 and Beyond", 2009) normalises each field by its own
mean length, weights it, and only then saturates the combined frequency:

    tf~(t, d) = sum over fields f of  w_f * tf(t, f, d) / (1 - b_f + b_f * len(f, d) / avglen_f)
    score(q, d) = sum over query terms t of  idf(t) * tf~(t, d) / (k1 + tf~(t, d))

with idf counted over whole chunks (a term is in a chunk if any field has it). With every
``b_f = 0`` and weights ``(w, w, 1)`` this is BM25 over the chunk text with its headings
repeated ``w - 1`` more times: the difference BM25F makes is the per-field normalisation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from lab.arguments import check_share
from lab.retrieval.corpus import SearchCorpus, chunk_body
from lab.retrieval.retrievers import Ranked, RowScorer, TextAnalyzer
from lab.vectors import WordAnalyzer
from lab.vectors.bm25 import BM25_IDF, check_bm25_parameters
from lab.vectors.counting import known_term_columns, learn_counts
from lab.vectors.search import top_k_sparse_product

__all__ = ["FIELDS", "BM25FRetriever"]

#: The fields of a chunk, in the order weights and ``b`` values are given.
FIELDS = ("title", "section", "body")


def _field_texts(corpus: SearchCorpus) -> list[list[str]]:
    """Titles, section headings ("" for text before the first heading) and bodies without the header line."""
    return [list(corpus.titles), [section or "" for section in corpus.sections],
            [chunk_body(text, title) for text, title in zip(corpus.texts, corpus.titles)]]


class BM25FRetriever(RowScorer):
    """BM25F over title, section and body (Lucene's idf and tf form, as :class:`~lab.retrieval.BM25Retriever`).

    Parameters
    ----------
    weights : (title, section, body) weights; ``(2, 2, 1)`` counts each heading word twice.
    k1 : saturation of the combined frequency.
    b : (title, section, body) length normalisation, each in [0, 1].
    idf : "lucene", "robertson" or "atire" (see :class:`lab.vectors.BM25`).
    analyzer : callable ``text -> list[str]`` for every field and for queries.

    Attributes
    ----------
    vocabulary_ : dict term -> column; idf_ : ndarray (n_terms,);
    weights_ : scipy.sparse.csc_matrix (n_rows, n_terms), the score each term gives each row;
    corpus_ : the corpus.
    """

    def __init__(self, weights: Sequence[float] = (2.0, 2.0, 1.0), k1: float = 1.5,
                 b: Sequence[float] = (0.75, 0.75, 0.75), idf: str = "lucene",
                 analyzer: TextAnalyzer = WordAnalyzer()) -> None:
        self.weights = weights
        self.k1 = k1
        self.b = b
        self.idf = idf
        self.analyzer = analyzer

    def _check_parameters(self) -> None:
        if len(self.weights) != len(FIELDS) or len(self.b) != len(FIELDS):
            raise ValueError(f"weights and b take one value per field {FIELDS}, not {self.weights!r} and {self.b!r}")
        if any(not 0 <= w < math.inf for w in self.weights):  # an infinite weight makes every score NaN
            raise ValueError(f"field weights must be finite numbers >= 0, not {self.weights!r}")
        for field, b in zip(FIELDS, self.b):
            check_share(f"b of the {field}", b)
        check_bm25_parameters(self.k1, self.idf)

    def _fit(self, corpus: SearchCorpus) -> None:
        self._check_parameters()
        fields = _field_texts(corpus)
        n_rows = len(corpus)
        counts, terms = learn_counts([text for field in fields for text in field], self.analyzer)
        if not terms:
            raise ValueError("the vocabulary is empty: the analyzer dropped every term of every field")
        combined = sp.csr_matrix((n_rows, len(terms)), dtype=np.float64)
        field_counts = [counts[index * n_rows:(index + 1) * n_rows].astype(np.float64) for index in range(len(FIELDS))]
        self._keep_field_counts(field_counts)
        for field, weight, b in zip(field_counts, self.weights, self.b):
            lengths = np.asarray(field.sum(axis=1)).ravel()
            mean = lengths.mean() or 1.0  # a field empty in every row: nothing to normalise
            combined = combined + sp.diags(weight / (1 - b + b * lengths / mean)) @ field
        combined = sp.csr_matrix(combined)
        combined.eliminate_zeros()
        document_frequency = np.bincount(combined.indices, minlength=len(terms)).astype(np.float64)
        self.idf_ = BM25_IDF[self.idf](n_rows, document_frequency)
        combined.data = self.idf_[combined.indices] * combined.data / (self.k1 + combined.data)
        self.vocabulary_ = {term: column for column, term in enumerate(terms)}
        self.weights_ = combined.tocsc()

    def _keep_field_counts(self, fields: Sequence[sp.csr_matrix]) -> None:
        """A hook for subclasses that need each field's raw term counts (RM3 does); nothing here."""

    def query_terms(self, query: str) -> list[int]:
        """Columns of the query's known terms, repeats kept (a repeated term counts again, as in BM25)."""
        return self._occurrences([query]).indices.tolist()

    def _top_k(self, queries: list[str], k: int, visible: np.ndarray, min_score: float | None) -> Ranked:
        """All queries ranked at once, as :class:`~lab.retrieval.BM25Retriever` ranks them: only rows
        holding a query term are scored, one term's rows at a time."""
        return top_k_sparse_product(self._occurrences(queries), self.weights_, k, mask=visible, min_score=min_score)

    def _occurrences(self, queries: list[str]) -> sp.csr_matrix:
        """The queries' known terms, one row per query, a 1 per occurrence in query order."""
        self._check_fitted("weights_")
        return known_term_columns(queries, self.analyzer, self.vocabulary_)

    def _score_and_eligible(self, query: str, visible: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        columns = self.query_terms(query)
        n_rows = self.weights_.shape[0]
        if not columns:
            return np.zeros(n_rows), np.zeros(n_rows, dtype=bool)
        scores = np.asarray(self.weights_[:, columns].sum(axis=1)).ravel()
        matched = np.asarray(self.weights_[:, sorted(set(columns))].getnnz(axis=1) > 0).ravel()
        return scores, matched
