"""The lab token counter: a word or a punctuation sign is one token."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lab.chunking import TOKEN_PATTERN, count_tokens, token_spans
from lab.chunking.tokens import TokenIndex


def test_a_word_or_a_punctuation_sign_is_one_token() -> None:
    assert count_tokens("¿Abren el 1 de mayo?") == 7
    assert count_tokens("Rol de canela: gluten, leche, huevo, nuez.") == 7 + 5
    assert count_tokens("") == 0 and count_tokens(" \n\t") == 0


def test_a_run_of_chinese_characters_counts_as_one_token() -> None:
    # The approximation knows no word boundaries inside CJK text; a later lesson tokenises CJK properly.
    assert count_tokens("退款审批流。") == 2


def test_token_spans_slice_out_exactly_the_tokens() -> None:
    text = "  def f(x):\n      return x+1"
    assert [text[s:e] for s, e in token_spans(text)] == TOKEN_PATTERN.findall(text)


@given(st.text(max_size=300))
def test_every_non_space_character_belongs_to_exactly_one_token(text: str) -> None:
    covered = [0] * len(text)
    for start, end in token_spans(text):
        for k in range(start, end):
            covered[k] += 1
    assert all(covered[k] == (0 if ch.isspace() else 1) for k, ch in enumerate(text))


@given(st.text(max_size=300))
def test_the_fast_count_equals_the_pattern_count(text: str) -> None:
    assert count_tokens(text) == len(TOKEN_PATTERN.findall(text))


@given(st.text(max_size=300), st.data())
def test_the_token_index_finds_the_same_tokens_and_counts_any_slice(text: str, data) -> None:
    index = TokenIndex(text)
    spans = token_spans(text)
    assert index.starts.tolist() == [s for s, _ in spans] and index.ends.tolist() == [e for _, e in spans]
    start = data.draw(st.integers(0, len(text) + 2))
    end = data.draw(st.integers(0, len(text) + 2))
    assert index.count(start, end) == count_tokens(text[start:end])
