"""Cosine search: rank the rows of a matrix by similarity to one query vector.

With rows and query scaled to unit length, the cosine is the dot product, so ranking a whole
corpus is one matrix-vector product. Ties are broken by row index, so the same inputs always
give the same ranking.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

__all__ = ["cosine_top_k", "top_k_rows", "Hit", "label_hits"]

_METADATA_COLUMNS = ("id", "title", "section")


def top_k_rows(scores: np.ndarray, k: int, min_score: float | None = None) -> list[tuple[int, float]]:
    """The ``k`` highest scores as ``(row, score)``, best first, equal scores in row order.

    Selects with a partition (linear time) and sorts only the candidates, so ranking 100,000
    rows for a top 10 costs about one pass over the scores.
    """
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k < 1:
        raise ValueError(f"k must be a positive integer, not {k!r}")
    scores = np.asarray(scores, dtype=np.float64).ravel()
    if min_score is not None:
        candidates = np.flatnonzero(scores >= min_score)
    else:
        candidates = np.arange(scores.size)
    if candidates.size > k:
        # keep every row tied with the k-th best so that ties are decided by row index below
        kth_best = np.partition(scores[candidates], candidates.size - k)[candidates.size - k]
        candidates = candidates[scores[candidates] >= kth_best]
    order = candidates[np.argsort(-scores[candidates], kind="stable")][:k]
    return [(int(row), float(scores[row])) for row in order]


def cosine_top_k(
    matrix: np.ndarray | sp.spmatrix,
    query_vector: np.ndarray | sp.spmatrix,
    k: int = 3,
    min_score: float | None = None,
) -> list[tuple[int, float]]:
    """The ``k`` rows most similar to ``query_vector``, as ``(row, cosine)`` pairs, best first.

    ``matrix`` has shape (n_rows, n_features), sparse or dense, rows already L2-normalised (as
    TF-IDF and LSA produce them); ``query_vector`` has n_features values (shape (n_features,)
    or (1, n_features)). Rows scoring below ``min_score`` are left out, so fewer than ``k``
    (or none) may come back; ``k`` larger than the number of rows returns every row.
    """
    n_features = matrix.shape[1]
    if sp.issparse(query_vector):
        if query_vector.shape not in ((1, n_features), (n_features, 1)):
            raise ValueError(
                f"query_vector has shape {query_vector.shape}; expected one row of {n_features} features"
            )
        query = query_vector.reshape(n_features, 1) if query_vector.shape[0] == 1 else query_vector
        scores = matrix @ query
        scores = scores.toarray() if sp.issparse(scores) else np.asarray(scores)
    else:
        query = np.asarray(query_vector)
        if query.size != n_features or query.ndim > 2:
            raise ValueError(
                f"query_vector has shape {query.shape}; expected {n_features} features, like the matrix rows"
            )
        scores = matrix @ query.reshape(n_features)
    return top_k_rows(np.asarray(scores).ravel(), k, min_score)


@dataclass(frozen=True)
class Hit:
    """One search result: where it ranked, its row, its score, and which chunk it is."""

    rank: int
    row: int
    score: float
    id: str
    title: str
    section: str

    def __str__(self) -> str:
        return f"{self.score:.3f}  {self.title} > {self.section}"


def label_hits(
    ranked: Sequence[tuple[int, float]],
    metadata: pd.DataFrame | Sequence[Mapping[str, Any]],
) -> list[Hit]:
    """Name the rows of a ranking: ``(row, score)`` pairs to :class:`Hit` with id, title, section.

    ``metadata`` has one entry per matrix row, in row order: a DataFrame with columns
    ``id``, ``title`` and ``section``, or a list of dicts with those keys.
    """
    if isinstance(metadata, pd.DataFrame):
        missing = [column for column in _METADATA_COLUMNS if column not in metadata.columns]
        n_rows = len(metadata)

        def field(row: int, name: str) -> Any:
            return metadata[name].iat[row]
    else:
        missing = sorted({c for entry in metadata for c in _METADATA_COLUMNS if c not in entry})
        n_rows = len(metadata)

        def field(row: int, name: str) -> Any:
            return metadata[row][name]

    if missing:
        raise ValueError(f"metadata lacks {missing}; every row needs {list(_METADATA_COLUMNS)}")
    hits = []
    for rank, (row, score) in enumerate(ranked, start=1):
        if not 0 <= row < n_rows:
            raise IndexError(f"row {row} has no metadata: the table has {n_rows} rows")
        hits.append(
            Hit(rank, int(row), float(score), str(field(row, "id")), str(field(row, "title")), str(field(row, "section")))
        )
    return hits
