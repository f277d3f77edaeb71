"""From Notion blocks to text that keeps headings and block roles.

The lab's client walks a page and yields ``(depth, block)`` pairs in document order: a block
at depth ``d`` is followed by its children at depth ``d + 1``. :func:`flatten_blocks` turns
that stream into a :class:`FlatDocument`:

- every heading (1, 2 or 3) opens a section whose title travels with every chunk cut from it;
  text before the first heading forms a lead section with ``title=None``;
- every other block becomes a line that keeps its role: ``- `` bullets, real numbering for
  numbered lists, ``[ ]``/``[x]`` to-dos, a question marker for toggles (their answers are
  indented below), a callout marker, ``> `` quotes, fenced code with its language, table rows
  as ``cell | cell``, captions of images and bookmarks, equations, and one line naming a
  child page or database (never descended);
- nesting shows as two spaces per level, counted from the section; columns, tables and synced
  blocks are containers and add no indentation;
- content that appears twice because a synced block is referenced in the same page is kept
  once; dividers and empty blocks are dropped; unknown block types are skipped and recorded.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from lab.chunking.errors import MalformedBlockError
from lab.chunking.tokens import count_tokens
from lab.notion.richtext import plain_text as rich_text_plain

__all__ = [
    "Markers", "MARKERS_ES", "MARKERS_EN", "MARKERS_ZH", "FlatLine", "Section", "SkippedBlock", "FlatDocument",
    "flatten_blocks", "rich_text_plain", "MARKERS_BY_LANGUAGE",
]


@dataclass(frozen=True)
class Markers:
    """Prefixes that say a line's role in the lesson's language (bullets and quotes are universal)."""

    question: str
    callout: str
    image: str
    bookmark: str
    equation: str
    child_page: str
    child_database: str
    meeting_notes: str


#: Spanish prefixes, the bakery's language.
MARKERS_ES = Markers(question="Pregunta: ", callout="Aviso: ", image="Imagen: ", bookmark="Enlace: ",
                     equation="Ecuación: ", child_page="Subpágina: ", child_database="Base de datos: ",
                     meeting_notes="Reunión: ")
#: English prefixes.
MARKERS_EN = Markers(question="Question: ", callout="Note: ", image="Image: ", bookmark="Link: ",
                     equation="Equation: ", child_page="Subpage: ", child_database="Database: ",
                     meeting_notes="Meeting: ")
#: Chinese prefixes, with the full-width colon Chinese text uses.
MARKERS_ZH = Markers(question="问题：", callout="提示：", image="图片：", bookmark="链接：", equation="公式：",
                     child_page="子页面：", child_database="数据库：", meeting_notes="会议：")
#: The prefixes by language code, for a run told which language its pages are written in.
MARKERS_BY_LANGUAGE = {"es": MARKERS_ES, "en": MARKERS_EN, "zh": MARKERS_ZH}


@dataclass(frozen=True)
class FlatLine:
    """One block's text in the flattened page; ``text == FlatDocument.text[start:end]``.

    ``table_header`` holds the header row of the table this row belongs to (``None`` for the
    header row itself and for anything that is not a table row), so a chunk that starts
    inside a table can repeat it.
    """

    text: str
    block_id: str | None
    block_type: str
    indent: int
    section: int
    start: int
    end: int
    table_header: str | None = None


@dataclass(frozen=True)
class Section:
    """A heading and the body below it, located by exact offsets in ``FlatDocument.text``.

    ``start:end`` is the heading line (empty for the lead section, whose ``title`` is
    ``None`` and ``level`` 0); ``body_start:body_end`` is the body.
    """

    title: str | None
    level: int
    block_id: str | None
    start: int
    end: int
    body_start: int
    body_end: int


@dataclass(frozen=True)
class SkippedBlock:
    """A block left out of the text, and why (unknown type, repeated synced content, in trash)."""

    block_id: str | None
    block_type: str
    reason: str


@dataclass(frozen=True)
class FlatDocument:
    """A page flattened to text: heading lines and body lines joined by ``"\\n"``.

    A heading line is written the markdown way (``## Alérgenos``), so the text reads well
    and keeps the page's outline; chunkers take section titles from :attr:`sections`.
    """

    text: str
    sections: tuple[Section, ...]
    lines: tuple[FlatLine, ...]
    skipped: tuple[SkippedBlock, ...] = ()

    def body(self, section: Section) -> str:
        """The body text of ``section``."""
        return self.text[section.body_start:section.body_end]

    def section_lines(self, index: int) -> list[FlatLine]:
        """The body lines of the section at position ``index``."""
        return [line for line in self.lines if line.section == index]

    @cached_property
    def _line_starts(self) -> list[int]:
        return [line.start for line in self.lines]

    def lines_between(self, start: int, end: int) -> list[FlatLine]:
        """The lines that share at least one character with ``text[start:end]``, in order.

        This is how a chunk is traced back to the blocks it came from.
        """
        first = max(0, bisect_right(self._line_starts, start) - 1)
        stop = bisect_left(self._line_starts, end)
        return [line for line in self.lines[first:stop] if line.end > start and line.start < end]

    @property
    def body_tokens(self) -> int:
        """Lab tokens in all section bodies (headings excluded): the page size the lessons report."""
        return sum(count_tokens(self.body(s)) for s in self.sections)


# Block types by how the flattener treats them.
_HEADINGS = {"heading_1": 1, "heading_2": 2, "heading_3": 3}
_CONTAINERS = {"column_list", "column", "synced_block", "table"}
_RICH_TEXT_LINES = {"paragraph", "bulleted_list_item", "numbered_list_item", "to_do", "toggle",
                    "callout", "quote"}
_OTHER_KNOWN = {"code", "divider", "table_row", "child_page", "child_database", "image", "bookmark",
                "equation", "meeting_notes", "transcription"}
KNOWN_TYPES = frozenset(_HEADINGS) | _CONTAINERS | _RICH_TEXT_LINES | _OTHER_KNOWN


@dataclass
class _Frame:
    """What an ancestor means for the blocks below it."""

    indents: bool = False  # its children are indented one level (toggles, list items, callouts...)
    skip: bool = False  # its whole subtree is left out
    table_rows: int = 0  # for tables: rows seen so far
    table_has_header: bool = False
    table_header: str | None = None


@dataclass
class _OpenSection:
    title: str | None
    level: int
    block_id: str | None
    base_indent: int
    lines: list[tuple[str, str | None, str, int, str | None]] = field(default_factory=list)


class _Flattener:
    """Consumes the ``(depth, block)`` stream one pair at a time."""

    def __init__(self, markers: Markers) -> None:
        self.markers = markers
        self.stack: list[_Frame] = []
        self.numbers: list[int] = []
        self.seen: set[str] = set()
        self.sections: list[_OpenSection] = []
        self.skipped: list[SkippedBlock] = []

    def add(self, depth: int, block: Mapping[str, Any]) -> None:
        if not isinstance(depth, int) or depth < 0 or depth > len(self.stack):
            where = f"after a block at depth {len(self.stack) - 1}" if self.stack else "as the first block"
            raise MalformedBlockError(
                f"block {block.get('id')!r} comes at depth {depth!r} {where}; a block's depth must be "
                "between 0 and its predecessor's + 1 (children directly follow their parent)")
        del self.stack[depth:]
        del self.numbers[depth + 1:]
        while len(self.numbers) <= depth:
            self.numbers.append(0)
        if self.stack and self.stack[-1].skip:
            self.stack.append(_Frame(skip=True))
            return
        block_type = block.get("type")
        block_id = block.get("id")
        if not isinstance(block_type, str):
            raise MalformedBlockError(f"block {block_id!r} has no 'type'; every Notion block names its type")
        if block_id is not None and block_id in self.seen:
            self._skip(block_id, block_type, "already in this page (synced block content)")
            return
        if block_id is not None:
            self.seen.add(block_id)
        if block.get("in_trash") or block.get("archived"):
            self._skip(block_id, block_type, "in trash")
            return
        if block_type not in KNOWN_TYPES:
            # Keep the children: an unknown container may still hold known, readable blocks.
            self.skipped.append(SkippedBlock(block_id, block_type, "unknown block type"))
            self.stack.append(_Frame())
            return
        content = block.get(block_type)
        if not isinstance(content, Mapping):
            raise MalformedBlockError(
                f"block {block_id!r} of type {block_type!r} has no {block_type!r} object; "
                f"the API puts a block's content under a key named after its type")
        self.numbers[depth] = self.numbers[depth] + 1 if block_type == "numbered_list_item" else 0
        self._dispatch(depth, block_id, block_type, content)

    def _skip(self, block_id: str | None, block_type: str, reason: str) -> None:
        self.skipped.append(SkippedBlock(block_id, block_type, reason))
        self.stack.append(_Frame(skip=True))

    def _indent(self) -> int:
        levels = sum(frame.indents for frame in self.stack)
        base = self.sections[-1].base_indent if self.sections else 0
        return max(0, levels - base)

    def _dispatch(self, depth: int, block_id: str | None, block_type: str, content: Mapping[str, Any]) -> None:
        m = self.markers
        if block_type in _HEADINGS:
            self._open_section(block_id, _HEADINGS[block_type], rich_text_plain(content.get("rich_text")))
            return
        if block_type in _CONTAINERS:
            frame = _Frame()
            if block_type == "table":
                frame.table_has_header = bool(content.get("has_column_header"))
            self.stack.append(frame)
            return
        if block_type == "table_row":
            self._table_row(block_id, content)
            self.stack.append(_Frame(skip=True))
            return
        if block_type in ("child_page", "child_database"):
            marker = m.child_page if block_type == "child_page" else m.child_database
            self._line(block_id, block_type, marker, str(content.get("title", "")))
            self.stack.append(_Frame(skip=True))  # a sub-page is its own document
            return
        text, prefix = self._text_and_prefix(depth, block_type, content)
        if block_type == "code":
            self._code(block_id, content, text)
        elif block_type != "divider":
            self._line(block_id, block_type, prefix, text)
        self.stack.append(_Frame(indents=block_type not in ("divider",)))

    def _text_and_prefix(self, depth: int, block_type: str, content: Mapping[str, Any]) -> tuple[str, str]:
        m = self.markers
        text = rich_text_plain(content.get("rich_text"))
        if block_type == "bulleted_list_item":
            return text, "- "
        if block_type == "numbered_list_item":
            return text, f"{self.numbers[depth]}. "
        if block_type == "to_do":
            return text, "[x] " if content.get("checked") else "[ ] "
        if block_type == "toggle":
            return text, m.question
        if block_type == "callout":
            return text, m.callout
        if block_type == "quote":
            return text, "> "
        if block_type == "image":
            return rich_text_plain(content.get("caption")), m.image
        if block_type == "bookmark":
            # A bookmark's URL is stable content; an uploaded image's URL is signed and expires.
            return rich_text_plain(content.get("caption")) or str(content.get("url") or ""), m.bookmark
        if block_type == "equation":
            return str(content.get("expression", "")), m.equation
        if block_type in ("meeting_notes", "transcription"):
            return rich_text_plain(content.get("title") or content.get("rich_text")), m.meeting_notes
        return text, ""

    def _open_section(self, block_id: str | None, level: int, title: str) -> None:
        title = " ".join(title.split())
        if not title:
            self.stack.append(_Frame())  # an empty heading opens nothing; its children stay in place
            return
        base = sum(frame.indents for frame in self.stack)
        self.sections.append(_OpenSection(title, level, block_id, base))
        self.stack.append(_Frame())

    def _line(self, block_id: str | None, block_type: str, prefix: str, text: str,
              table_header: str | None = None) -> None:
        if not text.strip():
            return
        if not self.sections:
            self.sections.append(_OpenSection(None, 0, None, 0))
        indent = self._indent()
        pad = "  " * indent
        body = text.replace("\n", "\n" + pad) if pad else text
        self.sections[-1].lines.append((pad + prefix + body, block_id, block_type, indent, table_header))

    def _code(self, block_id: str | None, content: Mapping[str, Any], code: str) -> None:
        if not code.strip():
            return
        language = str(content.get("language") or "")
        language = "text" if language == "plain text" else language.replace(" ", "-")
        longest = max((len(run) for run in code.split("\n") if set(run) == {"`"}), default=0)
        fence = "`" * max(3, longest + 1)
        self._line(block_id, "code", "", f"{fence}{language}\n{code}\n{fence}")

    def _table_row(self, block_id: str | None, content: Mapping[str, Any]) -> None:
        cells = [" ".join(rich_text_plain(cell).split("\n")) for cell in content.get("cells", [])]
        row = " | ".join(cells)
        table = self.stack[-1] if self.stack else _Frame()
        index = table.table_rows
        table.table_rows += 1
        if table.table_has_header and index == 0:
            table.table_header = row if any(c.strip() for c in cells) else None
            header = None
        else:
            header = table.table_header
        if any(c.strip() for c in cells):
            self._line(block_id, "table_row", "", row, table_header=header)

    def finish(self) -> FlatDocument:
        pieces: list[str] = []
        sections: list[Section] = []
        lines: list[FlatLine] = []
        pos = 0

        def put(piece: str) -> tuple[int, int]:
            nonlocal pos
            if pieces:
                pos += 1  # the joining "\n"
            start = pos
            pieces.append(piece)
            pos += len(piece)
            return start, pos

        for index, open_section in enumerate(self.sections):
            if open_section.title is None:
                start = end = pos + (1 if pieces else 0)
            else:
                start, end = put("#" * open_section.level + " " + open_section.title)
            body_start = body_end = end
            for k, (text, block_id, block_type, indent, header) in enumerate(open_section.lines):
                line_start, line_end = put(text)
                if k == 0:
                    body_start = line_start
                body_end = line_end
                lines.append(FlatLine(text, block_id, block_type, indent, index, line_start, line_end, header))
            sections.append(Section(open_section.title, open_section.level, open_section.block_id,
                                    start, end, body_start, body_end))
        return FlatDocument("\n".join(pieces), tuple(sections), tuple(lines), tuple(self.skipped))


def flatten_blocks(blocks: Iterable[tuple[int, Mapping[str, Any]]], markers: Markers = MARKERS_ES) -> FlatDocument:
    """Flatten a page's ``(depth, block)`` traversal into sections and role-keeping lines.

    ``markers`` chooses the language of the role prefixes (:data:`MARKERS_ES` for the
    bakery, :data:`MARKERS_EN`, :data:`MARKERS_ZH`). Raises :class:`MalformedBlockError` when depths jump by more
    than one level or a block lacks its type or content.
    """
    flattener = _Flattener(markers)
    for depth, block in blocks:
        flattener.add(depth, block)
    return flattener.finish()
