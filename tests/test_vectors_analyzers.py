"""Analyzers: what a text becomes before anything is counted."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_extraction.text import CountVectorizer

from lab.vectors import (
    ENGLISH_STOP_WORDS,
    SPANISH_STOP_WORDS,
    CJKBigramAnalyzer,
    WordAnalyzer,
)


def test_words_are_lowercased_unicode_word_runs_split_by_punctuation() -> None:
    analyzer = WordAnalyzer(stop_words=None)
    assert analyzer("¿El ROL de canela lleva nuez?") == ["el", "rol", "de", "canela", "lleva", "nuez"]
    assert analyzer("Crème brûlée, pan_de_muerto; año") == ["crème", "brûlée", "pan_de_muerto", "año"]


def test_lowercase_false_keeps_the_case() -> None:
    assert WordAnalyzer(lowercase=False, stop_words=None)("Pan Sin Gluten") == ["Pan", "Sin", "Gluten"]


def test_spanish_stop_words_drop_function_words_including_one_letter_ones() -> None:
    assert WordAnalyzer()("pan y miel o té a diario") == ["pan", "miel", "té", "diario"]
    assert {"y", "a", "o", "e", "u"} <= SPANISH_STOP_WORDS


def test_negations_are_not_stop_words_because_they_carry_the_question() -> None:
    assert WordAnalyzer()("¿Hay pan sin gluten? No, ni hoy") == ["hay", "pan", "sin", "gluten", "no", "ni", "hoy"]
    assert WordAnalyzer(stop_words="en")("bread without nuts, not today") == ["bread", "without", "nuts", "not", "today"]


def test_all_digit_tokens_are_dropped_by_default_so_the_date_loses_its_day() -> None:
    question = "¿Abren el 1 de mayo?"
    assert WordAnalyzer()(question) == ["abren", "mayo"]
    assert WordAnalyzer(keep_digits=True)(question) == ["abren", "1", "mayo"]
    # only tokens made entirely of digits go: "15:00" is two digit tokens, "2x" is a word
    assert WordAnalyzer()("de 8:00 a 15:00, pack 2x") == ["pack", "2x"]


def test_stop_word_lists_can_be_chosen_combined_replaced_or_switched_off() -> None:
    text = "the bread and el pan"
    assert WordAnalyzer(stop_words="en")(text) == ["bread", "el", "pan"]
    assert WordAnalyzer(stop_words="es")(text) == ["the", "bread", "and", "pan"]
    assert WordAnalyzer(stop_words="es+en")(text) == ["bread", "pan"]
    assert WordAnalyzer(stop_words=None)(text) == ["the", "bread", "and", "el", "pan"]
    assert WordAnalyzer(stop_words=frozenset({"bread"}))(text) == ["the", "and", "el", "pan"]
    assert "the" in ENGLISH_STOP_WORDS and "not" not in ENGLISH_STOP_WORDS


def test_min_length_drops_short_terms() -> None:
    assert WordAnalyzer(stop_words=None, min_length=3)("el pan de maíz") == ["pan", "maíz"]


def test_an_unknown_stop_word_list_names_the_valid_choices() -> None:
    with pytest.raises(ValueError, match=r"unknown stop-word list 'fr'.*'es', 'en', 'es\+en'"):
        WordAnalyzer(stop_words="fr")
    with pytest.raises(TypeError, match="frozenset"):
        WordAnalyzer(stop_words=["el"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="min_length"):
        WordAnalyzer(min_length=0)


def test_an_analyzer_takes_one_text_not_a_list() -> None:
    with pytest.raises(TypeError, match="one text"):
        WordAnalyzer()(["pan"])  # type: ignore[arg-type]


def test_analyzers_are_immutable_values_with_a_readable_repr() -> None:
    assert WordAnalyzer() == WordAnalyzer() and hash(WordAnalyzer()) == hash(WordAnalyzer())
    assert repr(WordAnalyzer()) == "WordAnalyzer(lowercase=True, stop_words='es', keep_digits=False, min_length=1)"
    with pytest.raises(AttributeError):
        WordAnalyzer().lowercase = False  # type: ignore[misc]


def test_scikit_learn_default_token_pattern_silently_drops_one_letter_words() -> None:
    text = "pan y miel o té a diario"
    sklearn_terms = CountVectorizer().build_analyzer()(text)
    assert sklearn_terms == ["pan", "miel", "té", "diario"]
    assert WordAnalyzer(stop_words=None)(text) == ["pan", "y", "miel", "o", "té", "a", "diario"]
    one_letter_pattern = CountVectorizer(token_pattern=r"(?u)\b\w+\b").build_analyzer()(text)
    assert one_letter_pattern == WordAnalyzer(stop_words=None, keep_digits=True)(text)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.text())
def test_word_split_is_exactly_python_regex_word_runs_of_the_lowercased_text(text: str) -> None:
    assert WordAnalyzer().split(text) == re.findall(r"\w+", text.lower())


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(list("ab1 ,.¿?yoé退款流程的。") + ["el", "12", "Pan"])).map("".join))
def test_calling_an_analyzer_equals_split_then_keep(text: str) -> None:
    for analyzer in (WordAnalyzer(), WordAnalyzer(keep_digits=True, min_length=2), CJKBigramAnalyzer()):
        assert analyzer(text) == [term for term in analyzer.split(text) if analyzer.keep(term)]


def test_chinese_runs_become_overlapping_character_bigrams() -> None:
    assert CJKBigramAnalyzer()("退款流程") == ["退款", "款流", "流程"]


def test_a_lone_chinese_character_stays_a_unigram() -> None:
    assert CJKBigramAnalyzer()("的") == ["的"]
    assert CJKBigramAnalyzer()("Notion的API") == ["notion", "的", "api"]


def test_chinese_punctuation_separates_runs() -> None:
    assert CJKBigramAnalyzer()("退款。流程？审批！客服，计费、发票") == [
        "退款", "流程", "审批", "客服", "计费", "发票",
    ]


def test_non_chinese_runs_follow_the_word_rules() -> None:
    assert CJKBigramAnalyzer()("企业版 Refund 2025年") == ["企业", "业版", "refund", "年"]
    assert CJKBigramAnalyzer(stop_words="en", keep_digits=True)("the API 的 v2 2025") == ["api", "的", "v2", "2025"]


def test_a_whitespace_tokenizer_finds_no_chinese_words_but_bigrams_do() -> None:
    question, passage = "怎么退款", "企业版退款需要审批"
    assert set(question.split()) & set(passage.split()) == set()
    analyzer = CJKBigramAnalyzer()
    assert set(analyzer(question)) & set(analyzer(passage)) == {"退款"}
