"""BM25: scores equal to bm25s for the same idf variant, a named variant, many queries ranked at once."""

from __future__ import annotations

import math

import bm25s
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi

from lab.vectors import BM25, CJKBigramAnalyzer, NotFittedError, WordAnalyzer

DOCS = [
    "Ficha del rol de canela: contiene nuez, gluten y huevo. Todas las piezas llevan nuez.",
    "Política de cancelaciones: puede cancelar un pastel hasta 48 horas antes de la recogida.",
    "Preguntas frecuentes: ¿hasta cuándo puedo cancelar un pastel? Hasta 48 horas antes.",
    "Aviso del puente de mayo: el mostrador abre de 8:00 a 14:00 el viernes 1 de mayo.",
    "Pan de masa madre: harina de trigo, agua, sal y masa madre, sin nuez.",
    "Alérgenos: la nuez, la almendra y la avellana se trabajan en el mismo obrador.",
    "Bollería del día: croissant, napolitana y rol de canela recién hechos.",
]
QUERIES = ["¿El rol de canela lleva nuez?", "cancelar pastel 48 horas", "horario mayo", "nuez nuez almendra"]


def _bm25s_scores(texts: list[str], queries: list[str], idf: str, k1: float = 1.5, b: float = 0.75) -> np.ndarray:
    analyzer = WordAnalyzer()
    reference = bm25s.BM25(k1=k1, b=b, method="lucene", idf_method=idf, dtype="float64")
    reference.index([analyzer(text) for text in texts], show_progress=False)
    scores = []
    for query in queries:
        tokens = [token for token in analyzer(query) if token in reference.vocab_dict]
        scores.append(reference.get_scores(tokens) if tokens else np.zeros(len(texts)))
    return np.array(scores)


def _our_scores(texts: list[str], queries: list[str], idf: str, k1: float = 1.5, b: float = 0.75) -> np.ndarray:
    index = BM25(k1=k1, b=b, idf=idf).fit(texts)
    return np.array([index.score(query) for query in queries])


def test_lucene_scores_equal_bm25s_lucene_with_the_same_tokens() -> None:
    np.testing.assert_allclose(_our_scores(DOCS, QUERIES, "lucene"), _bm25s_scores(DOCS, QUERIES, "lucene"), atol=1e-6, rtol=0)


@pytest.mark.parametrize("idf", ["robertson", "atire"])
def test_other_idf_variants_equal_bm25s_with_that_idf(idf: str) -> None:
    # bm25s floors Robertson's idf at 0; these query terms are in fewer than half the documents
    queries = ["canela nuez", "cancelar pastel", "mayo mostrador"]
    np.testing.assert_allclose(_our_scores(DOCS, queries, idf), _bm25s_scores(DOCS, queries, idf), atol=1e-6, rtol=0)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    texts=st.lists(st.lists(st.sampled_from(["pan", "nuez", "canela", "mayo", "sal", "té", "y"]), max_size=12).map(" ".join), min_size=1, max_size=15),
    query=st.lists(st.sampled_from(["pan", "nuez", "canela", "mayo", "sal", "té", "croissant"]), min_size=1, max_size=4).map(" ".join),
    k1=st.sampled_from([0.0, 0.9, 1.2, 1.5, 2.0]),
    b=st.sampled_from([0.0, 0.4, 0.75, 1.0]),
)
def test_lucene_scores_equal_bm25s_on_random_corpora(texts: list[str], query: str, k1: float, b: float) -> None:
    if not any(WordAnalyzer()(text) for text in texts):
        with pytest.raises(ValueError, match="vocabulary is empty"):
            BM25(k1=k1, b=b).fit(texts)
        return
    ours = _our_scores(texts, [query], "lucene", k1, b)
    np.testing.assert_allclose(ours, _bm25s_scores(texts, [query], "lucene", k1, b), atol=1e-6, rtol=0)


