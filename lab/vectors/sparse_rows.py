"""Row-wise work on matrices: CSR rows in bounded memory, and rows of unit length for any matrix.

A matrix of 100,000 chunks holds some 15 million stored entries; a temporary the size of all of
them is 120 MB. These helpers walk the entries in runs of at most ``_CHUNK`` (with the row of
each entry when needed), so temporaries stay a couple of megabytes whatever the corpus size.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import scipy.sparse as sp

__all__ = ["entry_chunks", "rows_of", "normalize_rows", "unit_rows"]

# Stored entries handled at once: temporaries stay near 2 MB however large the matrix is.
_CHUNK = 1 << 18


def entry_chunks(n_entries: int) -> Iterator[slice]:
    """Consecutive runs of at most ``_CHUNK`` stored entries."""
    for start in range(0, n_entries, _CHUNK):
        yield slice(start, min(start + _CHUNK, n_entries))


def rows_of(indptr: np.ndarray, entries: slice) -> np.ndarray:
    """The row of each stored entry in a run of a CSR matrix's entries."""
    return np.searchsorted(indptr, np.arange(entries.start, entries.stop), side="right") - 1


def normalize_rows(matrix: sp.csr_matrix, norm: str = "l2") -> sp.csr_matrix:
    """Scale every row of a CSR matrix to unit ``norm`` ("l2" or "l1") in place; zero rows stay zero.

    The matrix must be in canonical form (no duplicate entries), as every matrix built here is.
    """
    if norm not in ("l2", "l1"):
        raise ValueError(f'norm must be "l2" or "l1", not {norm!r}')
    data, n_rows = matrix.data, matrix.shape[0]
    sums = np.zeros(n_rows, dtype=np.float64)
    for entries in entry_chunks(data.size):
        values = data[entries]
        squares_or_sizes = values * values if norm == "l2" else np.abs(values)
        sums += np.bincount(rows_of(matrix.indptr, entries), weights=squares_or_sizes, minlength=n_rows)
    row_norm = np.sqrt(sums) if norm == "l2" else sums
    scale = np.divide(1.0, row_norm, out=np.zeros_like(row_norm), where=row_norm > 0)
    for entries in entry_chunks(data.size):
        data[entries] *= scale[rows_of(matrix.indptr, entries)]
    return matrix


def unit_rows(X: np.ndarray | sp.spmatrix, dtype: type = np.float64) -> np.ndarray | sp.csr_matrix:
    """The rows of ``X`` scaled to unit L2 length (zero rows stay zero), computed in float64: a new CSR
    matrix for sparse ``X``, else an array of ``dtype`` (LSA's rows, a dense model's vectors)."""
    if sp.issparse(X):
        return normalize_rows(sp.csr_matrix(X, dtype=np.float64, copy=True))
    X = np.asarray(X, dtype=np.float64)
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return np.divide(X, norms, out=np.zeros_like(X), where=norms > 0).astype(dtype, copy=False)
