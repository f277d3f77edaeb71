"""Spanish-aware analyzers: stems and character n-grams make word forms and typos meet."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lab.vectors import BM25, CharNgramAnalyzer, SpanishAnalyzer, TfidfVectorizer, WordAnalyzer, fold_accents


def test_folding_removes_accents_and_diaereses_but_keeps_the_enye() -> None:
    assert fold_accents("Celíaco, pingüino, AÑO, qué") == "Celiaco, pinguino, AÑO, que"


def test_singular_and_plural_share_a_stem() -> None:
    analyzer = SpanishAnalyzer()
    assert analyzer("polvorones") == analyzer("polvorón") == ["polvoron"]
    assert analyzer("veganas") == analyzer("vegano")


def test_stop_words_are_dropped_with_or_without_their_accent() -> None:
    analyzer = SpanishAnalyzer(stop_words=frozenset({"qué", "el"}))
    assert analyzer("¿Qué lleva el pan?") == analyzer("que lleva él pan") == ["llev", "pan"]


def test_digits_are_dropped_unless_kept_like_the_word_analyzer() -> None:
    assert SpanishAnalyzer()("el 1 de mayo") == ["may"]
    assert SpanishAnalyzer(keep_digits=True)("el 1 de mayo") == ["1", "may"]


def test_an_unknown_snowball_language_is_named_in_the_error() -> None:
    with pytest.raises(ValueError, match="no Snowball stemmer for 'klingon'"):
        SpanishAnalyzer(language="klingon")


def test_ngrams_are_marked_at_word_ends_and_short_words_stay_whole() -> None:
    assert CharNgramAnalyzer()("perrito y pan") == [" per", "perr", "erri", "rrit", "rito", "ito ", " pan", "pan "]
    assert CharNgramAnalyzer(stop_words=None)("y") == [" y "]


def test_a_typo_keeps_most_ngrams_where_a_word_keeps_none() -> None:
    right, typo = set(CharNgramAnalyzer()("canela")), set(CharNgramAnalyzer()("canella"))
    assert len(right & typo) >= len(right) // 2
    assert not set(WordAnalyzer()("canela")) & set(WordAnalyzer()("canella"))


def test_word_forms_a_stemmer_keeps_apart_still_share_ngrams() -> None:
    stems = SpanishAnalyzer()
    assert stems("celíaco") != stems("celiaquía")
    assert {" cel", "celi", "elia"} <= set(CharNgramAnalyzer()("celíaco")) & set(CharNgramAnalyzer()("celiaquía"))


def test_n_below_two_is_refused() -> None:
    with pytest.raises(ValueError, match="n must be an integer of at least 2"):
        CharNgramAnalyzer(n=1)


def test_analyzers_are_small_values_that_copy_and_compare() -> None:
    analyzer = SpanishAnalyzer()
    assert copy.deepcopy(analyzer) == analyzer and analyzer != SpanishAnalyzer(stop_words=None)


@pytest.mark.parametrize("analyzer", [SpanishAnalyzer(), CharNgramAnalyzer()], ids=["stems", "ngrams"])
def test_the_vectorisers_take_them_as_their_analyzer(analyzer) -> None:
    texts = ["Los polvorones llevan cacahuate.", "El perrito espera en la terraza."]
    bm25 = BM25(analyzer=analyzer).fit(texts)
    assert bm25.top_k("¿El polvorón tiene cacahuate?", k=1)[0][0] == 0
    assert TfidfVectorizer(analyzer=analyzer).fit_transform(texts).shape[0] == 2


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.text(alphabet="abcñáéíóúü ¿?,.0123456789ABC", max_size=60))
def test_ngram_terms_are_n_long_and_come_from_folded_lowercase_text(text: str) -> None:
    for term in CharNgramAnalyzer()(text):
        assert len(term) <= 4 and term == fold_accents(term).lower()
        assert term.strip() in fold_accents(text.lower())
