"""The exact top k of sparse queries without scoring every matching row (MaxScore), compiled with numba.

A BM25 query's top 10 rarely needs the score of every document that shares a word with it. Each
term's column of weights has a largest value, its bound, so a row can score at most the sum of
the bounds of the query terms it holds. Once k rows are found, the k-th best score is a bar that
only rises. Terms whose bounds add up to less than the bar (the smallest bounds first) cannot
bring a row in on their own, so they stop proposing rows: they are only looked up for the rows
the other terms propose, largest bound first, and only while that row can still reach the bar
(Turtle and Flood's MaxScore, 1995; Lucene ranks BM25 queries this way). Frequent words have the
smallest weights and the longest lists of rows: those are the lists this skips.

Rows are visited in order, a window at a time: the first of ``WINDOW`` / 16 rows, each next
one twice as long up to ``WINDOW``. In each window the proposing terms are added up into a
buffer the size of the window (or, when one term proposes, read straight from its list); every
row whose sum, plus the bounds of the terms not added, still reaches the bar looks those terms
up; the rows that reach it are scored and offered to the top k, which raises the bar. A term
that is not needed to propose is looked up only while that pays: a lookup is a search whose
branches mispredict, and adding a row up is a few instructions, so a term whose lookups cost
more than reading its rows in a window is added up from then on. The first windows are small
because the bar is lowest there: many rows reach it, and a window that finds looking up costly
has cost little to find it.

What is added up is not the weights but their levels. Each stored weight has one, a byte: the
weight rounded up to a 255th of its column's bound (:func:`weight_levels`; :func:`level_values`
says what each level stands for). Summed over a row's terms, the levels' values bound its score
from above, within a 255th of each term's bound, so once a bar is up few rows reach it that way,
and only those are scored with the weights themselves. Adding up reads 5 bytes an entry (its
row and its level) instead of 12 (its row and an 8-byte weight): when the words' bounds are
alike, as for words found in a tenth to most of the rows, little can be skipped and most of the
time goes into that reading. Before any bar exists every row holding a term is a candidate: that
window adds up the weights.

The scores are the very numbers :func:`~lab.vectors.top_k.update_top_k_sparse` computes: a row
found by its levels or scored with a looked-up term is summed again from its weights, term by
term in the query's order (a floating-point sum depends on its order), and a row is dropped
only when its bound falls short of the bar by more than rounding could explain (a relative
margin of ``SLACK``). Weights and query values must be >= 0, so that a partial sum is a lower
bound of the score: BM25 with a non-negative idf. Queries with little to read (``SMALL_QUERY``
stored entries or fewer) take the plain loop, which is faster when there is nothing to skip.

That is MaxScore as it was written; queries of two words or more with more than ``SMALL_QUERY``
entries to read take another way, which measured faster on every kind of query tried, and most
on the words found in a tenth to most of the rows: their bounds are too alike for MaxScore to
skip much, and adding up their levels one entry at a time costs what adding up the weights costs,
a scattered add per entry. So a term found in at least a sixteenth of the rows (``DENSE_SHARE``)
also keeps its levels as a dense row, one byte per row of the corpus, 0 where the row lacks it
(:func:`dense_levels`), and the query sums its terms' levels for every row, as whole numbers (a
level times the term's share of the query's bounds, in units of 2**-23 of their sum, so no sum
leaves 32 bits): over dense rows that is a loop the compiler turns into vector instructions, 16
rows or more an instruction; the other terms are added one entry at a time. While a window of
rows is summed, the largest sum of each of ``LANES`` interleaved lanes is kept. The rows of the k
largest lane maxima are scored with the weights: their k-th score is a bar from the start, close
to the final one. Then only the lanes whose maximum reaches the bar are read again, and only
their rows whose sum reaches it are scored; a score raises the bar. On 100,000 documents a query
of mid-frequency words sums some 100,000 levels per word in a few microseconds, then scores a few
dozen rows. A row whose sum is 0 holds none of the terms with a weight above 0: if fewer than k
rows sum more, the query is scored by the plain loop, where rows scoring 0 rank too. A query of
one word stays with MaxScore, which reads its list once and takes the weights from it.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numba import njit

from lab.vectors.top_k import _bar, _insert, add_query_rows, offer_rows

__all__ = ["update_top_k_max_score", "weight_levels", "level_values", "dense_levels", "WINDOW", "SMALL_QUERY", "SLACK",
           "LEVELS", "DENSE_SHARE", "LANES"]

#: Rows per window: the window's partial sums (32 KB) stay in the fastest cache.
WINDOW = 4096
#: A query reading at most this many stored entries is scored whole: there is little to skip.
SMALL_QUERY = 4096
#: Relative margin by which a bound must fall short of the bar before a row is dropped.
SLACK = 1e-9
#: A stored weight's level, one byte, bounds it: the weight is at most level / LEVELS of its column's largest.
LEVELS = 255
# A lookup costs about as much as adding up this many rows.
_LOOKUP_COST = 16
# Entries a lookup steps through one by one before it gallops (a short loop mispredicts once).
_NEAR = 16


@njit(nogil=True, cache=True)
def _gallop(indices, start, stop, row):  # type: ignore[no-untyped-def]
    """First position in ``indices[start:stop]`` (sorted) holding ``row`` or more, searched from ``start``."""
    step, low, high = 1, start, start
    while high < stop and indices[high] < row:
        low, high, step = high + 1, high + step, step * 2
    high = min(high, stop)
    while low < high:
        middle = (low + high) >> 1
        if indices[middle] < row:
            low = middle + 1
        else:
            high = middle
    return low


@njit(nogil=True, cache=True)
def add_bounds(rows, levels, level_bound, window_start, partial_sums):  # type: ignore[no-untyped-def]
    """Add ``level_bound[levels[i]]`` to ``partial_sums[rows[i] - window_start]`` for every i."""
    for i in range(rows.size):  # from 0: the compiler knows i >= 0 and checks no negative index
        partial_sums[np.uint32(rows[i] - window_start)] += level_bound[levels[i]]


@njit(nogil=True, cache=True)
def _seek(indices, start, stop, row):  # type: ignore[no-untyped-def]
    """First position in ``indices[start:stop]`` (sorted) holding ``row`` or more: walked to when a
    few entries on (a short loop mispredicts once), galloped to when further."""
    p, near = start, min(start + _NEAR, stop)
    while p < near and indices[p] < row:
        p += 1
    return p if p < near else _gallop(indices, p, stop, row)


@njit(nogil=True, cache=True)
def _distinct_terms(q_terms, q_values, bounds, term, weight, bound, below, term_of):  # type: ignore[no-untyped-def]
    """A query's distinct terms, smallest bound first, with their values added up; returns how many.

    Fills ``term``, ``weight`` (a repeated term counts each time), ``bound`` (``weight`` times the
    column's largest weight), ``below[u]`` (the bounds of terms ``0..u-1`` added up) and
    ``term_of`` (the distinct term of each query entry).
    """
    n_terms = 0
    for j in range(q_terms.size):
        u = 0
        while u < n_terms and term[u] != q_terms[j]:
            u += 1
        if u == n_terms:
            term[u], weight[u] = q_terms[j], 0.0
            n_terms += 1
        weight[u] += q_values[j]
    for u in range(n_terms):
        bound[u] = weight[u] * bounds[term[u]]
    for u in range(1, n_terms):  # insertion sort: a query holds a handful of terms
        v = u
        while v > 0 and bound[v - 1] > bound[v]:
            bound[v - 1], bound[v] = bound[v], bound[v - 1]
            term[v - 1], term[v] = term[v], term[v - 1]
            weight[v - 1], weight[v] = weight[v], weight[v - 1]
            v -= 1
    below[0] = 0.0
    for u in range(n_terms):
        below[u + 1] = below[u] + bound[u]
    for j in range(q_terms.size):
        u = 0
        while term[u] != q_terms[j]:
            u += 1
        term_of[j] = u
    return n_terms


@njit(nogil=True, cache=True)
def level_values(bound):  # type: ignore[no-untyped-def]
    """What each level stands for in a column whose largest weight is ``bound``: ``level`` 255ths of it, the last exactly it."""
    values = np.arange(LEVELS + 1) * (bound / LEVELS)
    values[LEVELS] = bound  # the product may round below it
    return values


@njit(nogil=True, cache=True)
def _levels(indptr, data, bounds):  # type: ignore[no-untyped-def]
    """Each stored weight's level: the smallest whose value (:func:`level_values`) is at least the weight."""
    levels = np.zeros(data.size, dtype=np.uint8)
    for t in range(indptr.size - 1):
        values = level_values(bounds[t])
        step = values[1]
        for p in range(indptr[t], indptr[t + 1]):
            if data[p] > 0.0:
                level = int(min(LEVELS, np.ceil(data[p] / step))) if step > 0.0 else LEVELS
                while level < LEVELS and values[level] < data[p]:  # the division may have rounded down
                    level += 1
                levels[p] = level
    return levels


def weight_levels(weights: sp.csc_matrix, bounds: np.ndarray) -> np.ndarray:
    """One byte per stored weight (parallel to ``weights.data``): the weight rounded up to a level
    of its column's bound, what the search reads first so that it reads a weight's 8 bytes only
    for the rows that may enter. ``bounds`` holds each column's largest weight."""
    return _levels(weights.indptr, weights.data, np.asarray(bounds, dtype=np.float64))


@njit(nogil=True, cache=True)
def _max_score_query(start, stop, q_indices, q_data, w_indptr, w_indices, w_data, bounds, levels,  # type: ignore[no-untyped-def]
                     mask, min_score, window, rows, kept, count, n_rows, first_window, partial_sums, in_window,
                     candidate_rows, candidate_sums, term, weight, bound, below, term_of, level_bound, cursor, low,
                     high, value):
    """One query's top k by MaxScore (the query's entries are ``start..stop-1``); returns the new count."""
    n_terms = _distinct_terms(q_indices[start:stop], q_data[start:stop], bounds, term, weight, bound, below,
                              term_of)
    repeated = n_terms < stop - start
    for u in range(n_terms):
        cursor[u] = w_indptr[term[u]]
        level_bound[u] = weight[u] * level_values(bounds[term[u]])
    bar_score, bar_row = _bar(rows, kept, count)
    bar = max(bar_score if count == rows.size else -np.inf, min_score)
    reach = bar - abs(bar) * SLACK  # what a bound, itself raised by SLACK, must reach
    proposing = 0  # terms proposing..n_terms-1 propose rows; the others cannot bring one in alone
    most_looked_up = n_terms  # lowered when a term's lookups cost more than adding it up
    window_start = 0
    size = first_window  # the next window's rows: doubled each time up to window, so that a bar comes soon
    while True:
        while proposing < n_terms and below[proposing + 1] * (1.0 + SLACK) < reach:
            proposing += 1
        first = n_rows
        for u in range(proposing, n_terms):
            if cursor[u] < w_indptr[term[u] + 1]:
                first = min(first, w_indices[cursor[u]])
        if first >= n_rows:
            break  # no proposing term holds another row: no row left can enter
        window_start = max(window_start, first)
        window_stop = min(window_start + size, n_rows)
        size = min(2 * size, window)
        for u in range(n_terms):
            end = w_indptr[term[u] + 1]
            low[u] = _gallop(w_indices, cursor[u], end, window_start)
            high[u] = cursor[u] = _gallop(w_indices, low[u], end, window_stop)
        looked_up = min(most_looked_up, proposing)  # terms 0..looked_up-1 are looked up, the others added up
        first_looked_up_entry = low[looked_up - 1] if looked_up > 0 else 0
        # a row whose added-up sum is below this cannot reach the bar even holding every looked-up term
        floor = reach / (1.0 + SLACK) - below[looked_up]

        n_candidates = 0
        exact = True  # the candidates' sums are their scores from the added-up terms, not bounds
        if looked_up == n_terms - 1 and not repeated:  # one term adds up: its list is the candidates
            u = looked_up
            for p in range(low[u], high[u]):
                if level_bound[u, levels[p]] >= floor and mask[w_indices[p]]:
                    candidate_rows[n_candidates] = w_indices[p]
                    candidate_sums[n_candidates] = weight[u] * w_data[p]
                    n_candidates += 1
        elif floor > 0.0:  # a row needs some added-up term: add up bounds, one byte per entry
            exact = False
            for u in range(looked_up, n_terms):
                add_bounds(w_indices[low[u]:high[u]], levels[low[u]:high[u]], level_bound[u], window_start,
                           partial_sums)
            for offset in range(window_stop - window_start):
                partial = partial_sums[offset]
                partial_sums[offset] = 0.0
                # once a bar is up the first test fails for almost every row, and it predicts well
                if partial >= floor and mask[window_start + offset]:
                    candidate_rows[n_candidates] = window_start + offset
                    candidate_sums[n_candidates] = partial
                    n_candidates += 1
        else:  # no bar yet (or one at 0): every row holding a term is a candidate, summed exactly
            for j in range(start, stop):  # in the query's order: a row no looked-up term holds is then exact
                u = term_of[j - start]
                if u >= looked_up:
                    times = q_data[j]
                    for p in range(low[u], high[u]):
                        offset = np.uint32(w_indices[p] - window_start)
                        in_window[offset] = 1
                        partial_sums[offset] += times * w_data[p]
            for offset in range(window_stop - window_start):
                partial = partial_sums[offset]
                partial_sums[offset] = 0.0
                if in_window[offset] and partial >= floor and mask[window_start + offset]:
                    candidate_rows[n_candidates] = window_start + offset
                    candidate_sums[n_candidates] = partial
                    n_candidates += 1
            in_window[:window_stop - window_start] = 0

        first_lookups = 0
        for c in range(n_candidates):  # in row order, so each list is searched forwards
            row, partial = candidate_rows[c], candidate_sums[c]
            upper = partial
            holds_looked_up = False
            u = looked_up
            while u > 0 and (upper + below[u]) * (1.0 + SLACK) >= reach:
                u -= 1  # the looked-up term of largest bound left
                first_lookups += u == looked_up - 1
                p = low[u] = _seek(w_indices, low[u], high[u], row)
                if p < high[u] and w_indices[p] == row:
                    upper += weight[u] * w_data[p]
                    holds_looked_up = True
            if (upper + below[u]) * (1.0 + SLACK) < reach:
                continue
            score = partial
            if holds_looked_up or not exact:  # the sum again, term by term in the query's order
                for u in range(n_terms):
                    p = low[u] = _seek(w_indices, low[u], high[u], row)
                    value[u] = w_data[p] if p < high[u] and w_indices[p] == row else np.nan
                score = 0.0
                for j in range(start, stop):
                    found = value[term_of[j - start]]
                    if found == found:  # not NaN: the row holds the term
                        score += q_data[j] * found
            if score >= bar_score and (score > bar_score or row < bar_row) and score >= min_score:
                count, bar_score, bar_row = _insert(rows, kept, count, row, score)
                if count == rows.size and bar_score > bar:
                    bar = bar_score
                    reach = bar - abs(bar) * SLACK
        if looked_up > 0 and first_lookups * _LOOKUP_COST > high[looked_up - 1] - first_looked_up_entry:
            most_looked_up = looked_up - 1
        window_start = window_stop
    return count


#: A term found in at least this share of the rows (1 / DENSE_SHARE) gets a dense row of levels.
DENSE_SHARE = 16
#: The level rows' sums are read in this many interleaved lanes, whose maxima vectorise.
LANES = 64
# A query's largest possible sum, in units: 2**23, so that any sum of levels fits in 32 bits.
_UNITS = float(1 << 23)


@njit(nogil=True, cache=True)
def _dense_levels(indptr, indices, levels, n_rows, share):  # type: ignore[no-untyped-def]
    n_terms = indptr.size - 1
    slots = np.full(n_terms, -1, dtype=np.int32)
    n_dense = 0
    for t in range(n_terms):
        if (indptr[t + 1] - indptr[t]) * share >= n_rows:
            slots[t] = n_dense
            n_dense += 1
    rows = np.zeros((n_dense, n_rows), dtype=np.uint8)
    for t in range(n_terms):
        if slots[t] >= 0:
            for p in range(indptr[t], indptr[t + 1]):
                rows[slots[t], indices[p]] = levels[p]
    return slots, rows


def dense_levels(weights: sp.csc_matrix, levels: np.ndarray, share: int = DENSE_SHARE) -> tuple[np.ndarray, np.ndarray]:
    """The levels of the frequent terms laid out by row: ``(slots, rows)``, where ``rows[slots[t], d]``
    is the level of document ``d``'s weight for term ``t`` (0 where it lacks the term) for every term
    found in at least ``1 / share`` of the rows, and ``slots[t]`` is -1 for the others. A term's dense
    row costs one byte per row of the corpus, at most ``share`` bytes per stored weight."""
    return _dense_levels(weights.indptr, weights.indices, levels, weights.shape[0], share)


@njit(nogil=True, cache=True)
def _set_levels(sums, row_levels, units):  # type: ignore[no-untyped-def]
    for offset in range(sums.size):  # a plain loop over bytes: the compiler vectorises it
        sums[offset] = np.uint32(row_levels[offset]) * units


@njit(nogil=True, cache=True)
def _add_levels(sums, row_levels, units):  # type: ignore[no-untyped-def]
    for offset in range(sums.size):
        sums[offset] += np.uint32(row_levels[offset]) * units


@njit(nogil=True, cache=True)
def _lane_maxima(sums, maxima):  # type: ignore[no-untyped-def]
    """``maxima[lane]``: the largest of ``sums[lane]``, ``sums[lane + LANES]``, ... (``sums.size`` a multiple of
    LANES): a loop over every lane at once, which the compiler vectorises, where a maximum per block would not be."""
    for lane in range(LANES):
        maxima[lane] = sums[lane]
    for block in range(1, sums.size // LANES):
        for lane in range(LANES):
            found = sums[block * LANES + lane]
            maxima[lane] = found if found > maxima[lane] else maxima[lane]


@njit(nogil=True, cache=True)
def _row_score(row, start, stop, q_indices, q_data, w_indptr, w_indices, w_data):  # type: ignore[no-untyped-def]
    """A row's score from the weights, term by term in the query's order, each found by binary search."""
    score = 0.0
    for j in range(start, stop):
        low, high = w_indptr[q_indices[j]], w_indptr[q_indices[j] + 1]
        end = high
        while low < high:
            middle = (low + high) >> 1
            if w_indices[middle] < row:
                low = middle + 1
            else:
                high = middle
        if low < end and w_indices[low] == row:
            score += q_data[j] * w_data[low]
    return score


@njit(nogil=True, cache=True)
def _units_below(bar, unit):  # type: ignore[no-untyped-def]
    """The fewest units a row's sum of levels needs to be worth scoring against ``bar`` (at least 1)."""
    reach = bar - abs(bar) * SLACK
    return np.uint32(max(1.0, np.floor(reach / unit))) if reach > 0 else np.uint32(1)


@njit(nogil=True, cache=True)
def _level_rows_query(start, stop, q_indices, q_data, w_indptr, w_indices, w_data, levels, slots, dense_rows,  # type: ignore[no-untyped-def]
                      mask, every_row, min_score, rows, kept, count, n_rows, window, sums, maxima, term, bound,
                      n_terms, units, order, cursor, seed_offset, seed_sum):
    """One query's top k from its terms' levels summed for every row, in 32-bit units; returns the new count.

    ``term`` and ``bound`` hold its ``n_terms`` distinct terms and their bounds (:func:`_distinct_terms`),
    which add up to a normal positive number.
    """
    k = rows.size
    unit = 0.0
    for u in range(n_terms):
        unit += bound[u]
    unit /= _UNITS
    n_dense = 0
    for u in range(n_terms):  # the terms with a dense row first: the first sets the sums, no zeroing
        if slots[term[u]] >= 0:
            order[n_dense] = u
            n_dense += 1
    n_ordered = n_dense
    for u in range(n_terms):
        if slots[term[u]] < 0:
            order[n_ordered] = u
            n_ordered += 1
    for u in range(n_terms):
        # a level l of term u stands for at most l * bound[u] / LEVELS: at most l * units[u] units
        units[u] = np.uint32(np.ceil(bound[u] / LEVELS / unit))
        cursor[u] = w_indptr[term[u]]
    n_windows = (n_rows + window - 1) // window
    # first pass: every row's sum of levels, a window at a time (in the fastest cache), and its lanes' maxima
    for w in range(n_windows):
        window_start, window_stop = w * window, min((w + 1) * window, n_rows)
        part = sums[window_start:window_start + window]
        full = window_stop - window_start == window
        if not full or n_dense == 0:
            part[:] = 0
        for i in range(n_terms):
            u = order[i]
            if i < n_dense:
                row_levels = dense_rows[slots[term[u]], window_start:window_stop]
                if i == 0 and full:
                    _set_levels(part, row_levels, units[u])
                else:
                    _add_levels(part[:window_stop - window_start], row_levels, units[u])
            else:
                p, end, u_units = cursor[u], w_indptr[term[u] + 1], units[u]
                while p < end and w_indices[p] < window_stop:
                    part[w_indices[p] - window_start] += np.uint32(levels[p]) * u_units
                    p += 1
                cursor[u] = p
        if not every_row:
            for offset in range(window_stop - window_start):
                part[offset] = part[offset] if mask[window_start + offset] else 0
        _lane_maxima(part, maxima[w])
    # a first bar: the rows of the k largest lane maxima (k different rows), scored from the weights
    n_seeds = 0
    for w in range(n_windows):
        for lane in range(LANES):
            found = maxima[w, lane]
            if found > 0 and (n_seeds < k or found > seed_sum[n_seeds - 1]):
                i = min(n_seeds, k - 1)
                while i > 0 and seed_sum[i - 1] < found:
                    seed_sum[i], seed_offset[i] = seed_sum[i - 1], seed_offset[i - 1]
                    i -= 1
                seed_sum[i], seed_offset[i] = found, w * window + lane
                n_seeds = min(n_seeds + 1, k)
    bar_score, bar_row = _bar(rows, kept, count)
    for s in range(n_seeds):
        row = seed_offset[s]
        while sums[row] != seed_sum[s]:
            row += LANES
        sums[row] = 0  # scored now: the second pass passes it by
        score = _row_score(row, start, stop, q_indices, q_data, w_indptr, w_indices, w_data)
        if score >= bar_score and (score > bar_score or row < bar_row) and score >= min_score:
            count, bar_score, bar_row = _insert(rows, kept, count, row, score)
    needed = _units_below(max(bar_score if count == k else -np.inf, min_score), unit)
    # second pass: only the lanes whose maximum reaches the bar, only their rows that reach it
    for w in range(n_windows):
        for lane in range(LANES):
            if maxima[w, lane] < needed:
                continue
            for row in range(w * window + lane, min((w + 1) * window, n_rows), LANES):
                if sums[row] < needed:
                    continue
                score = _row_score(row, start, stop, q_indices, q_data, w_indptr, w_indices, w_data)
                if score >= bar_score and (score > bar_score or row < bar_row) and score >= min_score:
                    count, bar_score, bar_row = _insert(rows, kept, count, row, score)
                    if count == k:
                        needed = _units_below(max(bar_score, min_score), unit)
    return count


@njit(nogil=True, cache=True)
def update_top_k_max_score(q_indptr, q_indices, q_data, w_indptr, w_indices, w_data, bounds, levels,  # type: ignore[no-untyped-def]
                           slots, dense_rows, mask, min_score, window, small_query, sum_levels, best_rows,
                           best_scores, counts):
    """The top k of each query row (CSR) against term-major weights (CSC), skipping rows that cannot enter.

    ``bounds[t]`` is the largest weight of column ``t``, ``levels`` each stored weight's level
    (:func:`weight_levels`) and ``slots`` / ``dense_rows`` the frequent terms' levels by row
    (:func:`dense_levels`); weights and query values are >= 0. ``window`` rows are visited at a
    time (``WINDOW``; rounded up to a multiple of ``LANES`` when summing levels) and queries
    reading ``small_query`` stored entries or fewer are scored whole (``SMALL_QUERY``); tests make
    both tiny. The others of two terms or more sum their levels for every row when ``sum_levels``
    is true, and take MaxScore when it is false (tests compare both with the plain loop). Fills ``best_rows`` / ``best_scores`` / ``counts`` (empty on entry) as
    :func:`~lab.vectors.top_k.update_top_k_sparse` does: the same rows with the same scores.
    """
    n_rows = mask.size
    k = best_rows.shape[1]
    every_row = True
    for row in range(n_rows):
        every_row = every_row and mask[row]
    total = np.zeros(n_rows)  # the plain loop's scratch, for small queries
    seen = np.zeros(n_rows, dtype=np.uint8)
    touched = np.empty(n_rows, dtype=np.int64)
    partial_sums = np.zeros(window)  # one window's scratch
    in_window = np.zeros(window, dtype=np.uint8)
    candidate_rows = np.empty(window, dtype=np.int64)
    candidate_sums = np.empty(window)
    first_window = max(1, window // 16)  # windows grow from this: the first, read before any bar exists, is small
    level_window = (window + LANES - 1) // LANES * LANES
    n_level_windows = (n_rows + level_window - 1) // level_window
    sums = np.empty(0, dtype=np.uint32)  # every row's sum of levels, made on the first query that needs it
    maxima = np.zeros((n_level_windows, LANES), dtype=np.uint32)
    longest = 1
    for q in range(q_indptr.size - 1):
        longest = max(longest, q_indptr[q + 1] - q_indptr[q])
    term = np.empty(longest, dtype=np.int64)
    weight = np.empty(longest)
    bound = np.empty(longest)
    below = np.empty(longest + 1)
    term_of = np.empty(longest, dtype=np.int64)
    level_bound = np.empty((longest, LEVELS + 1))  # what each term adds at most to a row, by level
    cursor = np.empty(longest, dtype=np.int64)  # where each term's list goes on after the window
    low = np.empty(longest, dtype=np.int64)  # each term's entries in the window: low..high-1
    high = np.empty(longest, dtype=np.int64)
    value = np.empty(longest)
    units = np.empty(longest, dtype=np.uint32)
    order = np.empty(longest, dtype=np.int64)
    seed_offset = np.empty(k, dtype=np.int64)
    seed_sum = np.empty(k, dtype=np.uint32)
    for q in range(q_indptr.size - 1):
        start, stop = q_indptr[q], q_indptr[q + 1]
        rows, kept, count = best_rows[q], best_scores[q], counts[q]
        to_read = 0
        for j in range(start, stop):
            to_read += w_indptr[q_indices[j] + 1] - w_indptr[q_indices[j]]
        if to_read > small_query:
            n_terms = _distinct_terms(q_indices[start:stop], q_data[start:stop], bounds, term, weight, bound, below,
                                      term_of)
            # one term: MaxScore reads its list once, weights and all; the sums' unit must be a normal number
            if sum_levels and n_terms > 1 and 1e-250 < below[n_terms] < 1e250:
                if sums.size == 0:
                    sums = np.empty(n_level_windows * level_window, dtype=np.uint32)
                count = _level_rows_query(start, stop, q_indices, q_data, w_indptr, w_indices, w_data, levels, slots,
                                          dense_rows, mask, every_row, min_score, rows, kept, count, n_rows,
                                          level_window, sums, maxima, term, bound, n_terms, units, order, cursor,
                                          seed_offset, seed_sum)
                if count == k or min_score > 0.0:
                    counts[q] = count
                    continue
                # fewer than k rows sum a level above 0: rows that score 0 may enter, ranked by the plain loop
                count = 0
                to_read = 0
        if to_read <= small_query:
            n_touched = add_query_rows(q_indices[start:stop], q_data[start:stop], w_indptr, w_indices, w_data,
                                       total, seen, touched)
            counts[q] = offer_rows(touched, n_touched, total, mask, min_score, rows, kept, count)
            for i in range(n_touched):
                seen[touched[i]] = 0
            continue
        counts[q] = _max_score_query(start, stop, q_indices, q_data, w_indptr, w_indices, w_data, bounds, levels,
                                     mask, min_score, window, rows, kept, count, n_rows, first_window, partial_sums,
                                     in_window, candidate_rows, candidate_sums, term, weight, bound, below, term_of,
                                     level_bound, cursor, low, high, value)
