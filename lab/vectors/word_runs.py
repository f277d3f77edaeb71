"""Word runs found with numpy: texts to word ids without a Python string per occurrence.

``WordAnalyzer.split`` calls ``re.findall(r"\\w+")``, which builds one ``str`` per occurrence,
and each occurrence then costs a dictionary lookup to become a column: 25 million strings and
lookups for 100,000 chunks. Here a batch of texts becomes one array of code points, a lookup
table marks word characters (``\\w`` is exactly ``str.isalnum()`` or ``_``), and every run of
word characters gets a 64-bit polynomial hash. Only words never seen before become strings.

A hash can collide, so nothing is trusted to it: every occurrence is compared, character by
character, with the stored first occurrence of its word. If two different words ever shared a
hash, :class:`WordCollision` is raised and the caller falls back to the regular expression. The
result is therefore always exactly the regular expression's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

__all__ = ["WordCollision", "WordRuns", "word_runs", "WordIds"]

_BASE = 0x9E3779B97F4A7C15  # odd 64-bit multiplier (the golden ratio), spreads code points well
_LENGTH_MIX = np.uint64(0xFF51AFD7ED558CCD)


class WordCollision(Exception):
    """Two different words got the same 64-bit hash: split this input with the regex instead."""


class WordRuns(NamedTuple):
    """The words of a batch: ``words[codes[i]]`` is occurrence ``i``; ``lengths[t]`` words in text ``t``."""

    codes: np.ndarray
    words: list[str]
    lengths: np.ndarray


class _Runs(NamedTuple):
    joined: str
    code_points: np.ndarray  # of the joined texts
    starts: np.ndarray  # where each occurrence begins in ``joined``
    sizes: np.ndarray  # its length in code points
    positions: np.ndarray  # every word character's place in ``joined``, occurrence after occurrence
    offsets: np.ndarray  # every word character's place within its occurrence
    hashes: np.ndarray  # one per occurrence
    per_text: np.ndarray  # occurrences in each text


def _word_table() -> np.ndarray:
    table = np.array([chr(c).isalnum() for c in range(0x10000)], dtype=bool)
    table[ord("_")] = True
    return table


_BMP_WORD = _word_table()
_powers = np.ones(1, dtype=np.uint64)


def _powers_up_to(n: int) -> np.ndarray:
    """``_BASE ** k`` modulo 2**64 for k < n (cached and grown on demand)."""
    global _powers
    if _powers.size < n:
        _powers = np.array([pow(_BASE, k, 1 << 64) for k in range(max(n, 2 * _powers.size))], dtype=np.uint64)
    return _powers


def _is_word(code_points: np.ndarray) -> np.ndarray:
    in_bmp = code_points < 0x10000
    if in_bmp.all():
        return _BMP_WORD[code_points]
    word = np.zeros(code_points.size, dtype=bool)
    word[in_bmp] = _BMP_WORD[code_points[in_bmp]]
    astral = np.flatnonzero(~in_bmp)
    word[astral] = [chr(c).isalnum() for c in code_points[astral].tolist()]
    return word


def _hashed_runs(texts: Sequence[str], lowercase: bool) -> _Runs:
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"every text must be a str; item {i} of a batch is {type(text).__name__}")
    prepared = [text.lower() for text in texts] if lowercase else list(texts)
    joined = "\n".join(prepared)  # "\n" is not a word character: no run crosses into the next text
    code_points = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    is_word = _is_word(code_points)
    edges = np.flatnonzero(np.diff(np.concatenate([[False], is_word, [False]])))
    starts, ends = edges[0::2], edges[1::2]
    spans = np.array([len(text) + 1 for text in prepared], dtype=np.int64)  # each text and its "\n"
    text_starts = np.cumsum(spans) - spans
    per_text = np.diff(np.append(np.searchsorted(starts, text_starts), starts.size))
    sizes = ends - starts
    first_char = np.cumsum(sizes) - sizes  # where each occurrence begins among the word characters
    positions = np.flatnonzero(is_word)
    offsets = np.arange(positions.size) - np.repeat(first_char, sizes)
    hashes = np.zeros(starts.size, dtype=np.uint64)
    if starts.size:
        with np.errstate(over="ignore"):  # arithmetic modulo 2**64 is the point
            terms = code_points[positions].astype(np.uint64) * _powers_up_to(int(sizes.max()))[offsets]
            hashes = np.add.reduceat(terms, first_char) + sizes.astype(np.uint64) * _LENGTH_MIX
    return _Runs(joined, code_points, starts, sizes, positions, offsets, hashes, per_text)


def _first_occurrences(codes: np.ndarray) -> np.ndarray:
    """Index of the first occurrence of each code, for codes numbered in order of appearance."""
    if codes.size == 0:
        return codes
    running_max = np.maximum.accumulate(codes)
    return np.flatnonzero(np.concatenate([[True], running_max[1:] > running_max[:-1]]))


def word_runs(texts: Sequence[str], lowercase: bool) -> WordRuns:
    """The ``\\w+`` runs of every text (lowercased first if asked), as codes into distinct words.

    Raises :class:`WordCollision` if two different words of the batch share a hash.
    """
    runs = _hashed_runs(texts, lowercase)
    codes, _ = pd.factorize(runs.hashes)
    first = _first_occurrences(codes)
    representative = first[codes]
    if not (
        np.array_equal(runs.sizes[representative], runs.sizes)
        and np.array_equal(
            runs.code_points[np.repeat(runs.starts[representative], runs.sizes) + runs.offsets],
            runs.code_points[runs.positions],
        )
    ):
        raise WordCollision("two different words share a 64-bit hash")
    ends = runs.starts + runs.sizes
    words = [runs.joined[a:z] for a, z in zip(runs.starts[first].tolist(), ends[first].tolist())]
    return WordRuns(codes.astype(np.int64, copy=False), words, runs.per_text)


class _Growing:
    """A numpy array that grows at the end by doubling its capacity (amortised constant time)."""

    def __init__(self, dtype: type) -> None:
        self._buffer = np.empty(1024, dtype=dtype)
        self.size = 0

    def extend(self, values: np.ndarray) -> None:
        needed = self.size + values.size
        if needed > self._buffer.size:
            grown = np.empty(max(needed, 2 * self._buffer.size), dtype=self._buffer.dtype)
            grown[: self.size] = self._buffer[: self.size]
            self._buffer = grown
        self._buffer[self.size : needed] = values
        self.size = needed

    @property
    def values(self) -> np.ndarray:
        return self._buffer[: self.size]


class WordIds:
    """Ids for the ``\\w+`` words of a stream of batches, in order of first appearance.

    ``words[i]`` is the word of id ``i``. Known hashes are kept sorted, so a batch's words are
    looked up with one binary search per distinct word, in numpy. Each word's code points are
    stored once and every occurrence is checked against them, so a hash collision cannot merge
    two words unnoticed.
    """

    def __init__(self, lowercase: bool) -> None:
        self.lowercase = lowercase
        self.words: list[str] = []
        self._sorted_hashes = np.empty(0, dtype=np.uint64)
        self._ids_by_hash = np.empty(0, dtype=np.int64)  # id of each entry of _sorted_hashes
        self._characters = _Growing(np.uint32)  # code points of every word, word after word
        self._start = _Growing(np.int64)  # where word i's code points begin in _characters
        self._size = _Growing(np.int64)

    def add(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Ids of every occurrence in ``texts`` (registering new words) and occurrences per text.

        Raises :class:`WordCollision` if an occurrence differs from the word its hash names.
        """
        runs = _hashed_runs(texts, self.lowercase)
        codes, distinct_hashes = pd.factorize(runs.hashes)
        ids = self._known_ids(distinct_hashes)
        new_codes = np.flatnonzero(ids < 0)
        if new_codes.size:
            ids[new_codes] = self._register(runs, _first_occurrences(codes)[new_codes], distinct_hashes[new_codes])
        occurrence_ids = ids[codes]
        sizes = self._size.values[occurrence_ids]
        stored = self._start.values[occurrence_ids]
        if not (
            np.array_equal(sizes, runs.sizes)
            and np.array_equal(
                self._characters.values[np.repeat(stored, sizes) + runs.offsets], runs.code_points[runs.positions]
            )
        ):
            raise WordCollision("two different words share a 64-bit hash")
        return occurrence_ids, runs.per_text

    def _known_ids(self, hashes: np.ndarray) -> np.ndarray:
        """The id of each hash already seen, -1 for the others."""
        if self._sorted_hashes.size == 0:
            return np.full(hashes.size, -1, dtype=np.int64)
        order = np.argsort(hashes)  # sorted keys make the binary searches walk memory in order
        place = np.empty(hashes.size, dtype=np.int64)
        place[order] = np.searchsorted(self._sorted_hashes, hashes[order])
        np.minimum(place, self._sorted_hashes.size - 1, out=place)
        found = self._sorted_hashes[place] == hashes
        return np.where(found, self._ids_by_hash[place], -1)

    def _register(self, runs: _Runs, first: np.ndarray, hashes: np.ndarray) -> np.ndarray:
        """New ids for the words first seen at occurrences ``first``; stores their hashes and code points."""
        new_ids = np.arange(len(self.words), len(self.words) + first.size, dtype=np.int64)
        order = np.argsort(hashes)
        place = np.searchsorted(self._sorted_hashes, hashes[order])
        self._sorted_hashes = np.insert(self._sorted_hashes, place, hashes[order])
        self._ids_by_hash = np.insert(self._ids_by_hash, place, new_ids[order])
        starts, sizes = runs.starts[first], runs.sizes[first]
        self.words.extend(runs.joined[a:z] for a, z in zip(starts.tolist(), (starts + sizes).tolist()))
        self._start.extend(self._characters.size + np.cumsum(sizes) - sizes)
        self._size.extend(sizes)
        offsets = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        self._characters.extend(runs.code_points[np.repeat(starts, sizes) + offsets])
        return new_ids
