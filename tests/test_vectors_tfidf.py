"""TF-IDF: the lab's vectoriser equals scikit-learn's and stays sparse."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_extraction.text import TfidfVectorizer as SklearnTfidf

from lab.vectors import SPANISH_STOP_WORDS, NotFittedError, TfidfVectorizer, WordAnalyzer, normalize_rows

BAKERY = [
    "Ficha: Rol de canela > Alérgenos. Contiene gluten, huevo, leche y nuez. Todas las piezas llevan nuez.",
    "Política de cancelaciones > Plazos. Puede cancelar un pastel hasta 48 horas antes de la recogida.",
    "Preguntas frecuentes > ¿Hasta cuándo puedo cancelar un pastel? Hasta 48 horas antes, sin coste.",
    "Aviso: puente del 1 de mayo > Horario. El viernes 1 de mayo el mostrador abre de 8:00 a 14:00.",
    "Ficha: Pan de masa madre > Ingredientes. Harina de trigo, agua, sal y masa madre. Sin nuez.",
    "Alérgenos: frutos secos. Nuez, almendra y avellana se trabajan en el mismo obrador.",
    "el de la y a",  # only stop words: an all-zero row
    "",
]


def _sklearn(analyzer: WordAnalyzer, **params: object) -> SklearnTfidf:
    return SklearnTfidf(analyzer=analyzer, **{"sublinear_tf": True, "smooth_idf": True, "norm": "l2", **params})


def _assert_same_as_sklearn(ours: TfidfVectorizer, theirs: SklearnTfidf, texts: list[str]) -> None:
    X = ours.fit_transform(texts)
    Y = theirs.fit_transform(texts)
    assert list(ours.vocabulary_) == sorted(theirs.vocabulary_)
    assert ours.vocabulary_ == theirs.vocabulary_
    np.testing.assert_allclose(ours.idf_, theirs.idf_, rtol=0, atol=1e-12)
    assert X.shape == Y.shape
    assert abs(X - Y).max() < 1e-6
    queries = ["¿El rol de canela lleva nuez?", "cancelar pastel", "nada conocido"]
    assert abs(ours.transform(queries) - theirs.transform(queries)).max() < 1e-6


def test_equals_scikit_learn_with_the_same_analyzer_on_a_spanish_corpus() -> None:
    analyzer = WordAnalyzer()
    _assert_same_as_sklearn(TfidfVectorizer(analyzer=analyzer), _sklearn(analyzer), BAKERY)


WORDS = ["pan", "nuez", "canela", "Mayo", "mayo", "1", "48", "y", "a", "el", "año", "crème", "x", "pan_2", "té"]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    texts=st.lists(st.lists(st.sampled_from(WORDS + [",", "¿", "?", "  "]), max_size=30).map(" ".join), min_size=1, max_size=12),
    sublinear_tf=st.booleans(),
    smooth_idf=st.booleans(),
    norm=st.sampled_from(["l2", "l1", None]),
    keep_digits=st.booleans(),
)
def test_equals_scikit_learn_on_random_corpora_for_every_setting(
    texts: list[str], sublinear_tf: bool, smooth_idf: bool, norm: str | None, keep_digits: bool
) -> None:
    analyzer = WordAnalyzer(keep_digits=keep_digits)
    if not any(analyzer(text) for text in texts):
        with pytest.raises(ValueError, match="vocabulary is empty"):
            TfidfVectorizer(analyzer=analyzer).fit(texts)
        return
    params = {"sublinear_tf": sublinear_tf, "smooth_idf": smooth_idf, "norm": norm}
    _assert_same_as_sklearn(TfidfVectorizer(analyzer=analyzer, **params), _sklearn(analyzer, **params), texts)


def test_equals_scikit_learn_across_many_batches_of_texts() -> None:
    rng = np.random.default_rng(7)
    vocabulary = np.array([f"w{i}" for i in range(300)] + ["y", "de", "12"])
    weights = 1 / np.arange(1, vocabulary.size + 1)
    texts = [" ".join(rng.choice(vocabulary, size=rng.integers(0, 40), p=weights / weights.sum())) for _ in range(5000)]
    analyzer = WordAnalyzer()
    _assert_same_as_sklearn(TfidfVectorizer(analyzer=analyzer), _sklearn(analyzer), texts)


def test_scikit_learn_token_pattern_matches_only_when_it_keeps_one_letter_words() -> None:
    ours = TfidfVectorizer(analyzer=WordAnalyzer(stop_words=None, keep_digits=True)).fit(BAKERY)
    default_pattern = SklearnTfidf(sublinear_tf=True).fit(BAKERY)
    one_letter_pattern = SklearnTfidf(sublinear_tf=True, token_pattern=r"(?u)\b\w+\b").fit(BAKERY)
    assert {"y", "a", "1"} <= ours.vocabulary_.keys()
    assert not {"y", "a", "1"} & default_pattern.vocabulary_.keys()
    assert ours.vocabulary_ == one_letter_pattern.vocabulary_
    assert abs(ours.transform(BAKERY) - one_letter_pattern.transform(BAKERY)).max() < 1e-12


def test_weights_follow_sublinear_tf_times_smoothed_idf_then_unit_length() -> None:
    texts = ["nuez nuez canela", "canela", "pan"]
    X = TfidfVectorizer(analyzer=WordAnalyzer(stop_words=None)).fit_transform(texts)
    idf_canela = math.log((1 + 3) / (1 + 2)) + 1
    idf_nuez = math.log((1 + 3) / (1 + 1)) + 1
    w_nuez, w_canela = (1 + math.log(2)) * idf_nuez, 1 * idf_canela
    norm = math.hypot(w_nuez, w_canela)
    columns = {"canela": 0, "nuez": 1, "pan": 2}
    np.testing.assert_allclose(X.toarray()[0], [w_canela / norm, w_nuez / norm, 0.0], atol=1e-15)
    assert X[1, columns["canela"]] == pytest.approx(1.0) and X[2, columns["pan"]] == pytest.approx(1.0)


def test_output_is_csr_with_one_stored_value_per_distinct_text_term_pair() -> None:
    analyzer = WordAnalyzer()
    X = TfidfVectorizer(analyzer=analyzer).fit_transform(BAKERY)
    assert isinstance(X, sp.csr_matrix) and X.has_sorted_indices
    assert X.nnz == sum(len(set(analyzer(text))) for text in BAKERY)
    assert X.data.nbytes + X.indices.nbytes + X.indptr.nbytes < X.shape[0] * X.shape[1] * 8


def test_rows_have_unit_length_and_a_text_of_stop_words_stays_a_zero_row() -> None:
    X = TfidfVectorizer().fit_transform(BAKERY)
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    np.testing.assert_allclose(norms, [1, 1, 1, 1, 1, 1, 0, 0], atol=1e-12)


def test_columns_are_in_sorted_term_order_and_named_by_get_feature_names_out() -> None:
    vectorizer = TfidfVectorizer().fit(BAKERY)
    names = vectorizer.get_feature_names_out()
    assert list(names) == sorted(names) and names.dtype == object
    assert [vectorizer.vocabulary_[name] for name in names] == list(range(len(names)))


def test_unknown_terms_of_a_query_are_reported_not_silently_lost() -> None:
    vectorizer = TfidfVectorizer().fit(BAKERY)
    assert vectorizer.unknown_terms("¿Abren el 1 de mayo? ¿Y el croissant? croissant") == ["abren", "croissant"]
    assert vectorizer.unknown_terms("canela con nuez") == []


def test_transform_leaves_out_terms_unseen_in_fit() -> None:
    vectorizer = TfidfVectorizer().fit(BAKERY)
    assert vectorizer.transform(["croissant brioche"]).nnz == 0
    known = vectorizer.transform(["nuez croissant"])
    assert known.nnz == 1 and known[0, vectorizer.vocabulary_["nuez"]] == pytest.approx(1.0)


def test_fit_then_transform_equals_fit_transform() -> None:
    a = TfidfVectorizer().fit(BAKERY).transform(BAKERY)
    b = TfidfVectorizer().fit_transform(BAKERY)
    assert abs(a - b).max() == 0


def test_any_callable_analyzer_gives_the_same_matrix_as_the_analyzer_object() -> None:
    analyzer = WordAnalyzer()
    by_object = TfidfVectorizer(analyzer=analyzer).fit_transform(BAKERY)
    by_function = TfidfVectorizer(analyzer=lambda text: analyzer(text)).fit_transform(BAKERY)
    assert abs(by_object - by_function).max() == 0


def test_dtype_sets_the_output_precision() -> None:
    X = TfidfVectorizer(dtype=np.float32).fit_transform(BAKERY)
    assert X.dtype == np.float32


def test_using_it_before_fit_raises_not_fitted_error() -> None:
    vectorizer = TfidfVectorizer()
    for call in (lambda: vectorizer.transform(["pan"]), lambda: vectorizer.unknown_terms("pan"), vectorizer.get_feature_names_out):
        with pytest.raises(NotFittedError, match="not fitted yet: call fit"):
            call()
    assert issubclass(NotFittedError, ValueError) and issubclass(NotFittedError, AttributeError)


def test_bad_input_is_rejected_with_a_message_saying_what_would_be_right() -> None:
    with pytest.raises(TypeError, match=r"single str; wrap it in a list"):
        TfidfVectorizer().fit("pan con nuez")
    with pytest.raises(TypeError, match="every text must be a str"):
        TfidfVectorizer().fit(["pan", None])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="at least one text"):
        TfidfVectorizer().fit([])
    with pytest.raises(ValueError, match="vocabulary is empty"):
        TfidfVectorizer().fit(["el de la", "1 2 3"])
    with pytest.raises(ValueError, match="norm must be one of"):
        TfidfVectorizer(norm="l3").fit(BAKERY)


def test_parameters_are_stored_unchanged_and_shown_when_not_default() -> None:
    analyzer = WordAnalyzer(stop_words=SPANISH_STOP_WORDS)
    vectorizer = TfidfVectorizer(analyzer=analyzer, norm=None)
    assert vectorizer.get_params() == {
        "analyzer": analyzer, "sublinear_tf": True, "smooth_idf": True, "norm": None, "dtype": np.float64,
    }
    assert repr(TfidfVectorizer()) == "TfidfVectorizer()"
    assert repr(TfidfVectorizer(norm=None, sublinear_tf=False)) == "TfidfVectorizer(sublinear_tf=False, norm=None)"


def test_normalize_rows_scales_each_stored_row_and_skips_empty_ones() -> None:
    matrix = sp.csr_matrix(np.array([[3.0, 4.0, 0.0], [0.0, 0.0, 0.0], [0.0, -2.0, 0.0], [0.0, 0.0, 0.0]]))
    np.testing.assert_allclose(normalize_rows(matrix.copy()).toarray(), [[0.6, 0.8, 0], [0, 0, 0], [0, -1, 0], [0, 0, 0]])
    np.testing.assert_allclose(normalize_rows(matrix.copy(), "l1").toarray(), [[3 / 7, 4 / 7, 0], [0, 0, 0], [0, -1, 0], [0, 0, 0]])
