"""The lab's token counter: one word or one punctuation sign is one token.

This is an approximation chosen so that the lessons need no tokeniser download and give the
same numbers everywhere. Real BPE tokenisers split long or rare words into several pieces, so
for Spanish text they usually report more tokens than this count; an embedding API returns the
exact number it bills.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import filterfalse

import numpy as np

__all__ = ["TOKEN_PATTERN", "count_tokens", "token_spans", "TokenIndex"]

#: A run of word characters, or any single character that is neither a word character nor
#: whitespace. Every non-space character of a text therefore belongs to exactly one token.
TOKEN_PATTERN = re.compile(r"\w+|[^\w\s]")



def count_tokens(text: str) -> int:
    """Number of lab tokens in ``text`` (words and punctuation signs): ``len(TOKEN_PATTERN.findall(text))``."""
    # Same count, about twice as fast: a whitespace-separated word made only of letters and
    # digits (str.isalnum, which is exactly regex \w minus "_") is one token, and only the
    # other words go through the regular expression.
    words = text.split()
    plain = sum(map(str.isalnum, words))
    return plain + len(TOKEN_PATTERN.findall(" ".join(filterfalse(str.isalnum, words))))


def token_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` character offsets of every lab token of ``text``, in order."""
    return [m.span() for m in TOKEN_PATTERN.finditer(text)]


_SPACE, _WORD, _OTHER = 0, 1, 2


def _class_of(ch: str) -> int:
    # Python's regex \w is exactly str.isalnum() plus "_", and \s is str.isspace().
    if ch.isspace():
        return _SPACE
    return _WORD if ch.isalnum() or ch == "_" else _OTHER


@lru_cache(maxsize=1)
def _bmp_classes() -> np.ndarray:
    """Space / word / other class of every code point below 65,536 (built once, 64 KB)."""
    return np.array([_class_of(chr(cp)) for cp in range(0x10000)], dtype=np.uint8)


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


class TokenIndex:
    """Where every lab token of a text starts and ends, found once for the whole text.

    Chunkers build one index per page, then read window boundaries and count the tokens of
    any slice with two binary searches, instead of running the regular expression again over
    every chunk (overlapping chunks would be scanned twice). numpy classifies all characters
    at once; the tokens are exactly those of :data:`TOKEN_PATTERN`.

    ``starts[k]`` and ``ends[k]`` are the offsets of token ``k`` (integer arrays).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        classes = _bmp_classes().take(codes, mode="clip")
        if len(codes) and int(codes.max()) >= 0x10000:  # emoji, historic scripts: rare, done one by one
            for cp in np.unique(codes[codes >= 0x10000]).tolist():
                classes[codes == cp] = _class_of(chr(cp))
        word = classes == _WORD
        other = classes == _OTHER
        word_before = np.zeros_like(word)
        word_before[1:] = word[:-1]
        word_after = np.zeros_like(word)
        word_after[:-1] = word[1:]
        self.starts = np.flatnonzero(other | (word & ~word_before))
        self.ends = np.flatnonzero(other | (word & ~word_after)) + 1

    def __len__(self) -> int:
        return len(self.starts)

    def count(self, start: int, end: int) -> int:
        """Tokens in ``text[start:end]`` counted as a text of its own (``count_tokens`` of the slice)."""
        end = min(end, len(self.text))
        if end <= start:
            return 0
        inside = int(self.starts.searchsorted(end) - self.starts.searchsorted(start))
        # A slice that begins in the middle of a word starts a token of its own there.
        cut_word = start > 0 and _is_word(self.text[start]) and _is_word(self.text[start - 1])
        return inside + cut_word
