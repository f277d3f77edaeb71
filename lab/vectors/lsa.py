"""LSA (latent semantic analysis): short dense vectors from a TF-IDF matrix, computed offline.

A truncated SVD of the TF-IDF matrix keeps the directions along which words co-occur, so two
chunks can be close without sharing a word if their words keep the same company. Unlike the
map, the matrix is not centred (as in scikit-learn's ``TruncatedSVD``): centring would densify
it. Rows come out L2-normalised and float32, ready for :func:`lab.vectors.cosine_scores` and for
a float32 vector column.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import svds

from lab.arguments import check_positive_int
from lab.vectors.estimator import Estimator
from lab.vectors.sparse_rows import unit_rows
from lab.vectors.svd_map import fix_signs

__all__ = ["LsaVectorizer", "lsa_model_name"]


def lsa_model_name(components: int) -> str:
    """The name LSA vectors of ``components`` dimensions are stored under (a dimension is a model)."""
    return f"lsa-{components}"


class LsaVectorizer(Estimator):
    """Truncated SVD of a TF-IDF matrix, with unit-length float32 rows.

    Parameters
    ----------
    n_components : int
        Dimensions wanted. ARPACK finds at most ``min(n_docs, n_terms) - 1`` of them, so a
        smaller corpus gets fewer: ``n_components_`` says how many were kept.
    random_state : int
        Seed of ARPACK's start vector (the result is deterministic for a given seed).

    Attributes
    ----------
    n_components_ : int, the dimensions actually computed.
    components_ : ndarray of shape (n_components_, n_terms), best first, largest loading positive.
    singular_values_ : ndarray of shape (n_components_,).
    """

    def __init__(self, n_components: int = 128, random_state: int = 0) -> None:
        self.n_components = n_components
        self.random_state = random_state

    def fit(self, X: sp.spmatrix | np.ndarray) -> LsaVectorizer:
        """Learn the top singular directions of ``X`` (n_docs, n_terms); returns self."""
        check_positive_int("n_components", self.n_components)
        X = _as_float(X)
        largest = min(X.shape) - 1
        if largest < 1:
            raise ValueError(f"LSA needs at least a 2 x 2 matrix, got {X.shape[0]} x {X.shape[1]}")
        k = min(int(self.n_components), largest)
        v0 = np.random.default_rng(self.random_state).uniform(-1.0, 1.0, size=min(X.shape))
        _, singular_values, components = svds(X, k=k, v0=v0, solver="arpack")
        order = np.argsort(-singular_values, kind="stable")
        self.n_components_ = k
        self.singular_values_ = singular_values[order]
        # stored column-major, so that ``components_.T`` in transform is a C-ordered view: scipy would
        # otherwise copy all n_terms x k values for every query it projects
        self.components_ = np.asfortranarray(fix_signs(components[order]))
        return self

    def transform(self, X: sp.spmatrix | np.ndarray) -> np.ndarray:
        """Dense float32 array of shape (n_docs, n_components_), rows of unit length (zero rows stay zero)."""
        self._check_fitted("components_")
        X = _as_float(X)
        if X.shape[1] != self.components_.shape[1]:
            raise ValueError(f"X has {X.shape[1]} terms; the model was fitted on {self.components_.shape[1]}")
        return unit_rows(np.asarray(X @ self.components_.T, dtype=np.float64), np.float32)

    def fit_transform(self, X: sp.spmatrix | np.ndarray) -> np.ndarray:
        """Fit on ``X`` and return its reduced rows."""
        return self.fit(X).transform(X)


def _as_float(X: sp.spmatrix | np.ndarray) -> sp.csr_matrix | np.ndarray:
    if sp.issparse(X):
        return sp.csr_matrix(X, dtype=np.float64)
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"expected a 2-D matrix (n_docs, n_terms), got shape {X.shape}")
    return X
