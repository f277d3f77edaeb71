"""The structure of a markdown page: publication comment, title, sections, code fences, tables.

Only the lines that can change the structure (``#``, ``##``, ``###`` headers and code fences)
are examined, found with one regular expression over the whole page, so parsing stays fast
on large files. A ``#`` line inside a fenced block (``` or ~~~) is code, never a header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

__all__ = [
    "Publication", "MarkdownSection", "MarkdownOutline", "MarkdownTable",
    "parse_publication_comment", "publication_for", "parse_outline", "find_tables", "find_fences",
    "UNVERSIONED",
]

#: Version reported for a page whose publication comment gives none.
UNVERSIONED = "unversioned"

_COMMENT = re.compile(r"\A\ufeff?[ \t]*<!--(?P<inside>.*?)-->[ \t]*(?:\n|\Z)")
_PUBLICATION_KEYS = ("url", "version", "updated")
# Candidate structure lines: up to three spaces, then a fence opener or one to three "#" that
# end the line or are followed by a space or tab ("####" and "#tag" are not candidates).
_CANDIDATE = re.compile(r"^ {0,3}(?:`{3,}|~{3,}|#{1,3}(?=[ \t]|$))[^\n]*", re.MULTILINE)
_CLOSING_HASHES = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class Publication:
    """Where and when a page was published; ``fallbacks`` names the fields the comment lacked."""

    url: str
    version: str
    updated: str | None
    fallbacks: tuple[str, ...]


@dataclass(frozen=True)
class MarkdownSection:
    """A header and the region below it up to the next header (offsets into the page).

    ``path`` holds the headings under the page title (``("Setup",)`` or ``("Setup", "Linux")``);
    the lead section (text before the first ``##``) has ``title=None`` and an empty path.
    """

    title: str | None
    path: tuple[str, ...]
    level: int
    start: int
    end: int
    body_start: int
    body_end: int


@dataclass(frozen=True)
class MarkdownOutline:
    """A page's title, sections, header lines, fenced code blocks and publication comment.

    ``comment_end`` is where the publication comment line ends (0 without one); ``headers``
    holds the ``(start, end)`` of every header line, the title's included.
    """

    title: str | None
    sections: tuple[MarkdownSection, ...]
    fences: tuple[tuple[int, int], ...]
    headers: tuple[tuple[int, int], ...]
    comment: dict[str, str]
    comment_end: int


@dataclass(frozen=True)
class MarkdownTable:
    """A pipe table: its header row and rule line span ``start:rule_end``, its rows end at ``end``."""

    start: int
    rule_end: int
    end: int


def parse_publication_comment(markdown: str) -> tuple[dict[str, str], int]:
    """The ``key: value`` pairs of a first-line comment such as
    ``<!-- url: /guides/quickstart | version: 2.3 | updated: 2026-03-02 -->`` and where the
    comment line ends (0 when the first line is not a publication comment)."""
    m = _COMMENT.match(markdown)
    if not m:
        return {}, 0
    pairs = {}
    for item in m.group("inside").split("|"):
        key, colon, value = item.partition(":")
        if colon and key.strip() and value.strip():
            pairs[key.strip().lower()] = value.strip()
    if not any(key in pairs for key in _PUBLICATION_KEYS):
        return {}, 0
    return pairs, m.end()


def publication_for(comment: dict[str, str], path: str) -> Publication:
    """Fill what the comment lacks: url from the file path, version ``"unversioned"``, updated ``None``."""
    fallbacks = tuple(key for key in _PUBLICATION_KEYS if key not in comment)
    url = comment.get("url") or "/" + str(PurePosixPath(path.replace("\\", "/")).with_suffix("")).lstrip("/")
    return Publication(url, comment.get("version", UNVERSIONED), comment.get("updated"), fallbacks)


def _fence_opener(line: str) -> tuple[str, int] | None:
    stripped = line.lstrip(" ")
    char = stripped[0]
    if char not in "`~":
        return None
    run = len(stripped) - len(stripped.lstrip(char))
    if char == "`" and "`" in stripped[run:]:
        return None  # an info string with backticks makes it inline code, not a fence
    return char, run


def _closes(line: str, char: str, run: int) -> bool:
    stripped = line.strip()
    return len(stripped) >= run and stripped == char * len(stripped)


def _header(line: str) -> tuple[int, str] | None:
    stripped = line.lstrip(" ")
    level = len(stripped) - len(stripped.lstrip("#"))
    title = _CLOSING_HASHES.sub("", stripped[level:]).strip()
    return (level, title) if title else None


def _scan(markdown: str, start: int) -> tuple[list[tuple[int, int]], list[tuple[int, int, int, str]]]:
    """Fenced blocks ``(start, end)`` and headers ``(start, end, level, title)`` from ``start`` on."""
    fences: list[tuple[int, int]] = []
    headers: list[tuple[int, int, int, str]] = []
    open_fence: tuple[str, int, int] | None = None
    for m in _CANDIDATE.finditer(markdown, start):
        line = m.group()
        if open_fence is not None:
            char, run, fence_start = open_fence
            if _closes(line, char, run):
                fences.append((fence_start, m.end()))
                open_fence = None
            continue
        opener = _fence_opener(line)
        if opener is not None:
            open_fence = (*opener, m.start())
            continue
        header = _header(line)
        if header is not None:
            headers.append((m.start(), m.end(), *header))
    if open_fence is not None:  # an unclosed fence runs to the end of the page, as in CommonMark
        fences.append((open_fence[2], len(markdown)))
    return fences, headers


def find_fences(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every fenced code block (``` or ~~~) in ``text``, fence lines included."""
    return _scan(text, 0)[0]


def parse_outline(markdown: str) -> MarkdownOutline:
    """Find the publication comment, the page title (first ``#``), the sections and the fences."""
    comment, comment_end = parse_publication_comment(markdown)
    fences, headers = _scan(markdown, comment_end)
    title: str | None = None
    sections: list[MarkdownSection] = []
    h2: str | None = None
    region_start = comment_end
    current: tuple[str | None, tuple[str, ...], int, int, int] = (None, (), 0, comment_end, comment_end)
    for start, end, level, text in headers:
        sections.append(MarkdownSection(*current, min(region_start, start), start))
        if level == 1 and title is None:
            title, path, h2 = text, (), None
            current = (None, path, 0, start, end)
        elif level <= 2:
            h2 = text
            path = (text,)
            current = (text, path, level, start, end)
        else:
            path = (h2, text) if h2 else (text,)
            current = (text, path, level, start, end)
        region_start = min(end + 1, len(markdown))
    sections.append(MarkdownSection(*current, region_start, len(markdown)))
    kept = [s for s in sections if s.title is not None or markdown[s.body_start:s.body_end].strip()]
    return MarkdownOutline(title, tuple(kept), tuple(fences), tuple((h[0], h[1]) for h in headers),
                           comment, comment_end)


def find_tables(markdown: str, start: int, end: int, fences: tuple[tuple[int, int], ...] = ()) -> list[MarkdownTable]:
    """Pipe tables (header row, ``---`` rule, rows) in ``markdown[start:end]``, outside fences."""
    tables: list[MarkdownTable] = []
    if markdown.find("|", start, end) < 0 or markdown.find("---", start, end) < 0:
        return tables  # most sections hold no table; skip the line-by-line search
    for rule in _TABLE_RULE.finditer(markdown, start, end):
        if "|" not in rule.group() or any(fs < rule.start() < fe for fs, fe in fences):
            continue
        header_start = markdown.rfind("\n", start, max(start, rule.start() - 1)) + 1
        header_start = max(header_start, start)
        header = markdown[header_start:max(header_start, rule.start() - 1)]
        if "|" not in header or not header.strip():
            continue
        table_end = rule.end()
        while table_end < end:
            next_end = markdown.find("\n", table_end + 1, end)
            next_end = end if next_end < 0 else next_end
            row = markdown[table_end + 1:next_end]
            if not row.strip() or "|" not in row:
                break
            table_end = next_end
        tables.append(MarkdownTable(header_start, rule.end(), table_end))
    return tables
