"""Cosine scores, the one top-k ranking (ties, masks, thresholds, many queries at once) and the one search result."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from lab.vectors import (
    Hit, TfidfVectorizer, cosine_scores, search, top_k_dense_product, top_k_rows, top_k_rows_many,
    top_k_sparse_product,
)

# Unit rows: row 1 and row 3 tie with the query, row 0 is next, row 2 is orthogonal.
ROWS = np.array([[0.6, 0.8, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
QUERY = np.array([1.0, 0.0, 0.0])


def ranked(matrix, query, k: int = 3, min_score: float | None = None) -> list[tuple[int, float]]:
    return top_k_rows(cosine_scores(matrix, query), k, min_score=min_score)


def test_rows_come_back_best_first_with_ties_in_row_order() -> None:
    assert ranked(ROWS, QUERY, k=4) == [(1, 1.0), (3, 1.0), (0, 0.6), (2, 0.0)]
    assert ranked(ROWS, QUERY, k=1) == [(1, 1.0)]


def test_sparse_and_dense_inputs_and_every_query_shape_give_the_same_scores() -> None:
    expected = cosine_scores(ROWS, QUERY)
    for matrix in (ROWS, sp.csr_matrix(ROWS)):
        for query in (QUERY, QUERY.reshape(1, -1), sp.csr_matrix(QUERY), sp.csr_matrix(QUERY).T):
            assert cosine_scores(matrix, query).tolist() == expected.tolist()


def test_min_score_drops_weak_rows_even_if_fewer_than_k_remain() -> None:
    assert ranked(ROWS, QUERY, k=3, min_score=0.7) == [(1, 1.0), (3, 1.0)]
    assert ranked(ROWS, QUERY, k=3, min_score=1.5) == []


def test_a_mask_keeps_rows_out_of_the_ranking_before_k_is_counted() -> None:
    mask = np.array([True, False, True, True])
    assert top_k_rows(cosine_scores(ROWS, QUERY), 2, mask=mask) == [(3, 1.0), (0, 0.6)]
    assert top_k_rows(cosine_scores(ROWS, QUERY), 2, mask=mask, min_score=0.7) == [(3, 1.0)]
    with pytest.raises(ValueError, match="mask has 3 entries for 4 scores"):
        top_k_rows(cosine_scores(ROWS, QUERY), 2, mask=mask[:3])


def test_k_larger_than_the_number_of_rows_returns_every_row() -> None:
    assert [row for row, _ in ranked(ROWS, QUERY, k=50)] == [1, 3, 0, 2]


def test_scores_are_plain_python_numbers() -> None:
    row, score = ranked(sp.csr_matrix(ROWS), QUERY)[0]
    assert type(row) is int and type(score) is float


def test_partial_selection_keeps_ties_at_the_cut_in_row_order() -> None:
    scores = np.array([0.5, 0.9, 0.5, 0.1, 0.5, 0.9, 0.5])
    assert top_k_rows(scores, 3) == [(1, 0.9), (5, 0.9), (0, 0.5)]
    assert top_k_rows(scores, 4) == [(1, 0.9), (5, 0.9), (0, 0.5), (2, 0.5)]
    rng = np.random.default_rng(0)
    many = rng.integers(0, 5, size=1000).astype(float)
    full_sort = sorted(range(many.size), key=lambda i: (-many[i], i))[:37]
    assert [row for row, _ in top_k_rows(many, 37)] == full_sort


def test_bad_k_or_a_query_of_the_wrong_size_is_a_clear_error() -> None:
    for k in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="k must be a positive integer"):
            ranked(ROWS, QUERY, k=k)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="expected 3 features"):
        cosine_scores(ROWS, np.ones(4))
    with pytest.raises(ValueError, match="one row of 3 features"):
        cosine_scores(ROWS, sp.csr_matrix(np.ones((2, 3))))


def test_tfidf_search_finds_the_chunk_that_answers() -> None:
    chunks = [
        "Rol de canela. Alérgenos: contiene nuez y gluten.",
        "Política de cancelaciones: hasta 48 horas antes.",
        "Horario del puente de mayo.",
    ]
    vectorizer = TfidfVectorizer()
    X = vectorizer.fit_transform(chunks)
    found = ranked(X, vectorizer.transform(["¿El rol de canela lleva nuez?"]), k=3, min_score=0.01)
    assert [row for row, _ in found] == [0]


def test_a_hit_reads_as_score_title_and_section() -> None:
    hit = Hit(id="c1", score=1.0, title="Política de cancelaciones", section="Plazos", page_id="p1")
    assert str(hit) == "1.000  Política de cancelaciones > Plazos"
    assert str(Hit(id="c0", score=0.25, title="Horario")) == "0.250  Horario > (lead)"


# ---------------------------------------------------------------- many queries at once


def test_many_score_rows_rank_like_one_row_at_a_time() -> None:
    rng = np.random.default_rng(0)
    scores = rng.integers(0, 4, size=(6, 50)).astype(float)  # many ties
    mask = rng.random(50) < 0.8
    many = top_k_rows_many(scores, 7, mask=mask, min_score=1.0)
    assert many == [top_k_rows(row, 7, mask=mask, min_score=1.0) for row in scores]
    assert top_k_rows_many(scores.astype(np.float32), 7) == top_k_rows_many(scores, 7)
    assert top_k_rows_many(np.zeros((2, 0)), 3) == [[], []] and top_k_rows_many(np.zeros((0, 5)), 3) == []


def test_dense_products_ranked_block_by_block_equal_ranking_the_whole_score_matrix(monkeypatch) -> None:
    rng = np.random.default_rng(1)
    matrix = rng.integers(-2, 3, size=(23, 4)).astype(np.float32)
    queries = rng.integers(-2, 3, size=(5, 4)).astype(np.float32)
    mask = rng.random(23) < 0.7
    whole = top_k_rows_many(queries @ matrix.T, 6, mask=mask, min_score=-1.0)
    monkeypatch.setattr(search, "_BLOCK_ENTRIES", 7)  # blocks of 3 rows by 2 queries
    monkeypatch.setattr(search, "_QUERY_BLOCK", 2)
    assert top_k_dense_product(queries, matrix, 6, mask=mask, min_score=-1.0) == whole
    assert top_k_dense_product(queries[0], matrix, 6, mask=mask, min_score=-1.0) == whole[:1]


def _sorted_reference(queries: np.ndarray, weights: np.ndarray, k: int, mask: np.ndarray, min_score: float | None,
                      unmatched_score: float | None) -> list[list[tuple[int, float]]]:
    """Every row scored and sorted, the slow and obvious way."""
    found = []
    for query in queries:
        candidates = []
        for row, weight_row in enumerate(weights):
            matched = bool(np.any((query != 0) & (weight_row != 0)))
            score = float(query @ weight_row) if matched else unmatched_score
            if mask[row] and score is not None and (min_score is None or score >= min_score):
                candidates.append((row, score))
        found.append(sorted(candidates, key=lambda pair: (-pair[1], pair[0]))[:k])
    return found


small_ints = st.integers(-3, 3)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    shape=st.tuples(st.integers(1, 4), st.integers(1, 12), st.integers(1, 5)),
    data=st.data(),
    k=st.integers(1, 6),
    min_score=st.sampled_from([None, -1.0, 0.0, 2.0]),
    unmatched_score=st.sampled_from([None, 0.0]),
)
def test_sparse_products_rank_like_scoring_and_sorting_every_row(shape, data, k, min_score, unmatched_score) -> None:
    n_queries, n_rows, n_terms = shape
    queries = np.array(data.draw(st.lists(st.lists(small_ints, min_size=n_terms, max_size=n_terms),
                                          min_size=n_queries, max_size=n_queries)), dtype=float)
    weights = np.array(data.draw(st.lists(st.lists(small_ints, min_size=n_terms, max_size=n_terms),
                                          min_size=n_rows, max_size=n_rows)), dtype=float)
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=n_rows, max_size=n_rows)))
    found = top_k_sparse_product(sp.csr_matrix(queries), sp.csc_matrix(weights), k, mask=mask,
                                 min_score=min_score, unmatched_score=unmatched_score)
    assert found == _sorted_reference(queries, weights, k, mask, min_score, unmatched_score)


def test_sparse_products_accept_weights_by_row_and_refuse_a_different_vocabulary() -> None:
    weights = sp.csr_matrix(ROWS)
    assert top_k_sparse_product(sp.csr_matrix(QUERY), weights, 2) == [[(1, 1.0), (3, 1.0)]]
    with pytest.raises(ValueError, match="queries have 4 terms and weights 3"):
        top_k_sparse_product(sp.csr_matrix(np.ones((1, 4))), weights, 2)


def test_batch_inputs_of_the_wrong_shape_are_clear_errors() -> None:
    with pytest.raises(ValueError, match=r"expected \(n_queries, n_rows\)"):
        top_k_rows_many(np.ones(3), 2)
    with pytest.raises(ValueError, match="each query needs one value per matrix column"):
        top_k_dense_product(np.ones((2, 4)), ROWS, 2)
    with pytest.raises(ValueError, match="mask has 3 entries for 4 scores"):
        top_k_dense_product(QUERY, ROWS, 2, mask=np.ones(3, dtype=bool))
