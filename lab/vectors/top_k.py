"""The k best rows of many score rows, compiled with numba: one pass, no full sort, ties by row.

Ranking 100,000 rows for a top 10 only needs to remember the 10 best seen so far: each score is
compared with the worst of those and almost always dropped, so the cost is one pass over the
scores. For sparse queries (TF-IDF, BM25) the same loop first adds up, term by term, the scores
of only the rows that contain a query term, so a query costs what its terms' rows cost, not a
pass over every row. numpy cannot say either without temporaries the size of the scores, and
scipy's sparse product builds every score before anything is ranked; written as plain loops and
compiled (numba turns them into machine code on first use and caches it beside this file).
BM25 goes one step further and skips the rows that cannot reach the top k
(:mod:`lab.vectors.max_score`); ``bench/bm25_vs_bm25s.py`` measures it against bm25s's own numba
backend on corpora and queries of several shapes.

Every function here keeps, for each query, the best rows in ``best_rows`` / ``best_scores``
(shape (n_queries, k)), best first, equal scores in row order, ``counts`` saying how many are
filled. A row is a candidate only if ``mask`` is true for it and its score is at least
``min_score`` (so NaN never is). They update the buffers in place, so a caller can feed the
rows in consecutive blocks and get the same answer as in one go.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["new_buffers", "update_top_k_dense", "update_top_k_sparse", "add_query_rows", "offer_rows"]


def new_buffers(n_queries: int, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty ``(best_rows, best_scores, counts)`` for ``n_queries`` queries and ``k`` places each."""
    return (np.full((n_queries, k), -1, dtype=np.int64), np.zeros((n_queries, k), dtype=np.float64),
            np.zeros(n_queries, dtype=np.int64))


# While a top list has free places, any candidate enters: its bar is (-inf, the largest row).
_NO_ROW = np.iinfo(np.int64).max


@njit(nogil=True, cache=True)
def _bar(rows: np.ndarray, scores: np.ndarray, count: int) -> tuple[float, int]:
    """The (score, row) a candidate must beat to enter a top list holding ``count`` entries."""
    if count < rows.size:
        return -np.inf, _NO_ROW
    return scores[count - 1], rows[count - 1]


@njit(nogil=True, cache=True)
def _insert(rows: np.ndarray, scores: np.ndarray, count: int, row: int, score: float) -> tuple[int, float, int]:
    """Put (row, score) in its place in a sorted top list, dropping the worst if full.

    Returns the new count and the new bar. Called only for the rare candidate that beats the
    bar; the test itself is written out in each loop, where the compiler keeps it in registers.
    """
    i = min(count, rows.size - 1)
    while i > 0 and (scores[i - 1] < score or (scores[i - 1] == score and rows[i - 1] > row)):
        rows[i] = rows[i - 1]
        scores[i] = scores[i - 1]
        i -= 1
    rows[i] = row
    scores[i] = score
    count = min(count + 1, rows.size)
    bar_score, bar_row = _bar(rows, scores, count)
    return count, bar_score, bar_row


@njit(nogil=True, cache=True)
def update_top_k_dense(scores, first_row, mask, min_score, best_rows, best_scores, counts):  # type: ignore[no-untyped-def]
    """Offer every score of ``scores`` (n_queries, n_block), rows ``first_row`` onwards, to the buffers."""
    for q in range(scores.shape[0]):
        rows, kept, count = best_rows[q], best_scores[q], counts[q]
        bar_score, bar_row = _bar(rows, kept, count)
        for j in range(scores.shape[1]):
            score, row = scores[q, j], first_row + j
            # the first test drops almost every score; the rest run for the few that reach the bar
            if score >= bar_score and (score > bar_score or row < bar_row) and score >= min_score and mask[row]:
                count, bar_score, bar_row = _insert(rows, kept, count, row, score)
        counts[q] = count


@njit(nogil=True, cache=True)
def add_query_rows(q_terms, q_values, w_indptr, w_indices, w_data, total, seen, touched):  # type: ignore[no-untyped-def]
    """Add one query's terms times their values into ``total`` for the rows holding one, in the query's order.

    Marks those rows in ``seen``, lists them in ``touched`` (each once) and returns how many there are.
    """
    n_touched = 0
    for j in range(q_terms.size):
        term, weight = q_terms[j], q_values[j]
        for p in range(w_indptr[term], w_indptr[term + 1]):
            row = w_indices[p]
            touched[n_touched] = row  # kept only the first time: the count moves once per row
            n_touched += 1 - seen[row]
            seen[row] = 1
            total[row] += weight * w_data[p]
    return n_touched


@njit(nogil=True, cache=True)
def offer_rows(touched, n_touched, total, mask, min_score, rows, kept, count):  # type: ignore[no-untyped-def]
    """Offer the listed rows' totals to one query's top list and zero them for the next query; returns the new count."""
    bar_score, bar_row = _bar(rows, kept, count)
    for i in range(n_touched):
        row = touched[i]
        score = total[row]
        total[row] = 0.0  # ready for the next query
        if score >= bar_score and (score > bar_score or row < bar_row) and score >= min_score and mask[row]:
            count, bar_score, bar_row = _insert(rows, kept, count, row, score)
    return count


@njit(nogil=True, cache=True)
def update_top_k_sparse(q_indptr, q_indices, q_data, w_indptr, w_indices, w_data,  # type: ignore[no-untyped-def]
                        mask, min_score, rank_unmatched, unmatched_score, best_rows, best_scores, counts):
    """Score each query row (CSR) against term-major weights (CSC) term by term, and keep the best.

    A query's score for row d is the sum over its terms t of ``q[t] * w[d, t]``, added in the
    query's term order. Only rows sharing a term with the query are scored; when
    ``rank_unmatched`` is true the others compete too, with ``unmatched_score``, in row order.
    """
    n_rows = mask.size
    total = np.zeros(n_rows)
    seen = np.zeros(n_rows, dtype=np.uint8)
    touched = np.empty(n_rows, dtype=np.int64)
    for q in range(q_indptr.size - 1):
        terms = slice(q_indptr[q], q_indptr[q + 1])
        n_touched = add_query_rows(q_indices[terms], q_data[terms], w_indptr, w_indices, w_data, total, seen, touched)
        rows, kept = best_rows[q], best_scores[q]
        count = offer_rows(touched, n_touched, total, mask, min_score, rows, kept, counts[q])
        if rank_unmatched and unmatched_score >= min_score:
            bar_score, bar_row = _bar(rows, kept, count)
            for row in range(n_rows):
                if not (unmatched_score > bar_score or (unmatched_score == bar_score and row < bar_row)):
                    break  # rows only grow from here, so no later row can enter either
                if mask[row] and not seen[row]:
                    count, bar_score, bar_row = _insert(rows, kept, count, row, unmatched_score)
        counts[q] = count
        for i in range(n_touched):
            seen[touched[i]] = 0
