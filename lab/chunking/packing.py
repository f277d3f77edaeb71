"""Cutting a stretch of text into pieces under a character budget, at the strongest boundary.

Shared by the markdown and paragraph chunkers. A stretch ``text[start:end]`` is first cut
into *units* no longer than the budget, trying boundaries from strongest to weakest
(paragraphs, then lines where lines mean something, sentences, words, and as a last resort
a hard cut); units are then packed greedily into pieces. Each new piece starts with the
previous piece's last characters (at most ``overlap_chars``), beginning at a unit start if
the tail holds one, else at a sentence start, a line start or a word start. Pieces are
``(start, end)`` offsets into ``text``, so every piece is an exact slice of its source and
keeps its whitespace and indentation.

Atomic spans (fenced code blocks) are never cut and never serve as the start of an overlap;
an atomic span longer than the budget becomes one piece on its own, the only way a piece can
exceed the budget.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence

__all__ = [
    "Separator", "blank_lines", "outline_lines", "all_lines", "item_lines", "sentences", "words",
    "MARKDOWN_SEPARATORS", "OUTLINE_SEPARATORS", "MARKDOWN_SENTENCES", "OUTLINE_SENTENCES", "AtomicSpans",
    "split_units", "pack_units", "split_to_budget", "split_sentences",
]

#: A kind of boundary: given ``(text, start, end)``, the ``(start, end)`` spans of the separators
#: (whitespace, usually) found in ``text[start:end]``, in order.
Separator = Callable[[str, int, int], Iterable[tuple[int, int]]]

_BLANK_LINES = re.compile(r"\n(?:[ \t]*\n)+")
_OUTLINE_BREAK = re.compile(r"\n(?=\S)")
_LINE_BREAK = re.compile(r"\n")
_SENTENCE_BREAK = re.compile(r"(?<=[.?!])\s+|(?<=[。？！])\s*")
_WORD_BREAK = re.compile(r"\s+")
# A line that starts a list item, a quote, a table row or a code fence.
_ITEM_LINE = re.compile(r"\n[ \t]*(?:[-*+>][ \t]|\||\d+[.)][ \t]|```|~~~)")


def _spans(pattern: re.Pattern[str], text: str, start: int, end: int) -> Iterable[tuple[int, int]]:
    return (m.span() for m in pattern.finditer(text, start, end))


def blank_lines(text: str, start: int, end: int) -> Iterable[tuple[int, int]]:
    """Blank lines: the paragraph breaks of markdown and plain text."""
    return _spans(_BLANK_LINES, text, start, end)


def outline_lines(text: str, start: int, end: int) -> Iterable[tuple[int, int]]:
    """Line breaks before a line that is not indented: in a flattened page, a top-level block
    starts a new paragraph and its indented children (a toggle's answer) stay with it."""
    return _spans(_OUTLINE_BREAK, text, start, end)


def all_lines(text: str, start: int, end: int) -> Iterable[tuple[int, int]]:
    """Every line break (in a flattened page each line is a block)."""
    return _spans(_LINE_BREAK, text, start, end)


def item_lines(text: str, start: int, end: int) -> Iterable[tuple[int, int]]:
    """Line breaks, but only in a paragraph made of lines that mean something (list items, table
    rows, quotes, a fence); the line breaks of wrapped prose are not boundaries."""
    if _ITEM_LINE.search(text, start, end) is None:
        return ()
    return _spans(_LINE_BREAK, text, start, end)


def sentences(text: str, start: int, end: int) -> Iterable[tuple[int, int]]:
    """After ". ", "? ", "! " (any whitespace) and after the CJK full stops "。", "？", "！"."""
    return _spans(_SENTENCE_BREAK, text, start, end)


def words(text: str, start: int, end: int) -> Iterable[tuple[int, int]]:
    """Whitespace between words."""
    return _spans(_WORD_BREAK, text, start, end)


MARKDOWN_SEPARATORS: tuple[Separator, ...] = (blank_lines, item_lines, sentences, words)
OUTLINE_SEPARATORS: tuple[Separator, ...] = (outline_lines, all_lines, sentences, words)
#: The boundaries of a sentence, for chunkers that read a text sentence by sentence: in markdown or
#: plain text, paragraphs, meaningful lines (items, rows) and sentence ends; in a flattened page,
#: every line (a block) and sentence ends.
MARKDOWN_SENTENCES: tuple[Separator, ...] = (blank_lines, item_lines, sentences)
OUTLINE_SENTENCES: tuple[Separator, ...] = (all_lines, sentences)

# Where an overlap may start when no unit starts in the tail: a sentence start, a line start
# (with its indentation), a word start (after whitespace, or after a pause sign in text written
# without spaces such as Chinese).
_SENTENCE_START = re.compile(r"(?:(?<=[.?!])\s+|(?<=[。？！]))(?=\S)")
_LINE_START = re.compile(r"(?<=\n)[ \t]*(?=\S)")
_WORD_START = re.compile(r"(?:(?<=\s)|(?<=[。？！，、；：]))(?=\S)")


class AtomicSpans:
    """Non-overlapping ``(start, end)`` spans that must stay whole (fenced code blocks)."""

    def __init__(self, spans: Sequence[tuple[int, int]] = ()) -> None:
        ordered = sorted(spans)
        self.starts = [s for s, _ in ordered]
        self.ends = [e for _, e in ordered]

    def _at(self, pos: int) -> int:
        return bisect_right(self.starts, pos) - 1

    def inside(self, pos: int) -> bool:
        """True when ``pos`` falls strictly inside a span (a cut there would break it)."""
        j = self._at(pos)
        return j >= 0 and self.starts[j] < pos < self.ends[j]

    def touches(self, start: int, end: int) -> bool:
        """True when ``[start, end)`` shares at least one character with a span."""
        j = self._at(end - 1)
        return j >= 0 and self.ends[j] > start


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop surrounding whitespace, but keep the indentation of a first line that starts a line."""
    while end > start and text[end - 1].isspace():
        end -= 1
    first = start
    while first < end and text[first].isspace():
        first += 1
    if first >= end:
        return first, first
    newline = text.rfind("\n", start, first)
    if newline >= 0:
        return newline + 1, end
    if start == 0 or text[start - 1] == "\n":
        return start, end
    return first, end


def split_units(text: str, start: int, end: int, max_chars: int, separators: Sequence[Separator],
                atomic: AtomicSpans | None = None) -> list[tuple[int, int]]:
    """Cut ``text[start:end]`` into trimmed units of at most ``max_chars`` (atomic spans excepted)."""
    atomic = atomic or AtomicSpans()
    units: list[tuple[int, int]] = []

    def cut(s: int, e: int, level: int) -> None:
        s, e = _trim(text, s, e)
        if s >= e:
            return
        if e - s <= max_chars:
            units.append((s, e))
            return
        if level == len(separators):
            if atomic.touches(s, e):
                units.append((s, e))  # a fenced block longer than the budget stays whole
            else:
                units.extend((k, min(k + max_chars, e)) for k in range(s, e, max_chars))
            return
        parts, begin = [], s
        for sep_start, sep_end in separators[level](text, s, e):
            if atomic.inside(sep_start) or atomic.inside(sep_end):
                continue
            parts.append((begin, sep_start))
            begin = sep_end
        parts.append((begin, e))
        if len(parts) == 1:
            cut(s, e, level + 1)
            return
        for part_start, part_end in parts:
            cut(part_start, part_end, level + 1 if part_end - part_start > max_chars else level)

    cut(start, end, 0)
    return units


def _first_boundary(pattern: re.Pattern[str], text: str, low: int, high: int, atomic: AtomicSpans,
                    at_end: bool) -> int | None:
    """The first match of ``pattern`` in ``text[low:high]`` whose next character is outside atomic spans."""
    for m in pattern.finditer(text, low, high):
        if not atomic.inside(m.end()):
            return m.end() if at_end else m.start()
    return None


def _overlap_start(text: str, unit_starts: Sequence[int], prev: tuple[int, int], unit: tuple[int, int],
                   max_chars: int, overlap_chars: int, atomic: AtomicSpans) -> int:
    """Where the next piece starts: the earliest boundary in the previous piece's last
    ``overlap_chars`` characters that still lets ``unit`` fit, preferring a unit start (a row,
    a sentence, a paragraph), then a sentence, line or word start; the unit's own start (no
    overlap) when the tail has no boundary."""
    prev_start, prev_end = prev
    lowest = max(prev_start + 1, prev_end - overlap_chars, unit[1] - max_chars)
    k = bisect_left(unit_starts, lowest)
    if k < len(unit_starts) and unit_starts[k] < prev_end:
        return unit_starts[k]
    for pattern, at_end in ((_SENTENCE_START, True), (_LINE_START, False), (_WORD_START, False)):
        found = _first_boundary(pattern, text, lowest, prev_end, atomic, at_end)
        if found is not None:
            return found
    return unit[0]


def pack_units(text: str, units: Sequence[tuple[int, int]], max_chars: int, overlap_chars: int,
               atomic: AtomicSpans | None = None) -> list[tuple[int, int]]:
    """Pack consecutive units greedily into pieces of at most ``max_chars``, with overlap."""
    if not units:
        return []
    atomic = atomic or AtomicSpans()
    unit_starts = [s for s, _ in units]
    pieces: list[tuple[int, int]] = []
    piece_start, piece_end = units[0]
    for unit in units[1:]:
        if unit[1] - piece_start <= max_chars:
            piece_end = unit[1]
            continue
        pieces.append((piece_start, piece_end))
        if overlap_chars > 0 and unit[1] - unit[0] <= max_chars:
            piece_start = _overlap_start(text, unit_starts, (piece_start, piece_end), unit, max_chars,
                                         overlap_chars, atomic)
        else:
            piece_start = unit[0]
        piece_end = unit[1]
    pieces.append((piece_start, piece_end))
    return pieces


def split_to_budget(text: str, start: int, end: int, *, max_chars: int, overlap_chars: int,
                    separators: Sequence[Separator] = MARKDOWN_SEPARATORS,
                    atomic: AtomicSpans | None = None) -> list[tuple[int, int]]:
    """Pieces of ``text[start:end]``: at most ``max_chars`` each, consecutive ones sharing at most
    ``overlap_chars`` characters, cut at the strongest boundary available."""
    atomic = atomic or AtomicSpans()
    if end - start <= max_chars:
        span = _trim(text, start, end)
        return [span] if span[0] < span[1] else []
    units = split_units(text, start, end, max_chars, separators, atomic)
    return pack_units(text, units, max_chars, overlap_chars, atomic)


def split_sentences(text: str, start: int, end: int, *, max_chars: int, separators: Sequence[Separator],
                    atomic: AtomicSpans | None = None) -> list[tuple[int, int]]:
    """Trimmed sentences of ``text[start:end]``: cut at every boundary ``separators`` find (not only
    where a budget needs one), a sentence longer than ``max_chars`` then cut between words; atomic
    spans stay whole."""
    atomic = atomic or AtomicSpans()
    spans = [(start, end)]
    for separator in separators:
        finer: list[tuple[int, int]] = []
        for span_start, span_end in spans:
            begin = span_start
            for sep_start, sep_end in separator(text, span_start, span_end):
                if not (atomic.inside(sep_start) or atomic.inside(sep_end)):
                    finer.append((begin, sep_start))
                    begin = sep_end
            finer.append((begin, span_end))
        spans = finer
    return [unit for span_start, span_end in spans
            for unit in split_units(text, span_start, span_end, max_chars, (words,), atomic)]
