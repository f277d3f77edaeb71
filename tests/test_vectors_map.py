"""The SVD map and nearest-neighbour purity."""

from __future__ import annotations

import sys

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.decomposition import PCA

from lab.vectors import GRAM_MAX_ROWS, nearest_neighbour_purity, nearest_neighbours, svd_map


def _sparse_corpus(n_rows: int = 40, n_features: int = 25, seed: int = 3) -> sp.csr_matrix:
    rng = np.random.default_rng(seed)
    dense = rng.random((n_rows, n_features)) * (rng.random((n_rows, n_features)) < 0.3)
    dense[:, :3] += np.linspace(0, 1, n_rows)[:, None]  # one strong direction, so components are well separated
    return sp.csr_matrix(dense)


def _reference(X: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    dense = X.toarray()
    centred = dense - dense.mean(axis=0)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    return s, vt, centred


@pytest.mark.parametrize("solver", ["gram", "arpack"])
def test_explained_variance_equals_full_svd_of_the_dense_centred_matrix(solver: str) -> None:
    X = _sparse_corpus()
    s, _, _ = _reference(X)
    fitted = svd_map(X, solver=solver)
    np.testing.assert_allclose(fitted.singular_values_, s[:2], rtol=1e-10)
    np.testing.assert_allclose(fitted.explained_variance_ratio_, s[:2] ** 2 / np.sum(s**2), rtol=1e-10)
    np.testing.assert_allclose(
        fitted.explained_variance_ratio_, PCA(n_components=2, svd_solver="full").fit(X.toarray()).explained_variance_ratio_, rtol=1e-10
    )


@pytest.mark.parametrize("solver", ["gram", "arpack"])
def test_components_and_coordinates_match_the_full_svd_up_to_sign(solver: str) -> None:
    X = _sparse_corpus()
    _, vt, centred = _reference(X)
    fitted = svd_map(X, solver=solver)
    for k in range(2):
        sign = np.sign(fitted.components_[k] @ vt[k])
        np.testing.assert_allclose(fitted.components_[k], sign * vt[k], atol=1e-10)
        np.testing.assert_allclose(fitted.coords_[:, k], sign * centred @ vt[k], atol=1e-10)
    np.testing.assert_allclose(fitted.mean_, X.toarray().mean(axis=0), atol=1e-15)


def test_both_routes_draw_the_same_map_because_signs_are_fixed() -> None:
    X = _sparse_corpus()
    gram, arpack = svd_map(X, solver="gram"), svd_map(X, solver="arpack")
    np.testing.assert_allclose(gram.coords_, arpack.coords_, atol=1e-10)
    for component in gram.components_:
        assert component[np.argmax(np.abs(component))] > 0
    again = svd_map(X, solver="arpack")
    assert np.array_equal(again.coords_, arpack.coords_)


def test_auto_uses_the_gram_route_for_few_rows_and_arpack_above_the_threshold() -> None:
    assert svd_map(_sparse_corpus()).solver_ == "gram"
    many = _sparse_corpus(n_rows=GRAM_MAX_ROWS + 1, n_features=30)
    fitted = svd_map(many)
    assert fitted.solver_ == "arpack" and fitted.coords_.shape == (GRAM_MAX_ROWS + 1, 2)
    s, _, _ = _reference(many)
    np.testing.assert_allclose(fitted.explained_variance_ratio_, s[:2] ** 2 / np.sum(s**2), rtol=1e-9)


def test_the_arpack_route_never_builds_the_dense_centred_matrix(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("densified")

    X = _sparse_corpus(n_rows=60)
    monkeypatch.setattr(sp.csr_matrix, "toarray", refuse)
    monkeypatch.setattr(sp.csr_matrix, "todense", refuse)
    assert svd_map(X, solver="arpack").coords_.shape == (60, 2)


def test_transform_places_training_rows_on_their_coordinates_and_a_query_like_them() -> None:
    X = _sparse_corpus()
    fitted = svd_map(X)
    np.testing.assert_allclose(fitted.transform(X), fitted.coords_, atol=1e-12)
    query = X[5].toarray().ravel()
    np.testing.assert_allclose(fitted.transform(query)[0], fitted.coords_[5], atol=1e-12)
    np.testing.assert_allclose(fitted.transform(X[5]), fitted.coords_[5:6], atol=1e-12)
    with pytest.raises(ValueError, match="Y has 3 features; the map was fitted on 25"):
        fitted.transform(np.ones(3))


def test_dense_input_gives_the_same_map_as_sparse() -> None:
    X = _sparse_corpus()
    np.testing.assert_allclose(svd_map(X.toarray()).coords_, svd_map(X).coords_, atol=1e-10)
    np.testing.assert_allclose(svd_map(X.toarray(), solver="arpack").coords_, svd_map(X).coords_, atol=1e-10)


def test_more_components_than_two_are_available() -> None:
    X = _sparse_corpus()
    s, _, _ = _reference(X)
    np.testing.assert_allclose(svd_map(X, n_components=5).singular_values_, s[:5], rtol=1e-9)


def test_impossible_maps_are_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="at least 2 rows"):
        svd_map(np.ones((1, 4)))
    with pytest.raises(ValueError, match="expected a 2-D matrix"):
        svd_map(np.ones(4))
    with pytest.raises(ValueError, match="all rows are identical"):
        svd_map(np.ones((5, 4)))
    with pytest.raises(ValueError, match="n_components must be between 1 and 24"):
        svd_map(_sparse_corpus(), n_components=25, solver="arpack")
    with pytest.raises(ValueError, match="solver must be one of"):
        svd_map(_sparse_corpus(), solver="lapack")


def test_the_module_documents_its_threshold() -> None:
    module = sys.modules["lab.vectors.svd_map"]
    assert "n <= GRAM_MAX_ROWS" in module.__doc__ and GRAM_MAX_ROWS == module.GRAM_MAX_ROWS


# Two tight groups on a plane, one row placed in the wrong group.
POINTS = np.array([[1.0, 0.05], [1.0, 0.0], [0.98, 0.1], [0.05, 1.0], [0.0, 1.0], [0.1, 0.97]])


def test_purity_is_one_when_every_nearest_neighbour_shares_the_label() -> None:
    assert nearest_neighbour_purity(POINTS, ["a", "a", "a", "b", "b", "b"]) == 1.0


def test_purity_counts_rows_whose_neighbour_has_another_label() -> None:
    labels = ["a", "a", "b", "b", "b", "b"]  # row 2 sits among the "a" rows, its neighbour is row 0
    assert list(nearest_neighbours(POINTS)) == [1, 0, 0, 4, 3, 3]
    assert nearest_neighbour_purity(POINTS, labels) == pytest.approx(5 / 6)


def test_nearest_neighbours_ignore_the_row_itself_and_break_ties_by_lowest_index() -> None:
    twins = np.array([[1.0, 0.0], [2.0, 0.0], [3.0, 0.0], [0.0, 1.0]])  # rows 0-2 point the same way
    assert list(nearest_neighbours(twins)) == [1, 0, 0, 0]


def test_block_by_block_equals_the_full_similarity_matrix(monkeypatch: pytest.MonkeyPatch) -> None:
    X = _sparse_corpus(n_rows=50)
    unit = X.toarray() / np.linalg.norm(X.toarray(), axis=1, keepdims=True)
    full = unit @ unit.T
    np.fill_diagonal(full, -np.inf)
    monkeypatch.setattr(sys.modules["lab.vectors.purity"], "_BLOCK_CELLS", 7 * 50)
    assert np.array_equal(nearest_neighbours(X), np.argmax(full, axis=1))
    assert np.array_equal(nearest_neighbours(X.toarray()), np.argmax(full, axis=1))


def test_purity_needs_one_label_per_row() -> None:
    with pytest.raises(ValueError, match="one label per row: 6 rows"):
        nearest_neighbour_purity(POINTS, ["a", "b"])