def test_rank_bm25_okapi_is_robertson_idf_times_the_textbook_k1_plus_1_factor() -> None:
    analyzer, k1 = WordAnalyzer(), 1.5
    okapi = BM25Okapi([analyzer(text) for text in DOCS], k1=k1, b=0.75)
    ours = BM25(k1=k1, idf="robertson").fit(DOCS)
    query = "canela cancelar mayo"  # every term in fewer than half the documents: no floored idf
    np.testing.assert_allclose(okapi.get_scores(analyzer(query)), (k1 + 1) * ours.score(query), atol=1e-9)


def test_lucene_idf_is_the_documented_formula_and_never_negative() -> None:
    index = BM25().fit(DOCS)
    n = len(DOCS)
    df = sum("nuez" in WordAnalyzer()(doc) for doc in DOCS)
    assert index.idf_[index.vocabulary_["nuez"]] == pytest.approx(math.log(1 + (n - df + 0.5) / (df + 0.5)))
    assert (BM25().fit(["pan", "pan", "pan sal"]).idf_ > 0).all()


def test_robertson_idf_goes_negative_for_terms_in_most_documents() -> None:
    index = BM25(idf="robertson").fit(["pan sal", "pan", "pan", "té"])
    assert index.idf_[index.vocabulary_["pan"]] == pytest.approx(math.log(1.5 / 3.5))
    assert index.score("pan")[0] < 0


def test_a_score_is_idf_times_saturated_term_frequency_with_length_normalisation() -> None:
    texts = ["nuez nuez canela", "canela", "pan sal té"]
    index = BM25(k1=1.2, b=0.75).fit(texts)
    avgdl, n = 7 / 3, 3
    idf_nuez = math.log(1 + (n - 1 + 0.5) / (1 + 0.5))
    expected = idf_nuez * 2 / (2 + 1.2 * (1 - 0.75 + 0.75 * 3 / avgdl))
    assert index.score("nuez")[0] == pytest.approx(expected)
    assert index.avgdl_ == pytest.approx(avgdl) and list(index.doc_lengths_) == [3, 1, 3]
    assert isinstance(index.weights_, sp.csc_matrix) and index.weights_.shape == (3, len(index.vocabulary_))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    dense=st.integers(1, 12).flatmap(lambda n_terms: st.lists(
        st.lists(st.sampled_from([0, 0, 0, 1, 1, 2, 3, 7]), min_size=n_terms, max_size=n_terms), min_size=1, max_size=20)),
    k1=st.sampled_from([0.0, 0.9, 1.5, 2.0]),
    b=st.sampled_from([0.0, 0.75, 1.0]),
    idf=st.sampled_from(["lucene", "robertson", "atire"]),
)
def test_every_stored_weight_is_the_formula_to_the_last_bit(dense: list[list[int]], k1: float, b: float, idf: str) -> None:
    counts = sp.csr_matrix(np.array(dense, dtype=np.int32))
    index = BM25(k1=k1, b=b, idf=idf).fit_counts(counts, [f"t{column:02d}" for column in range(counts.shape[1])])
    rows = np.repeat(np.arange(counts.shape[0]), np.diff(counts.indptr))
    tf = counts.data.astype(np.float64)
    length_norm = k1 * (1 - b + b * index.doc_lengths_ / (index.avgdl_ if index.avgdl_ > 0 else 1.0))
    expected = index.idf_[counts.indices] * (tf / (tf + length_norm[rows]))
    by_document = index.weights_.tocsr()
    assert by_document.indptr.tolist() == counts.indptr.tolist() and by_document.indices.tolist() == counts.indices.tolist()
    assert by_document.data.tobytes() == expected.tobytes()
    assert index.weights_.has_sorted_indices


@pytest.mark.parametrize("idf", ["lucene", "robertson", "atire"])
def test_a_column_no_document_uses_gets_a_finite_idf_and_scores_nothing(idf: str) -> None:
    import warnings

    counts = sp.csr_matrix(np.array([[1, 0, 2], [0, 0, 1]], dtype=np.int32))  # "t1" is in no document
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no division by zero on the way
        index = BM25(idf=idf).fit_counts(counts, ["t0", "t1", "t2"])
    assert np.isfinite(index.idf_).all()
    assert not index.score("t1").any() and index.top_k("t1") == []


