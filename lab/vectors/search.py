"""Search results and ranking: the one result type and the one top-k every search in the lab uses.

With rows and query scaled to unit length, the cosine is the dot product, so scoring a whole
corpus is one matrix-vector product (:func:`cosine_scores`). :func:`top_k_rows` then picks the
``k`` best of any scores (cosine, BM25, fused) without sorting them all, and breaks ties by row
index, so the same inputs always give the same ranking. The store, the retrievers and the notes
index name what they found with the same :class:`Hit`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

__all__ = ["Hit", "LEAD", "check_k", "cosine_scores", "top_k_rows"]

LEAD = "(lead)"  # how results and tables name the text before a page's first heading


@dataclass(frozen=True)
class Hit:
    """One search result: the item's id and score, the title and section naming it, its page.

    ``section`` is ``None`` for text before a page's first heading and for items without
    sections (notes); ``page_id`` is ``None`` for items that belong to no page. ``url`` and
    ``edited`` (the page's ``last_edited_time``) let an answer cite the page and say how fresh
    it is; ``None`` when the searched rows do not carry them.
    """

    id: str
    score: float
    title: str
    section: str | None = None
    page_id: str | None = None
    url: str | None = None
    edited: str | None = None

    def __str__(self) -> str:
        return f"{self.score:.3f}  {self.title} > {self.section or LEAD}"


def check_k(k: int) -> int:
    """``k`` as an ``int`` if it is a positive integer (``True`` is not); a ``ValueError`` otherwise."""
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k < 1:
        raise ValueError(f"k must be a positive integer, not {k!r}")
    return int(k)


def top_k_rows(scores: np.ndarray, k: int, *, mask: np.ndarray | None = None,
               min_score: float | None = None) -> list[tuple[int, float]]:
    """The ``k`` highest scores as ``(row, score)``, best first, equal scores in row order.

    ``scores`` has shape (n_rows,). Rows where ``mask`` is false, and rows scoring below
    ``min_score``, are never ranked, so fewer than ``k`` (or none) may come back. Selects with a
    partition (linear time) and sorts only the candidates, so ranking 100,000 rows for a top 10
    costs about one pass over the scores.
    """
    k = check_k(k)
    scores = np.asarray(scores, dtype=np.float64).ravel()
    keep = np.ones(scores.size, dtype=bool) if mask is None else np.asarray(mask, dtype=bool).ravel()
    if keep.size != scores.size:
        raise ValueError(f"mask has {keep.size} entries for {scores.size} scores; give one per row")
    if min_score is not None:
        keep = keep & (scores >= min_score)
    candidates = np.flatnonzero(keep)
    if candidates.size > k:
        # keep every row tied with the k-th best so that ties are decided by row index below
        kth_best = np.partition(scores[candidates], candidates.size - k)[candidates.size - k]
        candidates = candidates[scores[candidates] >= kth_best]
    order = candidates[np.argsort(-scores[candidates], kind="stable")][:k]
    return [(int(row), float(scores[row])) for row in order]


def cosine_scores(matrix: np.ndarray | sp.spmatrix, query_vector: np.ndarray | sp.spmatrix) -> np.ndarray:
    """The cosine of every row of ``matrix`` with ``query_vector``, shape (n_rows,), float64.

    ``matrix`` has shape (n_rows, n_features), sparse or dense, rows already L2-normalised (as
    TF-IDF and LSA produce them); ``query_vector`` has n_features values (shape (n_features,),
    (1, n_features) or, sparse, (n_features, 1)). The product runs in the inputs' own dtype.
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
    return np.asarray(scores, dtype=np.float64).ravel()
