"""Nearest-neighbour purity: how often a row's most similar other row shares its label.

A map (or a vector space) that keeps page types apart scores near 1; this checks it in the full
space, not in the two dimensions drawn. Similarities are computed a block of rows at a time, so
memory stays at block x n instead of n x n.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from lab.vectors.sparse_rows import unit_rows

__all__ = ["nearest_neighbours", "nearest_neighbour_purity"]

# Similarities held at once: 4 million floats (32 MB) per block.
_BLOCK_CELLS = 4_000_000


def nearest_neighbours(X: np.ndarray | sp.spmatrix) -> np.ndarray:
    """For each row of ``X`` (n_rows, n_features), the index of the most cosine-similar other row.

    Ties go to the lowest index. Shape (n_rows,).
    """
    n_rows = X.shape[0]
    if n_rows < 2:
        raise ValueError(f"nearest neighbours need at least 2 rows, got {n_rows}")
    unit = unit_rows(X)
    block = max(1, _BLOCK_CELLS // n_rows)
    neighbours = np.empty(n_rows, dtype=np.int64)
    for start in range(0, n_rows, block):
        stop = min(start + block, n_rows)
        similarity = unit[start:stop] @ unit.T
        similarity = similarity.toarray() if sp.issparse(similarity) else np.asarray(similarity)
        similarity[np.arange(stop - start), np.arange(start, stop)] = -np.inf  # a row is not its own neighbour
        neighbours[start:stop] = np.argmax(similarity, axis=1)
    return neighbours


def nearest_neighbour_purity(X: np.ndarray | sp.spmatrix, labels: Sequence | np.ndarray) -> float:
    """Share of rows whose nearest other row (by cosine) has the same label, between 0 and 1."""
    labels = np.asarray(labels)
    if labels.shape != (X.shape[0],):
        raise ValueError(f"labels must give one label per row: {X.shape[0]} rows, labels of shape {labels.shape}")
    return float(np.mean(labels[nearest_neighbours(X)] == labels))
