"""Word runs with numpy: exactly the regular expression's words, and safe against hash collisions."""

from __future__ import annotations

import re
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_extraction.text import TfidfVectorizer as SklearnTfidf

from lab.vectors import TfidfVectorizer, WordAnalyzer

word_runs_module = sys.modules["lab.vectors.word_runs"]
counting = sys.modules["lab.vectors.counting"]
WordCollision, WordIds, word_runs = word_runs_module.WordCollision, word_runs_module.WordIds, word_runs_module.word_runs

# Letters, digits, marks, punctuation, astral characters and casing traps (İ lowercases to two
# code points, final sigma depends on what follows).
TRICKY = st.lists(
    st.sampled_from(list("aZ_1 \n.,¿?éÉİΣσς\u0301\u00b2٣") + ["𝔘", "😀", "退款", "ΟΔΟΣ", "  "]), max_size=25
).map("".join)


def _regex_words(text: str, lowercase: bool) -> list[str]:
    return re.findall(r"\w+", text.lower() if lowercase else text)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(texts=st.lists(st.one_of(st.text(), TRICKY), max_size=8), lowercase=st.booleans())
def test_word_runs_are_exactly_the_regex_words_of_each_text(texts: list[str], lowercase: bool) -> None:
    runs = word_runs(texts, lowercase)
    assert [runs.words[code] for code in runs.codes] == [w for t in texts for w in _regex_words(t, lowercase)]
    assert list(runs.lengths) == [len(_regex_words(text, lowercase)) for text in texts]
    assert len(set(runs.words)) == len(runs.words)


def test_lone_surrogates_and_empty_texts_are_handled_like_the_regex() -> None:
    texts = ["", "a\ud800b", "", "𝔘𝔫𝔦 ok"]
    runs = word_runs(texts, lowercase=False)
    assert [runs.words[code] for code in runs.codes] == ["a", "b", "𝔘𝔫𝔦", "ok"]
    assert list(runs.lengths) == [0, 2, 0, 2]


@settings(max_examples=80, deadline=None, derandomize=True)
@given(batches=st.lists(st.lists(TRICKY, max_size=5), min_size=1, max_size=4))
def test_word_ids_number_words_in_order_of_first_appearance_across_batches(batches: list[list[str]]) -> None:
    ids = WordIds(lowercase=True)
    seen: dict[str, int] = {}
    for batch in batches:
        occurrence_ids, lengths = ids.add(batch)
        words = [w for text in batch for w in _regex_words(text, True)]
        for word in words:
            seen.setdefault(word, len(seen))
        assert list(occurrence_ids) == [seen[word] for word in words]
        assert list(lengths) == [len(_regex_words(text, True)) for text in batch]
    assert ids.words == list(seen)


def _colliding(monkeypatch: pytest.MonkeyPatch) -> None:
    # every word of the same length gets the same hash
    monkeypatch.setattr(word_runs_module, "_powers_up_to", lambda n: np.zeros(n, dtype=np.uint64))


def test_a_hash_collision_inside_a_batch_is_detected(monkeypatch: pytest.MonkeyPatch) -> None:
    _colliding(monkeypatch)
    with pytest.raises(WordCollision):
        word_runs(["pan sal pan"], lowercase=True)
    with pytest.raises(WordCollision):
        WordIds(lowercase=True).add(["pan sal"])


def test_a_hash_collision_across_batches_is_detected(monkeypatch: pytest.MonkeyPatch) -> None:
    _colliding(monkeypatch)
    ids = WordIds(lowercase=True)
    ids.add(["pan"])
    with pytest.raises(WordCollision):
        ids.add(["sal"])


def test_tfidf_stays_exact_when_hashes_collide_by_falling_back_to_the_regex(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = ["pan de sal", "sal y té", "pan pan té", "miel 48"]
    expected = SklearnTfidf(analyzer=WordAnalyzer(), sublinear_tf=True).fit(texts)
    _colliding(monkeypatch)
    monkeypatch.setattr(counting, "_BATCH", 1)  # collisions across batches too
    vectorizer = TfidfVectorizer()
    X = vectorizer.fit_transform(texts)
    assert vectorizer.vocabulary_ == expected.vocabulary_
    assert abs(X - expected.transform(texts)).max() < 1e-12
    for queries in (["té con miel"], ["pan de sal, té y miel. " * 300]):  # short: regex; long: numpy, then regex
        assert abs(vectorizer.transform(queries) - expected.transform(queries)).max() < 1e-12


def test_a_subclass_that_splits_differently_is_called_not_bypassed() -> None:
    class Reversed(WordAnalyzer):
        def split(self, text: str) -> list[str]:
            return [word[::-1] for word in super().split(text)]

    vectorizer = TfidfVectorizer(analyzer=Reversed()).fit(["pan con miel"])
    assert list(vectorizer.vocabulary_) == ["leim", "nap", "noc"]
