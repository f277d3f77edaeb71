"""Search results and ranking: the one result type and the one top-k every search in the lab uses.

With rows and query scaled to unit length, the cosine is the dot product, so scoring a whole
corpus is one matrix-vector product (:func:`cosine_scores`). :func:`top_k_rows` then picks the
``k`` best of any scores (cosine, BM25, fused) without sorting them all, and breaks ties by row
index, so the same inputs always give the same ranking. The store, the retrievers and the notes
index name what they found with the same :class:`Hit`.

Many queries are searched at once with the same selection: :func:`top_k_rows_many` ranks a
matrix of scores, :func:`top_k_dense_product` multiplies dense queries by dense rows in blocks
(LSA, stored embeddings), and :func:`top_k_sparse_product` adds up, term by term, the weights
of only the rows that contain a query term (TF-IDF, BM25), never building a row of scores per
query. One query is a batch of one: it takes the same path and gets the same answer (for dense
products, up to the last float32 digit: BLAS adds a batch's products in another order).
"""

from __future__ import annotations

import math

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from lab.arguments import check_positive_int
from lab.vectors.max_score import SMALL_QUERY, WINDOW, dense_levels, update_top_k_max_score, weight_levels
from lab.vectors.top_k import new_buffers, update_top_k_dense, update_top_k_sparse

__all__ = ["Hit", "LEAD", "section_label", "check_k", "check_min_score", "cosine_scores", "top_k_rows", "top_k_rows_many", "top_k_dense_product",
           "top_k_sparse_product"]

LEAD = "(lead)"  # how results and tables name the text before a page's first heading


def section_label(title: str, section: str | None) -> str:
    """How results and tables name a section: "Title > Section", or "Title > (lead)" before the first heading."""
    return f"{title} > {section or LEAD}"


@dataclass(frozen=True)
class Hit:
    """One search result: the item's id and score, the title and section naming it, its page.

    ``section`` is ``None`` for text before a page's first heading and for items without
    sections (notes); ``page_id`` is ``None`` for items that belong to no page. ``url`` and
    ``edited`` (the page's ``last_edited_time``) let an answer cite the page and say how fresh
    it is, and ``version`` which version of the documentation it describes; ``None`` when the
    searched rows do not carry them.
    """

    id: str
    score: float
    title: str
    section: str | None = None
    page_id: str | None = None
    url: str | None = None
    edited: str | None = None
    version: str | None = None

    @property
    def label(self) -> str:
        """"Title > Section" ("(lead)" for the text before a page's first heading)."""
        return section_label(self.title, self.section)

    def __str__(self) -> str:
        return f"{self.score:.3f}  {self.label}"


def check_k(k: int) -> int:
    """``k`` as an ``int`` if it is a positive integer (``True`` is not); a ``ValueError`` otherwise."""
    return check_positive_int("k", k)


def check_min_score(min_score: float | None) -> float | None:
    """``min_score`` if it is ``None`` or a real number; a NaN (no score passes it) or a string
    (compared as nothing) would silently return no hits, so they raise a ``ValueError``."""
    if min_score is None:
        return None
    if isinstance(min_score, bool) or not isinstance(min_score, (int, float, np.integer, np.floating)) \
            or math.isnan(min_score):
        raise ValueError(f"min_score must be a number (the lowest score that is still an answer) or None, "
                         f"not {min_score!r}")
    return float(min_score)


def top_k_rows(scores: np.ndarray, k: int, *, mask: np.ndarray | None = None,
               min_score: float | None = None) -> list[tuple[int, float]]:
    """The ``k`` highest scores as ``(row, score)``, best first, equal scores in row order.

    ``scores`` has shape (n_rows,). Rows where ``mask`` is false, and rows scoring below
    ``min_score``, are never ranked, so fewer than ``k`` (or none) may come back. One query of
    :func:`top_k_rows_many`: the same selection, one pass over the scores, no sort.
    """
    return top_k_rows_many(np.asarray(scores).reshape(1, -1), k, mask=mask, min_score=min_score)[0]


