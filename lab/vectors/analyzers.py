"""Analyzers: how a text becomes the list of terms that TF-IDF and BM25 count.

Every choice made here changes what retrieval can find: a stop word never matches, a dropped
number ("¿Abren el 1 de mayo?" loses its "1" when ``keep_digits=False``) cannot tell two dates
apart, and a tokenizer that splits on spaces finds no words at all in Chinese.

An analyzer is any callable ``text -> list[str]``. The two here also expose the two halves of
that call, ``split`` (text to candidate terms) and ``keep`` (a test on one term), which lets
the vectorisers filter each distinct term once instead of every occurrence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lab.arguments import check_positive_int

__all__ = [
    "Analyzer",
    "WordAnalyzer",
    "CJKBigramAnalyzer",
    "SPANISH_STOP_WORDS",
    "ENGLISH_STOP_WORDS",
    "STOP_WORD_LISTS",
]

# Written for the lab: the most frequent Spanish function words (articles, prepositions,
# conjunctions, clitic and possessive pronouns, demonstratives, common forms of ser/estar/haber).
# One-letter words ("y", "a", "o", "e", "u") are listed on purpose: scikit-learn's default token
# pattern r"(?u)\b\w\w+\b" drops them silently, here dropping them is a visible choice.
# Negations ("no", "ni", "sin") are NOT stop words: in a bakery "sin gluten" is the whole question.
SPANISH_STOP_WORDS: frozenset[str] = frozenset(
    """
    a al ante con contra de del desde durante e el en entre hacia hasta la las le les lo los
    me mi mis nos o os para pero por que se según si sobre su sus te tras tu tus u un una unas
    unos y ya
    como cual cuando donde este esta estos estas ese esa esos esas esto eso aquel aquella
    es son era fue ser está están estar ha han haber
    muy más también cada todo toda todos todas otro otra otros otras
    """.split()
)

# Written for the lab: the most frequent English function words. As in Spanish, negations
# ("no", "not", "without") are kept because they change what a sentence asks.
ENGLISH_STOP_WORDS: frozenset[str] = frozenset(
    """
    a an the and or but if then than so as of to in on at by for with from into about over
    under after before between is are was were be been being am do does did has have had
    it its this that these those there here their they them we us our you your he him his
    she her i me my what which who whom how when where why also very each all any some such
    can will would should could may might must
    """.split()
)

#: The named stop-word lists an analyzer accepts as ``stop_words``.
STOP_WORD_LISTS: dict[str, frozenset[str]] = {
    "es": SPANISH_STOP_WORDS,
    "en": ENGLISH_STOP_WORDS,
    "es+en": SPANISH_STOP_WORDS | ENGLISH_STOP_WORDS,
}

# Han ideographs: the unified block, extension A, compatibility ideographs, extensions B to G.
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"


def _resolve_stop_words(stop_words: str | frozenset[str] | None) -> frozenset[str]:
    if stop_words is None:
        return frozenset()
    if isinstance(stop_words, str):
        try:
            return STOP_WORD_LISTS[stop_words]
        except KeyError:
            names = ", ".join(repr(name) for name in STOP_WORD_LISTS)
            raise ValueError(
                f"unknown stop-word list {stop_words!r}; use one of {names}, None, or a frozenset of words"
            ) from None
    if isinstance(stop_words, frozenset):
        return stop_words
    raise TypeError(
        f"stop_words must be a list name, None or a frozenset of words, not {type(stop_words).__name__}"
    )


@dataclass(frozen=True)
class Analyzer:
    """Shared filtering of terms: stop words, all-digit tokens and a minimum length.

    Subclasses say how a text is split (``split``); calling the analyzer splits and keeps.
    """

    lowercase: bool = True
    stop_words: str | frozenset[str] | None = "es"
    keep_digits: bool = False
    min_length: int = 1
    _stop: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_positive_int("min_length", self.min_length)
        object.__setattr__(self, "_stop", _resolve_stop_words(self.stop_words))

    def split(self, text: str) -> list[str]:
        """Candidate terms of ``text`` in order, before any filtering."""
        raise NotImplementedError

    def keep(self, term: str) -> bool:
        """Whether a candidate term is counted (not a stop word, not all digits, long enough)."""
        return (
            term not in self._stop
            and (self.keep_digits or not term.isdigit())
            and len(term) >= self.min_length
        )

    def __call__(self, text: str) -> list[str]:
        """The terms of ``text``, in order, repeats included."""
        if not isinstance(text, str):
            raise TypeError(f"an analyzer takes one text (str), not {type(text).__name__}")
        keep = self.keep
        return [term for term in self.split(text) if keep(term)]


@dataclass(frozen=True)
class WordAnalyzer(Analyzer):
    """Words are maximal runs of Unicode word characters (``\\w+``), lowercased by default.

    Unlike scikit-learn's default token pattern, one-letter words are words: whether "y" or "a"
    count is decided by the stop-word list, not by the tokenizer.
    """

    _pattern = re.compile(r"\w+")

    def split(self, text: str) -> list[str]:
        """Every ``\\w+`` run of ``text``, lowercased when ``lowercase`` is set."""
        return self._pattern.findall(text.lower() if self.lowercase else text)


@dataclass(frozen=True)
class CJKBigramAnalyzer(Analyzer):
    """Chinese-aware terms: runs of Han ideographs become overlapping character bigrams.

    "退款流程" gives "退款", "款流", "流程"; a lone ideograph stays a unigram. Runs of other word
    characters (Latin words, digits, kana) are handled like :class:`WordAnalyzer`, and any
    punctuation (。？！，、 included) separates runs. Bigrams need no dictionary and find every
    two-character word, which is why search engines fall back on them for Chinese.
    Stop words default to none: pass a frozenset (bigrams included) to drop some.
    """

    stop_words: str | frozenset[str] | None = None
    _pattern = re.compile(rf"([{_CJK}]+)|([^\W{_CJK}]+)")

    def split(self, text: str) -> list[str]:
        """Bigrams of every ideograph run and whole words of every other run, in text order."""
        terms: list[str] = []
        for han, word in self._pattern.findall(text.lower() if self.lowercase else text):
            if word:
                terms.append(word)
            elif len(han) == 1:
                terms.append(han)
            else:
                terms.extend(han[i : i + 2] for i in range(len(han) - 1))
        return terms
