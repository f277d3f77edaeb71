"""LSA: truncated SVD of a TF-IDF matrix, unit float32 rows, the same subspace as scikit-learn."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.decomposition import TruncatedSVD

from bench.measure import peak_bytes

from lab.vectors import LsaVectorizer, NotFittedError, TfidfVectorizer, cosine_scores, top_k_rows

TEXTS = [
    "rol de canela con nuez y azúcar",
    "canela y nuez en el rol dulce",
    "pan de masa madre con harina de trigo",
    "masa madre, harina y agua para el pan",
    "cancelar un pastel hasta 48 horas antes",
    "plazo para cancelar pedidos y pasteles",
    "horario del puente de mayo",
    "el mostrador abre en mayo de 8 a 14",
    "alérgenos: nuez, almendra y gluten",
    "gluten y harina en el pan de trigo",
]


def _tfidf() -> sp.csr_matrix:
    return TfidfVectorizer().fit_transform(TEXTS)


def test_rows_are_unit_length_float32_of_the_requested_width() -> None:
    reduced = LsaVectorizer(n_components=4).fit_transform(_tfidf())
    assert reduced.shape == (len(TEXTS), 4) and reduced.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(reduced, axis=1), 1.0, rtol=1e-6)


def test_spans_the_same_subspace_as_scikit_learn_truncated_svd_arpack() -> None:
    X = _tfidf()
    ours = LsaVectorizer(n_components=4).fit(X)
    theirs = TruncatedSVD(n_components=4, algorithm="arpack", random_state=0).fit(X)
    np.testing.assert_allclose(ours.singular_values_, theirs.singular_values_, rtol=1e-8)
    cosines = np.abs(np.sum(ours.components_ * theirs.components_, axis=1))
    np.testing.assert_allclose(cosines, 1.0, atol=1e-8)
    # same directions, so the same normalised rows up to each component's sign
    signs = np.sign(np.sum(ours.components_ * theirs.components_, axis=1))
    theirs_rows = theirs.transform(X) * signs
    theirs_rows /= np.linalg.norm(theirs_rows, axis=1, keepdims=True)
    np.testing.assert_allclose(ours.transform(X), theirs_rows, atol=1e-6)


def test_is_not_centred_unlike_the_map() -> None:
    X = _tfidf()
    top = np.linalg.svd(X.toarray(), compute_uv=False)[:3]
    np.testing.assert_allclose(LsaVectorizer(n_components=3).fit(X).singular_values_, top, rtol=1e-9)


def test_signs_are_deterministic_largest_loading_positive() -> None:
    X = _tfidf()
    first, second = LsaVectorizer(n_components=3).fit(X), LsaVectorizer(n_components=3).fit(X)
    assert np.array_equal(first.components_, second.components_)
    for component in first.components_:
        assert component[np.argmax(np.abs(component))] > 0


def test_n_components_is_clamped_to_what_the_corpus_allows() -> None:
    X = _tfidf()
    lsa = LsaVectorizer(n_components=128).fit(X)
    assert lsa.n_components == 128 and lsa.n_components_ == min(X.shape) - 1 == len(TEXTS) - 1
    assert lsa.transform(X).shape == (len(TEXTS), len(TEXTS) - 1)


def test_cosine_search_works_on_lsa_vectors_and_queries_without_known_words_are_zero() -> None:
    vectorizer = TfidfVectorizer()
    X = vectorizer.fit_transform(TEXTS)
    lsa = LsaVectorizer(n_components=5).fit(X)
    reduced = lsa.transform(X)
    query = lsa.transform(vectorizer.transform(["¿Cuándo puedo cancelar un pastel?"]))
    assert top_k_rows(cosine_scores(reduced, query[0]), 1)[0][0] in (4, 5)
    assert not lsa.transform(vectorizer.transform(["croissant"])).any()


def test_using_it_wrongly_raises_errors_that_say_what_to_do() -> None:
    with pytest.raises(NotFittedError):
        LsaVectorizer().transform(_tfidf())
    with pytest.raises(ValueError, match="n_components must be a positive integer"):
        LsaVectorizer(n_components=0).fit(_tfidf())
    with pytest.raises(ValueError, match="at least a 2 x 2 matrix"):
        LsaVectorizer().fit(sp.csr_matrix(np.ones((1, 5))))
    with pytest.raises(ValueError, match="fitted on"):
        LsaVectorizer(n_components=2).fit(_tfidf()).transform(np.ones((1, 3)))
    assert repr(LsaVectorizer(n_components=8)) == "LsaVectorizer(n_components=8)"


def test_projecting_one_query_does_not_copy_the_components_so_its_cost_does_not_grow_with_the_vocabulary() -> None:
    corpus = sp.random(300, 60_000, density=0.002, format="csr", random_state=np.random.default_rng(0))
    lsa = LsaVectorizer(n_components=16).fit(corpus)
    query = corpus[:1]
    peak = peak_bytes(lambda: lsa.transform(query))
    assert peak < lsa.components_.nbytes / 20, (
        f"one query allocated {peak / 1e6:.1f} MB beside components of {lsa.components_.nbytes / 1e6:.1f} MB")
