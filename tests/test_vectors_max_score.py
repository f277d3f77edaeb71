"""MaxScore top k: the very rows and scores of the plain term-by-term loop, whatever it skips."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from lab.vectors import BM25, top_k_rows, top_k_sparse_product
from lab.vectors.max_score import LEVELS, SMALL_QUERY, dense_levels, level_values, update_top_k_max_score, weight_levels
from lab.vectors.search import _ranked
from lab.vectors.top_k import new_buffers


def _column_maxima(weights: sp.csc_matrix) -> np.ndarray:
    return np.array([weights.data[weights.indptr[column]:weights.indptr[column + 1]].max(initial=0.0)
                     for column in range(weights.shape[1])])


def _max_score(queries: sp.csr_matrix, weights: sp.csc_matrix, k: int, mask: np.ndarray, min_score: float,
               window: int, levels: np.ndarray | None = None, share: int | None = None) -> list[list[tuple[int, float]]]:
    """The MaxScore path on every query, however small (``small_query`` 0), in windows of ``window`` rows,
    with each weight's smallest level or the ``levels`` given; with a ``share``, the queries of two
    terms or more sum their levels instead, the terms in at least ``1 / share`` of the rows from level rows."""
    bounds = _column_maxima(weights)
    levels = weight_levels(weights, bounds) if levels is None else levels
    if share is None:
        slots, rows = np.full(weights.shape[1], -1, dtype=np.int32), np.zeros((0, weights.shape[0]), dtype=np.uint8)
    else:
        slots, rows = dense_levels(weights, levels, share)
    found = new_buffers(queries.shape[0], min(k, weights.shape[0]))
    update_top_k_max_score(queries.indptr.astype(np.int64), queries.indices.astype(np.int64),
                           queries.data.astype(np.float64), weights.indptr, weights.indices, weights.data, bounds,
                           levels, slots, rows, mask, min_score, window, 0, share is not None, *found)
    return _ranked(*found)


@st.composite
def _problems(draw: st.DrawFn) -> tuple[sp.csc_matrix, sp.csr_matrix, int, np.ndarray, float | None, int]:
    n_rows, n_terms = draw(st.integers(1, 40)), draw(st.integers(1, 6))
    # few distinct values, zeros and whole columns of zeros included: ties everywhere
    values = st.sampled_from([0.0, 0.0, 0.25, 0.5, 0.5, 1.0, 1.5, 0.1, 0.2, 0.3])
    dense = np.array(draw(st.lists(values, min_size=n_rows * n_terms, max_size=n_rows * n_terms))).reshape(n_rows, n_terms)
    present = np.array(draw(st.lists(st.booleans(), min_size=n_rows * n_terms, max_size=n_rows * n_terms)))
    rows, columns = np.nonzero(present.reshape(n_rows, n_terms))
    # a stored 0 is a row that holds the term and gets nothing from it (atire's idf of a word everywhere)
    stored = sp.csc_matrix((dense[rows, columns], (rows, columns)), shape=(n_rows, n_terms))
    queries = draw(st.lists(st.lists(st.integers(0, n_terms - 1), max_size=7), min_size=1, max_size=5))
    values_per_query = [[draw(st.sampled_from([1.0, 1.0, 2.0, 0.5])) for _ in q] for q in queries]
    indptr = np.cumsum([0, *map(len, queries)])
    query_matrix = sp.csr_matrix((np.concatenate([[], *values_per_query]), np.concatenate([[], *queries]).astype(int),
                                  indptr), shape=(len(queries), n_terms))
    query_matrix.has_canonical_format = False  # repeated terms stay repeated, in query order
    k = draw(st.integers(1, n_rows + 3))
    mask = np.array(draw(st.lists(st.booleans(), min_size=n_rows, max_size=n_rows))) | draw(st.booleans())
    min_score = draw(st.none() | st.sampled_from([0.0, 0.3, 0.5, 1.0, 2.0]))
    return stored, query_matrix, k, mask, min_score, draw(st.sampled_from([1, 2, 3, 8, 64]))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True)
@given(problem=_problems())
def test_max_score_gives_the_rows_and_scores_of_the_plain_loop_to_the_last_bit(problem) -> None:  # type: ignore[no-untyped-def]
    weights, queries, k, mask, min_score, window = problem
    plain = top_k_sparse_product(queries, weights, k, mask=mask, min_score=min_score)
    skipping = _max_score(queries, weights, k, mask, -np.inf if min_score is None else min_score, window)
    assert skipping == plain


@pytest.mark.slow
@settings(max_examples=100, deadline=None, derandomize=True)
@given(problem=_problems(), looser=st.data())
def test_any_levels_at_or_above_each_weight_give_the_same_rows_and_scores(problem, looser) -> None:  # type: ignore[no-untyped-def]
    # a level is only a bound: a looser one (up to LEVELS, the column's largest weight) may cost time, never a result
    weights, queries, k, mask, min_score, window = problem
    levels = weight_levels(weights, _column_maxima(weights))
    raised = np.array(looser.draw(st.lists(st.integers(0, LEVELS), min_size=levels.size, max_size=levels.size)))
    levels = np.maximum(levels, raised).astype(np.uint8)
    plain = top_k_sparse_product(queries, weights, k, mask=mask, min_score=min_score)
    assert _max_score(queries, weights, k, mask, -np.inf if min_score is None else min_score, window, levels) == plain


@pytest.mark.slow
@pytest.mark.parametrize("share", [1, 2, 1_000])
@settings(max_examples=200, deadline=None, derandomize=True)
@given(problem=_problems())
def test_summing_level_rows_gives_the_rows_and_scores_of_the_plain_loop_to_the_last_bit(problem, share: int) -> None:  # type: ignore[no-untyped-def]
    # share 1,000: every term gets a level row; 2: the terms in half the rows or more; 1: those in every row;
    # the others are added up one entry at a time (all of a query's terms, often)
    weights, queries, k, mask, min_score, window = problem
    plain = top_k_sparse_product(queries, weights, k, mask=mask, min_score=min_score)
    assert _max_score(queries, weights, k, mask, -np.inf if min_score is None else min_score, window, share=share) == plain


@pytest.mark.slow
@settings(max_examples=60, deadline=None, derandomize=True)
@given(problem=_problems(), looser=st.data())
def test_level_rows_of_any_levels_at_or_above_each_weight_give_the_same_rows_and_scores(problem, looser) -> None:  # type: ignore[no-untyped-def]
    weights, queries, k, mask, min_score, window = problem
    levels = weight_levels(weights, _column_maxima(weights))
    raised = np.array(looser.draw(st.lists(st.integers(0, LEVELS), min_size=levels.size, max_size=levels.size)))
    levels = np.maximum(levels, raised).astype(np.uint8)
    plain = top_k_sparse_product(queries, weights, k, mask=mask, min_score=min_score)
    floor = -np.inf if min_score is None else min_score
    assert _max_score(queries, weights, k, mask, floor, window, levels, share=1_000) == plain


@pytest.mark.parametrize("seed", range(12))
def test_level_rows_over_many_windows_and_lanes_give_the_plain_loops_rows_and_scores(seed: int) -> None:
    # hundreds of rows: several windows of a few lanes' rows each, few distinct weights (ties at the cut),
    # k from 1 to more than the rows that match, masks and floors
    rng = np.random.default_rng(seed)
    n_rows, n_terms = int(rng.integers(100, 1_500)), int(rng.integers(1, 9))
    density = rng.choice([0.02, 0.3, 0.9], size=n_terms)
    present = rng.random((n_rows, n_terms)) < density
    values = rng.choice([0.0, 0.1, 0.2, 0.25, 0.5, 0.5, 1.0, 1.5], size=(n_rows, n_terms))
    rows, columns = np.nonzero(present)
    weights = sp.csc_matrix((values[rows, columns], (rows, columns)), shape=(n_rows, n_terms))
    queries = [rng.integers(0, n_terms, size=rng.integers(1, 7)) for _ in range(8)]
    query_matrix = sp.csr_matrix((np.ones(sum(map(len, queries))), np.concatenate(queries),
                                  np.cumsum([0, *map(len, queries)])), shape=(len(queries), n_terms))
    query_matrix.has_canonical_format = False
    for k in (1, 10, n_rows + 5):
        for mask in (np.ones(n_rows, dtype=bool), rng.random(n_rows) < 0.4):
            for min_score in (None, 0.5):
                plain = top_k_sparse_product(query_matrix, weights, k, mask=mask, min_score=min_score)
                floor = -np.inf if min_score is None else min_score
                for window, share in ((64, 1_000), (128, 4), (4096, 2)):
                    assert _max_score(query_matrix, weights, k, mask, floor, window, share=share) == plain


def test_level_rows_hold_each_frequent_terms_levels_by_row() -> None:
    weights = sp.csc_matrix(np.array([[0.5, 0.0, 0.1], [0.0, 0.0, 0.2], [1.0, 0.3, 0.0], [0.25, 0.0, 0.4]]))
    levels = weight_levels(weights, _column_maxima(weights))
    slots, rows = dense_levels(weights, levels, share=2)  # columns in at least half the rows: 0 and 2
    assert slots.tolist() == [0, -1, 1] and rows.dtype == np.uint8 and rows.shape == (2, 4)
    for column in (0, 2):
        entries = slice(weights.indptr[column], weights.indptr[column + 1])
        expected = np.zeros(4, dtype=np.uint8)
        expected[weights.indices[entries]] = levels[entries]
        assert rows[slots[column]].tolist() == expected.tolist()


@pytest.mark.slow
@settings(max_examples=200, deadline=None, derandomize=True)
@given(values=st.lists(st.floats(0.0, 1e6, allow_subnormal=False), min_size=1, max_size=30))
def test_a_level_is_the_smallest_that_bounds_its_weight(values: list[float]) -> None:
    weights = sp.csc_matrix(np.array(values).reshape(-1, 1))
    bound = weights.data.max(initial=0.0)
    levels = weight_levels(weights, np.array([bound]))
    values = level_values(bound)
    assert levels.dtype == np.uint8 and levels.shape == weights.data.shape and values[LEVELS] == bound
    for weight, level in zip(weights.data, levels):
        assert values[level] >= weight
        assert level == 0 or values[level - 1] < weight


def test_scores_are_summed_in_the_query_order_even_for_rows_found_by_lookup() -> None:
    # 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in the last bit: the query's order must win
    weights = sp.csc_matrix(np.array([[0.1, 0.2, 0.3], [0.3, 0.0, 0.0], [0.0, 0.0, 0.05]] * 40))
    queries = sp.csr_matrix(np.array([[1.0, 1.0, 1.0]]))
    plain = top_k_sparse_product(queries, weights, 3)
    assert _max_score(queries, weights, 3, np.ones(120, dtype=bool), -np.inf, 4) == plain
    assert plain[0][0][1] == (0.1 + 0.2) + 0.3


def _zipf_texts(n_docs: int, seed: int = 0) -> tuple[list[str], list[str]]:
    rng = np.random.default_rng(seed)
    words = [f"w{rank}x" for rank in range(2_000)]
    law = 1.0 / np.arange(1, len(words) + 1) ** 1.07
    law /= law.sum()
    texts = [" ".join(rng.choice(words, size=rng.integers(40, 261), p=law)) for _ in range(n_docs)]
    return texts, words


def _plain_top_k(index: BM25, query: str, k: int, mask: np.ndarray | None, min_score: float | None) -> list:
    matched = np.zeros(index.weights_.shape[0], dtype=bool)
    for column in index.query_terms(query):
        matched[index.weights_.indices[index.weights_.indptr[column]:index.weights_.indptr[column + 1]]] = True
    keep = matched if mask is None else matched & mask
    return top_k_rows(index.score(query), k, mask=keep, min_score=min_score)


@pytest.mark.slow
@pytest.mark.parametrize("k", [1, 10, 50])
def test_bm25_top_k_many_equals_the_readable_formula_on_a_zipf_corpus_with_frequent_words(k: int) -> None:
    texts, words = _zipf_texts(4_000)
    index = BM25().fit(texts)
    rng = np.random.default_rng(1)
    queries = [" ".join(rng.choice(words[:40], size=rng.integers(1, 6))) for _ in range(60)]
    queries += ["w0x w0x w1x", "w1x w0x", "w0x nothing w5x unknown", "", "unknown", "w1500x w0x"]
    assert index.top_k_many(queries, k) == [_plain_top_k(index, query, k, None, None) for query in queries]
    entries = [sum(np.diff(index.weights_.indptr)[index.query_terms(query)]) for query in queries]
    assert sum(n > SMALL_QUERY for n in entries) > len(queries) / 2  # most took the skipping path
    assert sum(n > SMALL_QUERY and len(set(index.query_terms(query))) > 1
               for n, query in zip(entries, queries)) > len(queries) / 2  # most of them by summing levels


@pytest.mark.slow
def test_bm25_top_k_many_leaves_out_masked_and_weak_documents_on_the_skipping_path() -> None:
    texts, words = _zipf_texts(3_000, seed=2)
    index = BM25().fit(texts)
    mask = np.random.default_rng(3).random(len(texts)) < 0.3  # an audience sees a third of the rows
    queries = ["w0x w3x w40x", "w1x w2x", "w7x w0x w0x w300x"]
    for query in queries:
        best = _plain_top_k(index, query, 10, mask, None)
        assert index.top_k_many([query], 10, mask=mask) == [best]
        assert index.top_k_many([query], 10, mask=mask, min_score=best[4][1]) == [best[:5]]


@pytest.mark.slow
def test_a_negative_robertson_idf_scores_every_matching_document() -> None:
    texts, _ = _zipf_texts(3_000, seed=4)
    index = BM25(idf="robertson").fit(texts)
    assert index.idf_.min() < 0  # the most frequent words are in more than half the documents
    query = "w0x w1x w30x"
    assert index.top_k_many([query], 10) == [_plain_top_k(index, query, 10, None, None)]


def test_column_bounds_are_refused_with_unmatched_rows_negative_query_values_or_the_wrong_shape() -> None:
    weights = sp.csc_matrix(np.eye(3))
    with pytest.raises(ValueError, match="cannot rank unmatched rows"):
        top_k_sparse_product(sp.csr_matrix(np.ones((1, 3))), weights, 2, unmatched_score=0.0, column_bounds=np.ones(3))
    with pytest.raises(ValueError, match="query values >= 0"):
        top_k_sparse_product(sp.csr_matrix(-np.ones((1, 3))), weights, 2, column_bounds=np.ones(3))
    with pytest.raises(ValueError, match=r"one bound per term \(3,\)"):
        top_k_sparse_product(sp.csr_matrix(np.ones((1, 3))), weights, 2, column_bounds=np.ones(2))
    with pytest.raises(ValueError, match="one uint8 per stored weight"):
        top_k_sparse_product(sp.csr_matrix(np.ones((1, 3))), weights, 2, column_bounds=np.ones(3),
                             levels=np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="one int32 slot per term"):
        top_k_sparse_product(sp.csr_matrix(np.ones((1, 3))), weights, 2, column_bounds=np.ones(3),
                             level_rows=(np.zeros(3, dtype=np.int64), np.zeros((1, 3), dtype=np.uint8)))


@pytest.mark.slow
def test_max_weights_are_each_terms_largest_weight_and_levels_round_each_weight_up_to_a_step_of_it() -> None:
    index = BM25().fit(["pan pan sal", "pan", "sal té", "té té té pan"])
    for column in range(len(index.vocabulary_)):
        assert index.max_weights_[column] == index.weights_[:, column].max()
    np.testing.assert_array_equal(index.weight_levels_, weight_levels(index.weights_, index.max_weights_))
    slots, rows = index.level_slots_, index.level_rows_
    expected_slots, expected_rows = dense_levels(index.weights_, index.weight_levels_)
    assert slots.tolist() == expected_slots.tolist() and rows.tolist() == expected_rows.tolist()
