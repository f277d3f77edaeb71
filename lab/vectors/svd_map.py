"""The 2-D map of a corpus: project the centred vectors on their two main directions.

The directions are the top right singular vectors of the centred matrix ``X - mean`` (the same
as PCA). Centring a sparse matrix makes it dense: 20,000 chunks x 50,000 terms would be 8 GB,
and decomposing even a dense 2,000 x 42,000 one takes minutes. Two routes avoid it:

- ``"gram"``, for few rows (n <= GRAM_MAX_ROWS): the centred Gram matrix
  ``Xc Xc^T = X X^T - r 1^T - 1 r^T + |m|^2`` (with ``r = X m``) is only n x n; its top
  eigenvectors are the left singular vectors, exactly.
- ``"arpack"``, for many rows: ARPACK (``scipy.sparse.linalg.svds``) only needs products with
  ``Xc``, and ``Xc v = X v - (m . v) 1`` never forms ``Xc``. The start vector is seeded.

The share of variance a component explains is ``s_k^2 / ||Xc||_F^2``, and the denominator needs
no densifying either: ``||Xc||_F^2 = ||X||_F^2 - n |m|^2``.

Signs of singular vectors are arbitrary; here each component's largest-magnitude loading is
made positive, so the same corpus always draws the same map.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from scipy.sparse.linalg import LinearOperator, svds

__all__ = ["SvdMap", "svd_map", "GRAM_MAX_ROWS", "fix_signs"]

#: Up to this many rows the Gram route is used: its n x n matrix (at most 1,000 x 1,000 floats,
#: 8 MB) decomposes in a fraction of a second, exactly and without iterating.
#: Above it ARPACK is faster and its memory grows only with the non-zeros.
GRAM_MAX_ROWS = 1000

_SOLVERS = ("auto", "gram", "arpack")


@dataclass(frozen=True, eq=False)
class SvdMap:
    """A fitted projection: coordinates of the rows, the directions, and what they explain.

    Attributes
    ----------
    coords_ : ndarray of shape (n_rows, n_components), the rows on the map.
    components_ : ndarray of shape (n_components, n_features), unit directions, best first.
    mean_ : ndarray of shape (n_features,), the row mean that was subtracted.
    singular_values_ : ndarray of shape (n_components,), of the centred matrix.
    explained_variance_ratio_ : ndarray of shape (n_components,), ``s_k^2 / ||X - mean||_F^2``.
    solver_ : "gram" or "arpack", the route that computed it.
    """

    coords_: np.ndarray
    components_: np.ndarray
    mean_: np.ndarray
    singular_values_: np.ndarray
    explained_variance_ratio_: np.ndarray
    solver_: str

    def transform(self, Y: np.ndarray | sp.spmatrix) -> np.ndarray:
        """Place new rows (for example a query) on the map: ``(Y - mean_) @ components_.T``."""
        if not sp.issparse(Y):
            Y = np.asarray(Y, dtype=np.float64)
        if Y.ndim == 1:
            Y = Y.reshape(1, -1)
        if Y.shape[1] != self.mean_.size:
            raise ValueError(f"Y has {Y.shape[1]} features; the map was fitted on {self.mean_.size}")
        projected = np.asarray(Y @ self.components_.T, dtype=np.float64)
        return projected - self.mean_ @ self.components_.T


def svd_map(
    X: np.ndarray | sp.spmatrix,
    n_components: int = 2,
    random_state: int = 0,
    solver: str = "auto",
) -> SvdMap:
    """Project the rows of ``X`` (n_rows, n_features) onto the top directions of the centred matrix.

    ``solver="auto"`` picks the Gram route up to :data:`GRAM_MAX_ROWS` rows and ARPACK above.
    """
    if solver not in _SOLVERS:
        raise ValueError(f"solver must be one of {_SOLVERS}, not {solver!r}")
    X = _as_float_rows(X)
    n_rows, n_features = X.shape
    if n_rows < 2:
        raise ValueError(f"a map needs at least 2 rows, got {n_rows}")
    if solver == "auto":
        solver = "gram" if n_rows <= GRAM_MAX_ROWS else "arpack"
    largest = min(n_rows, n_features) - (1 if solver == "arpack" else 0)
    if not 1 <= n_components <= largest:
        raise ValueError(
            f"n_components must be between 1 and {largest} for a {n_rows} x {n_features} matrix "
            f"with the {solver} solver, not {n_components}"
        )
    mean = _column_means(X)
    values = X.data if sp.issparse(X) else X.ravel()
    squared_norm = float(values @ values)
    total_variance = squared_norm - n_rows * float(mean @ mean)
    if total_variance <= 1e-12 * max(squared_norm, 1.0):
        raise ValueError("all rows are identical: there is no variation to draw on a map")
    if solver == "gram":
        singular_values, components = _gram_route(X, mean, n_components)
    else:
        singular_values, components = _arpack_route(X, mean, n_components, random_state)
    components = fix_signs(components)
    coords = np.asarray(X @ components.T, dtype=np.float64) - mean @ components.T
    return SvdMap(
        coords_=coords,
        components_=components,
        mean_=mean,
        singular_values_=singular_values,
        explained_variance_ratio_=singular_values**2 / total_variance,
        solver_=solver,
    )


def _as_float_rows(X: np.ndarray | sp.spmatrix) -> np.ndarray | sp.csr_matrix:
    if not sp.issparse(X):
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError(f"expected a 2-D matrix (n_rows, n_features), got shape {X.shape}")
        return X
    X = sp.csr_matrix(X, dtype=np.float64)
    if not X.has_canonical_format:  # duplicate entries would spoil the squared norm of X.data
        X = X.copy()
        X.sum_duplicates()
    return X


def _column_means(X: np.ndarray | sp.csr_matrix) -> np.ndarray:
    if sp.issparse(X):  # scipy's X.mean copies the matrix; a product with ones does not
        return np.asarray(X.T @ np.ones(X.shape[0])) / X.shape[0]
    return X.mean(axis=0)


def fix_signs(components: np.ndarray) -> np.ndarray:
    """Flip each row so that its largest-magnitude entry is positive (first one on ties)."""
    largest = np.argmax(np.abs(components), axis=1)
    signs = np.sign(components[np.arange(components.shape[0]), largest])
    signs[signs == 0] = 1
    return components * signs[:, None]


def _gram_route(X: np.ndarray | sp.csr_matrix, mean: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    n_rows = X.shape[0]
    gram = X @ X.T
    gram = gram.toarray() if sp.issparse(gram) else np.asarray(gram)
    row_dot_mean = np.asarray(X @ mean).ravel()
    centred_gram = gram - row_dot_mean[:, None] - row_dot_mean[None, :] + mean @ mean
    eigenvalues, eigenvectors = scipy.linalg.eigh(centred_gram, subset_by_index=[n_rows - k, n_rows - 1])
    eigenvalues, eigenvectors = eigenvalues[::-1], eigenvectors[:, ::-1]
    singular_values = np.sqrt(np.clip(eigenvalues, 0.0, None))
    # right singular vectors from the left ones: v = Xc^T u / s (a direction with s ~ 0 is no direction)
    projected = np.asarray(X.T @ eigenvectors).T - np.outer(eigenvectors.sum(axis=0), mean)
    usable = singular_values > 1e-10 * max(singular_values[0], 1e-300)
    components = np.zeros((k, X.shape[1]))
    components[usable] = projected[usable] / singular_values[usable, None]
    singular_values[~usable] = 0.0
    return singular_values, components


def _centred_operator(X: np.ndarray | sp.csr_matrix, mean: np.ndarray) -> LinearOperator:
    XT = X.T  # for CSR input a CSC view: no copy of the matrix

    def matmat(V: np.ndarray) -> np.ndarray:
        return np.asarray(X @ V) - mean @ V

    def rmatmat(U: np.ndarray) -> np.ndarray:
        return np.asarray(XT @ U) - np.outer(mean, U.sum(axis=0)).reshape(mean.size, *U.shape[1:])

    return LinearOperator(
        shape=X.shape,
        dtype=np.float64,
        matvec=lambda v: matmat(v.ravel()),
        rmatvec=lambda u: rmatmat(u.ravel()).ravel(),
        matmat=matmat,
        rmatmat=rmatmat,
    )


def _arpack_route(
    X: np.ndarray | sp.csr_matrix, mean: np.ndarray, k: int, random_state: int
) -> tuple[np.ndarray, np.ndarray]:
    v0 = np.random.default_rng(random_state).uniform(-1.0, 1.0, size=min(X.shape))
    _, singular_values, components = svds(_centred_operator(X, mean), k=k, v0=v0, solver="arpack")
    order = np.argsort(-singular_values, kind="stable")
    return singular_values[order], components[order]