def top_k_rows_many(scores: np.ndarray, k: int, *, mask: np.ndarray | None = None,
                    min_score: float | None = None) -> list[list[tuple[int, float]]]:
    """:func:`top_k_rows` for every row of ``scores``, shape (n_queries, n_rows), at once.

    Keeps the ``k`` best of each query while passing over its scores once, so ranking 100,000
    rows for a top 10 costs about one read of the scores (see :mod:`lab.vectors.top_k`).
    """
    k, min_score = check_k(k), check_min_score(min_score)
    scores = np.asarray(scores)
    if scores.ndim != 2:
        raise ValueError(f"scores has shape {scores.shape}; expected (n_queries, n_rows)")
    if scores.dtype not in (np.float32, np.float64):
        scores = scores.astype(np.float64)
    keep = _rows_kept(mask, scores.shape[1])
    found = new_buffers(scores.shape[0], min(k, scores.shape[1]))
    if scores.shape[1]:
        update_top_k_dense(np.ascontiguousarray(scores), 0, keep, _floor(min_score), *found)
    return _ranked(*found)


def top_k_dense_product(queries: np.ndarray, matrix: np.ndarray, k: int, *, mask: np.ndarray | None = None,
                        min_score: float | None = None) -> list[list[tuple[int, float]]]:
    """The ``k`` rows of ``matrix`` with the highest dot product with each query, as :func:`top_k_rows`.

    ``queries`` has shape (n_queries, dimension) and ``matrix`` (n_rows, dimension), both dense;
    with unit rows the dot product is the cosine. The products run in the inputs' dtype, one
    block of queries by rows at a time, so memory stays near ``_BLOCK_ENTRIES`` scores whatever
    the sizes (a block of many queries also lets BLAS reuse each block of rows).
    """
    k, min_score = check_k(k), check_min_score(min_score)
    queries, matrix = np.atleast_2d(np.asarray(queries)), np.asarray(matrix)
    if matrix.ndim != 2 or queries.ndim != 2 or queries.shape[1] != matrix.shape[1]:
        raise ValueError(f"queries of shape {queries.shape} do not match a matrix of shape {matrix.shape}: "
                         f"each query needs one value per matrix column")
    n_queries, n_rows = queries.shape[0], matrix.shape[0]
    keep, floor = _rows_kept(mask, n_rows), _floor(min_score)
    found = new_buffers(n_queries, min(k, n_rows))
    query_block = min(max(n_queries, 1), _QUERY_BLOCK)
    row_block = max(1, _BLOCK_ENTRIES // query_block)
    for q in range(0, n_queries if n_rows else 0, query_block):
        block = slice(q, q + query_block)
        for start in range(0, n_rows, row_block):
            scores = queries[block] @ matrix[start:start + row_block].T
            update_top_k_dense(np.ascontiguousarray(scores), start, keep, floor, *(part[block] for part in found))
    return _ranked(*found)


def top_k_sparse_product(queries: sp.spmatrix, weights: sp.spmatrix, k: int, *, mask: np.ndarray | None = None,
                         min_score: float | None = None, unmatched_score: float | None = None,
                         column_bounds: np.ndarray | None = None, levels: np.ndarray | None = None,
                         level_rows: tuple[np.ndarray, np.ndarray] | None = None) -> list[list[tuple[int, float]]]:
    """The ``k`` best rows for each query, scoring ``queries @ weights.T`` one query term at a time.

    ``queries`` has shape (n_queries, n_terms) (a query's term weights or counts) and
    ``weights`` (n_rows, n_terms), best given as CSC so that each term's rows are one slice.
    Only the rows containing a query term are scored; the others are ranked with
    ``unmatched_score`` if it is given (0.0 for a cosine, which ranks every row) and not at all
    if it is ``None`` (BM25, like Lucene). Otherwise as :func:`top_k_rows`. Queries are scored one
    after the other in the same scratch arrays (a few per row), so memory does not grow with them.

    ``column_bounds`` (shape (n_terms,)), each column's largest weight, lets the search skip the
    rows that cannot reach a query's top k (:mod:`lab.vectors.max_score`): the same answer, far
    less to read for queries holding frequent terms. It needs every weight and query value >= 0
    and ``unmatched_score`` left to ``None``. ``levels``, one byte per stored weight of the CSC
    weights made by :func:`~lab.vectors.max_score.weight_levels` with those bounds, is computed
    here when not given: an index searched many times computes it once. So is ``level_rows``, the
    frequent terms' levels laid out by row (:func:`~lab.vectors.max_score.dense_levels` of those
    levels), which queries holding a frequent term sum for every row at once.
    """
    k, min_score = check_k(k), check_min_score(min_score)
    queries = sp.csr_matrix(queries)
    if queries.shape[1] != weights.shape[1]:
        raise ValueError(f"queries have {queries.shape[1]} terms and weights {weights.shape[1]}; "
                         f"build both with the same vocabulary")
    by_term = weights if weights.format == "csc" else sp.csc_matrix(weights)
    n_rows = by_term.shape[0]
    found = new_buffers(queries.shape[0], min(k, n_rows))
    if not n_rows:
        return _ranked(*found)
    terms = (queries.indptr.astype(np.int64), queries.indices.astype(np.int64), queries.data.astype(np.float64),
             by_term.indptr, by_term.indices, by_term.data)
    if column_bounds is None:
        update_top_k_sparse(*terms, _rows_kept(mask, n_rows), _floor(min_score), unmatched_score is not None,
                            float(unmatched_score or 0.0), *found)
    else:
        bounds = _checked_bounds(column_bounds, queries, unmatched_score)
        levels = weight_levels(by_term, bounds) if levels is None else _checked_levels(levels, by_term)
        slots, rows = dense_levels(by_term, levels) if level_rows is None else _checked_level_rows(level_rows, by_term)
        update_top_k_max_score(*terms, bounds, levels, slots, rows, _rows_kept(mask, n_rows), _floor(min_score),
                               WINDOW, SMALL_QUERY, True, *found)
    return _ranked(*found)


def _checked_bounds(bounds: np.ndarray, queries: sp.csr_matrix, unmatched_score: float | None) -> np.ndarray:
    bounds = np.asarray(bounds, dtype=np.float64)
    if bounds.shape != (queries.shape[1],):
        raise ValueError(f"column_bounds has shape {bounds.shape}; give one bound per term ({queries.shape[1]},)")
    if unmatched_score is not None:
        raise ValueError("column_bounds skips rows no query term reaches, so it cannot rank unmatched rows; "
                         "leave unmatched_score to None or do not give bounds")
    if (queries.data < 0).any():
        raise ValueError("column_bounds needs query values >= 0: a negative one makes a partial sum no lower bound")
    return bounds


def _checked_levels(levels: np.ndarray, weights: sp.csc_matrix) -> np.ndarray:
    if levels.dtype != np.uint8 or levels.shape != weights.data.shape:
        raise ValueError(f"levels has dtype {levels.dtype} and shape {levels.shape}; give one uint8 per stored "
                         f"weight {weights.data.shape}, as weight_levels makes them")
    return levels


def _checked_level_rows(level_rows: tuple[np.ndarray, np.ndarray],
                        weights: sp.csc_matrix) -> tuple[np.ndarray, np.ndarray]:
    slots, rows = level_rows
    n_rows, n_terms = weights.shape
    if slots.dtype != np.int32 or slots.shape != (n_terms,) or rows.dtype != np.uint8 or rows.ndim != 2 \
            or rows.shape[1] != n_rows or slots.max(initial=-1) >= rows.shape[0]:
        raise ValueError(f"level_rows holds slots of dtype {slots.dtype} and shape {slots.shape} and rows of dtype "
                         f"{rows.dtype} and shape {rows.shape}; give one int32 slot per term ({n_terms},) and uint8 "
                         f"rows of {n_rows} levels, as dense_levels makes them")
    return slots, rows


# Scores computed at once by top_k_dense_product: 2**22 float32 scores are 16 MB.
_BLOCK_ENTRIES = 1 << 22
_QUERY_BLOCK = 1024


def _rows_kept(mask: np.ndarray | None, n_rows: int) -> np.ndarray:
    if mask is None:
        return np.ones(n_rows, dtype=bool)
    keep = np.asarray(mask, dtype=bool).ravel()
    if keep.size != n_rows:
        raise ValueError(f"mask has {keep.size} entries for {n_rows} scores; give one per row")
    return keep


def _floor(min_score: float | None) -> float:
    return -np.inf if min_score is None else float(min_score)


def _ranked(rows: np.ndarray, scores: np.ndarray, counts: np.ndarray) -> list[list[tuple[int, float]]]:
    return [list(zip(r[:n], s[:n])) for r, s, n in zip(rows.tolist(), scores.tolist(), counts.tolist())]


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
