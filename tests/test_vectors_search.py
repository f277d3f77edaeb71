"""Cosine search: ranking, ties, thresholds and naming the hits."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from lab.vectors import Hit, TfidfVectorizer, cosine_top_k, label_hits, top_k_rows

# Unit rows: row 1 and row 3 tie with the query, row 0 is next, row 2 is orthogonal.
ROWS = np.array([[0.6, 0.8, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
QUERY = np.array([1.0, 0.0, 0.0])


def test_rows_come_back_best_first_with_ties_in_row_order() -> None:
    assert cosine_top_k(ROWS, QUERY, k=4) == [(1, 1.0), (3, 1.0), (0, 0.6), (2, 0.0)]
    assert cosine_top_k(ROWS, QUERY, k=1) == [(1, 1.0)]


def test_sparse_and_dense_inputs_and_every_query_shape_give_the_same_ranking() -> None:
    expected = cosine_top_k(ROWS, QUERY, k=3)
    for matrix in (ROWS, sp.csr_matrix(ROWS)):
        for query in (QUERY, QUERY.reshape(1, -1), sp.csr_matrix(QUERY), sp.csr_matrix(QUERY).T):
            assert cosine_top_k(matrix, query, k=3) == expected


def test_min_score_drops_weak_rows_even_if_fewer_than_k_remain() -> None:
    assert cosine_top_k(ROWS, QUERY, k=3, min_score=0.7) == [(1, 1.0), (3, 1.0)]
    assert cosine_top_k(ROWS, QUERY, k=3, min_score=1.5) == []


def test_k_larger_than_the_number_of_rows_returns_every_row() -> None:
    assert [row for row, _ in cosine_top_k(ROWS, QUERY, k=50)] == [1, 3, 0, 2]


def test_scores_are_plain_python_numbers() -> None:
    row, score = cosine_top_k(sp.csr_matrix(ROWS), QUERY)[0]
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
            cosine_top_k(ROWS, QUERY, k=k)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="expected 3 features"):
        cosine_top_k(ROWS, np.ones(4))
    with pytest.raises(ValueError, match="one row of 3 features"):
        cosine_top_k(ROWS, sp.csr_matrix(np.ones((2, 3))))


def test_tfidf_search_finds_the_chunk_that_answers() -> None:
    chunks = [
        "Rol de canela. Alérgenos: contiene nuez y gluten.",
        "Política de cancelaciones: hasta 48 horas antes.",
        "Horario del puente de mayo.",
    ]
    vectorizer = TfidfVectorizer()
    X = vectorizer.fit_transform(chunks)
    ranked = cosine_top_k(X, vectorizer.transform(["¿El rol de canela lleva nuez?"]), k=3, min_score=0.01)
    assert [row for row, _ in ranked] == [0]


METADATA = [
    {"id": "c0", "title": "Ficha: Rol de canela", "section": "Alérgenos"},
    {"id": "c1", "title": "Política de cancelaciones", "section": "Plazos"},
    {"id": "c2", "title": "Aviso: puente del 1 de mayo", "section": "Horario"},
    {"id": "c3", "title": "Ficha: Pan de masa madre", "section": "Ingredientes"},
]


def test_hits_name_each_row_from_a_list_of_dicts_or_a_dataframe() -> None:
    ranked = cosine_top_k(ROWS, QUERY, k=2)
    expected = [
        Hit(rank=1, row=1, score=1.0, id="c1", title="Política de cancelaciones", section="Plazos"),
        Hit(rank=2, row=3, score=1.0, id="c3", title="Ficha: Pan de masa madre", section="Ingredientes"),
    ]
    assert label_hits(ranked, METADATA) == expected
    frame = pd.DataFrame(METADATA, index=[10, 11, 12, 13])  # rows are positions, not index labels
    assert label_hits(ranked, frame) == expected
    assert str(expected[0]) == "1.000  Política de cancelaciones > Plazos"


def test_metadata_without_the_needed_columns_or_rows_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match=r"lacks \['section'\]"):
        label_hits([(0, 1.0)], pd.DataFrame({"id": ["c0"], "title": ["t"]}))
    with pytest.raises(ValueError, match=r"lacks \['title'\]"):
        label_hits([(0, 1.0)], [{"id": "c0", "section": "s"}])
    with pytest.raises(IndexError, match="row 7 has no metadata: the table has 4 rows"):
        label_hits([(7, 1.0)], METADATA)
