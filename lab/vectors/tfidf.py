"""TF-IDF: a vector per text whose weights say which words set it apart from the corpus.

    w(t, d) = (1 + ln f(t, d)) * (ln((1 + N) / (1 + n_t)) + 1),  rows scaled to unit L2 norm

with f(t, d) the count of term t in text d, N the number of texts and n_t how many contain t.
The logarithm keeps a word repeated ten times from weighing ten times more; the smoothed idf
(the ones act as one extra text containing every term) never divides by zero. scikit-learn's
``TfidfVectorizer(sublinear_tf=True, smooth_idf=True, norm="l2")`` with the same analyzer gives
the same matrix.

The matrix is sparse (``scipy.sparse.csr_matrix``): a 250-token chunk uses a few hundred of
tens of thousands of columns, and memory grows with those non-zeros only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np
import scipy.sparse as sp

from lab.vectors.analyzers import WordAnalyzer
from lab.vectors.counting import count_known_terms, learn_counts
from lab.vectors.estimator import Estimator
from lab.vectors.sparse_rows import entry_chunks, normalize_rows

__all__ = ["TfidfVectorizer"]

_NORMS = ("l2", "l1", None)


class TfidfVectorizer(Estimator):
    """Texts to TF-IDF vectors, with the scikit-learn API (fit / transform / fit_transform).

    Parameters
    ----------
    analyzer : callable ``text -> list[str]``
        Turns a text into terms; the default drops Spanish stop words and all-digit tokens.
    sublinear_tf : bool
        Use ``1 + ln f`` instead of the raw count ``f``.
    smooth_idf : bool
        Use ``ln((1 + N) / (1 + n_t)) + 1`` instead of ``ln(N / n_t) + 1``.
    norm : "l2", "l1" or None
        Scale each row to unit norm (zero rows stay zero).
    dtype : numpy float type of the output matrix.

    Attributes
    ----------
    vocabulary_ : dict term -> column, columns in sorted term order.
    idf_ : ndarray of shape (n_terms,).
    """

    #: A bag of words counts every term of a text, however long: no input limit to cut at.
    max_input_tokens = None

    def __init__(
        self,
        analyzer: Callable[[str], list[str]] = WordAnalyzer(),
        sublinear_tf: bool = True,
        smooth_idf: bool = True,
        norm: str | None = "l2",
        dtype: type = np.float64,
    ) -> None:
        self.analyzer = analyzer
        self.sublinear_tf = sublinear_tf
        self.smooth_idf = smooth_idf
        self.norm = norm
        self.dtype = dtype

    def fit(self, texts: Iterable[str]) -> TfidfVectorizer:
        """Learn the vocabulary and the idf weights from ``texts``; returns self."""
        self._fit_counts(texts)
        return self

    def fit_transform(self, texts: Iterable[str]) -> sp.csr_matrix:
        """Fit on ``texts`` and return their matrix of shape (n_texts, n_terms), counting once."""
        return self._weigh(self._fit_counts(texts))

    def fit_transform_counts(self, counts: sp.csr_matrix, terms: Sequence[str]) -> sp.csr_matrix:
        """Fit on a term count matrix already made (shape (n_texts, n_terms), ``terms[j]`` the term
        of column ``j`` in sorted order, as :func:`~lab.vectors.counting.learn_counts` returns it)
        and return the texts' matrix: what a stored index holds instead of its texts' vectors."""
        if len(terms) != counts.shape[1]:
            raise ValueError(f"need one term per column: {counts.shape[1]} columns, {len(terms)} terms")
        return self._weigh(self._learn_idf(counts, list(terms)))

    def transform(self, texts: Iterable[str]) -> sp.csr_matrix:
        """TF-IDF matrix of shape (n_texts, n_terms); terms unseen in fit are left out."""
        self._check_fitted("idf_")
        return self._weigh(count_known_terms(texts, self.analyzer, self.vocabulary_))

    def get_feature_names_out(self) -> np.ndarray:
        """The term of every column, as an object array (column order = sorted terms)."""
        self._check_fitted("vocabulary_")
        return np.asarray(list(self.vocabulary_), dtype=object)

    def unknown_terms(self, text: str) -> list[str]:
        """Terms of ``text`` (after the analyzer) that the vocabulary lacks, in first-seen order.

        ``transform`` has to leave them out; reporting them shows what a query lost.
        """
        self._check_fitted("vocabulary_")
        return list(dict.fromkeys(term for term in self.analyzer(text) if term not in self.vocabulary_))

    def _fit_counts(self, texts: Iterable[str]) -> sp.csr_matrix:
        return self._learn_idf(*learn_counts(texts, self.analyzer))

    def _learn_idf(self, counts: sp.csr_matrix, terms: list[str]) -> sp.csr_matrix:
        if self.norm not in _NORMS:
            raise ValueError(f"norm must be one of {_NORMS}, not {self.norm!r}")
        if counts.shape[0] == 0:
            raise ValueError("fit needs at least one text; got an empty collection")
        if not terms:
            raise ValueError(
                "the vocabulary is empty: every term was dropped by the analyzer "
                "(only stop words or digits?); check the texts or the analyzer's stop_words"
            )
        n_texts = counts.shape[0]
        document_frequency = np.bincount(counts.indices, minlength=len(terms))
        if self.smooth_idf:
            idf = np.log((1 + n_texts) / (1 + document_frequency)) + 1
        else:
            idf = np.log(n_texts / document_frequency) + 1
        self.vocabulary_ = {term: column for column, term in enumerate(terms)}
        self.idf_ = idf
        return counts

    def _weigh(self, counts: sp.csr_matrix) -> sp.csr_matrix:
        weights = counts.data.astype(np.float64)
        if self.sublinear_tf:
            np.log(weights, out=weights)
            weights += 1
        for entries in entry_chunks(weights.size):
            weights[entries] *= self.idf_[counts.indices[entries]]
        matrix = sp.csr_matrix((weights, counts.indices, counts.indptr), shape=counts.shape)
        if self.norm is not None:
            normalize_rows(matrix, self.norm)
        return matrix.astype(self.dtype, copy=False)
