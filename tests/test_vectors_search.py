"""Cosine scores, the one top-k ranking (ties, masks, thresholds) and the one search result."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from lab.vectors import Hit, TfidfVectorizer, cosine_scores, top_k_rows

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