def test_a_repeated_query_term_counts_once_per_repetition() -> None:
    index = BM25().fit(DOCS)
    np.testing.assert_allclose(index.score("nuez nuez"), 2 * index.score("nuez"))


def test_top_k_ranks_only_documents_with_a_query_term_best_first_ties_by_row() -> None:
    index = BM25().fit(["pan", "sal", "pan", "pan pan", "té"])
    assert [row for row, _ in index.top_k("pan", k=10)] == [3, 0, 2]
    assert index.top_k("pan", k=1) == [(3, pytest.approx(index.score("pan")[3]))]
    assert index.top_k("croissant") == [] and not index.score("croissant").any()


def test_many_queries_get_the_top_k_of_each_alone_with_exactly_the_scores_of_score() -> None:
    index = BM25().fit(DOCS)
    queries = [*QUERIES, "brioche baguette", ""]
    many = index.top_k_many(queries, k=3)
    assert many == [index.top_k(query, k=3) for query in queries]
    for query, found in zip(queries, many):
        scores = index.score(query)
        assert all(score == scores[row] for row, score in found)  # the same sums, added in the same order
    assert many[-2:] == [[], []]


def test_top_k_many_leaves_masked_and_weak_documents_out() -> None:
    index = BM25().fit(DOCS)
    best = index.top_k("nuez", k=10)
    mask = np.ones(len(DOCS), dtype=bool)
    mask[best[0][0]] = False
    assert index.top_k_many(["nuez"], k=10, mask=mask) == [best[1:]]
    assert index.top_k_many(["nuez"], k=10, min_score=best[1][1]) == [best[:2]]
    with pytest.raises(TypeError, match="single str"):
        index.top_k_many("nuez")


def test_top_k_finds_the_answer_in_the_bakery_corpus() -> None:
    index = BM25().fit(DOCS)
    assert index.top_k("¿Hasta cuándo puedo cancelar un pastel?", k=2)[0][0] in (1, 2)
    assert index.top_k("¿El rol de canela lleva nuez?", k=1)[0][0] == 0


def test_chinese_needs_bigrams_a_word_analyzer_finds_nothing() -> None:
    handbook = [
        "计费与退款：企业版退款需要主管审批，三个工作日内处理。",
        "账号与登录：忘记密码时，在登录页点击重置密码。",
        "发票：每月一日开具上月发票，可在后台下载。",
    ]
    with_bigrams = BM25(analyzer=CJKBigramAnalyzer()).fit(handbook)
    assert with_bigrams.top_k("怎么退款？", k=1)[0][0] == 0
    assert with_bigrams.top_k("密码忘了", k=1)[0][0] == 1
    by_words = BM25(analyzer=WordAnalyzer(stop_words=None)).fit(handbook)
    assert by_words.top_k("怎么退款？") == []


def test_query_terms_are_the_known_columns_with_repeats() -> None:
    index = BM25().fit(DOCS)
    assert index.query_terms("nuez brioche nuez") == [index.vocabulary_["nuez"]] * 2


def test_bad_parameters_and_unfitted_use_are_clear_errors() -> None:
    with pytest.raises(ValueError, match=r"unknown idf variant 'okapi'; use one of \['atire', 'lucene', 'robertson'\]"):
        BM25(idf="okapi").fit(DOCS)
    with pytest.raises(ValueError, match="k1 must be a finite number >= 0"):
        BM25(k1=-1).fit(DOCS)
    with pytest.raises(ValueError, match="k1 must be a finite number >= 0"):
        BM25(k1=float("inf")).fit(DOCS)
    with pytest.raises(ValueError, match="b must be a number between 0 and 1"):
        BM25(b=1.5).fit(DOCS)
    with pytest.raises(ValueError, match="at least one text"):
        BM25().fit([])
    with pytest.raises(ValueError, match="vocabulary is empty"):
        BM25().fit(["y de la", ""])
    with pytest.raises(TypeError, match="single str"):
        BM25().fit("pan")
    with pytest.raises(NotFittedError):
        BM25().score("pan")
    assert repr(BM25(idf="atire")) == "BM25(idf='atire')"
