"""Notion-flavoured Markdown: the page files under ``lab/datasets/data/pages/`` read into workspace-spec blocks.

A page file is TOML front matter between ``+++`` lines, then one Markdown construct per Notion
block: ``#``-``###`` headings, ``-`` / ``1.`` / ``- [ ]`` list items (children indented by four
spaces), ``>`` quotes, ``> [!icon]`` callouts, ``---``, fenced code, ``$$`` equations, ``![caption](url)``
images, pipe tables, ``&nbsp;`` for an empty paragraph, and paragraphs. Toggles are ``<details>``
as in Notion's own export; the other Notion-only blocks are generic directives named after
their block type (``::::column_list``, ``:::synced_block{key=...}``, ``::bookmark[caption]{url=...}``).
Inline, ``**bold**``, ```code``` and ``[text](url)`` become rich-text runs.

The reader is strict: every block is one line (or one fenced construct), blocks are separated by
blank lines except consecutive list items, and anything else raises :class:`PageFileError` naming
the file and the line. ``lab/datasets/data/pages/README.md`` is the format's reference.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lab.errors import LabError
from lab.notion.richtext import MAX_RUN_CHARS

__all__ = ["Block", "Directive", "PageFile", "PageFileError", "MAX_RUN_CHARS", "read_page_order", "read_page_file",
           "parse_blocks", "check_front_matter"]

Block = dict[str, Any]
#: Expands a directive that is not a Notion block: (attributes, label) -> the blocks it stands for.
Directive = Callable[[dict[str, str], str | None], list[Block]]

_INDENT = "    "
_KEY = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
_HEADING = re.compile(r"(#{1,3}) (.+)")
_TODO = re.compile(r"- \[([ x])\] (.+)")
_BULLET = re.compile(r"- (.+)")
_NUMBERED = re.compile(r"\d+\. (.+)")
_CALLOUT = re.compile(r"> \[!(\S+)\] (.+)")
_QUOTE = re.compile(r"> (.+)")
_IMAGE = re.compile(r"!\[(.+)\]\((\S+)\)")
_DETAILS = re.compile(r"<details><summary>(.+)</summary>")
_LABEL = r"((?:\\.|[^\]\\])+)"
_DIRECTIVE = re.compile(r"(:{2,})([a-z_]+)(?:\[" + _LABEL + r"\])?(?:\{(.*)\})?")
_LINK = re.compile(r"\[" + _LABEL + r"\]\(([^)\s]+)\)")
_ATTRIBUTE = re.compile(r'\s*([a-z_]+)=(?:"([^"]*)"|([^\s"{}]+))')
_TABLE_RULE = re.compile(r"\|(\s*:?-+:?\s*\|)+")
_SYNTAX_START = re.compile(r"#|>|<|\||::|[*+-] |-$|\d+\) |```|~~~|\$\$|={3,}$|_{3,}$|\*{3,}$")
_ESCAPABLE = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def _is_item(line: str) -> bool:
    return bool(_BULLET.fullmatch(line) or _NUMBERED.fullmatch(line))


class PageFileError(LabError, ValueError):
    """A page file that does not follow the format, with the file and line where it goes wrong."""

    def __init__(self, path: str | Path, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line = str(path), line


@dataclass(frozen=True)
class PageFile:
    """One page file: its key (the file name without extension), front matter and blocks."""

    key: str
    meta: dict[str, Any]
    blocks: list[Block]
    path: Path


def read_page_order(folder: Path, shared: tuple[str, ...] = ()) -> list[Path]:
    """The page files of ``folder`` in the order its ``pages.toml`` lists their keys.

    Every ``.md`` or ``.toml`` file except ``pages.toml`` and the ``shared`` file names is a page
    and must be listed exactly once; a listed key must have exactly one file.
    """
    folder = Path(folder)
    manifest = folder / "pages.toml"
    order = _toml(manifest, manifest.read_text(encoding="utf-8"), first_line=1).get("order")
    if not isinstance(order, list) or not all(isinstance(key, str) for key in order):
        raise PageFileError(manifest, 1, "pages.toml holds order = [\"page-key\", ...]")
    files: dict[str, list[Path]] = {}
    for path in sorted(folder.iterdir()):
        if path.suffix in (".md", ".toml") and path.name not in ("pages.toml", *shared):
            files.setdefault(path.stem, []).append(path)
    repeated = sorted({key for key in order if order.count(key) > 1})
    missing = [key for key in order if key not in files]
    unlisted = sorted(files.keys() - set(order))
    doubled = sorted(key for key, paths in files.items() if len(paths) > 1)
    if repeated or missing or unlisted or doubled:
        raise PageFileError(manifest, 1, f"listed twice: {repeated}; listed without a file: {missing}; files not "
                                         f"listed: {unlisted}; keys with both a .md and a .toml file: {doubled}")
    return [files[key][0] for key in order]


def read_page_file(path: Path, directives: Mapping[str, Directive] | None = None) -> PageFile:
    """Read ``path``: ``+++`` TOML front matter, then the body as blocks."""
    path = Path(path)
    if not _KEY.fullmatch(path.stem):
        raise PageFileError(path, 1, f"the file name is the page key and must be a lowercase slug, got {path.stem!r}")
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines[0] != "+++":
        raise PageFileError(path, 1, "a page file starts with a '+++' line that opens its TOML front matter")
    try:
        end = lines.index("+++", 1)
    except ValueError:
        raise PageFileError(path, 1, "the front matter opened on line 1 is never closed by a '+++' line") from None
    meta = _toml(path, "\n".join(lines[1:end]), first_line=2)
    body = [(number, line) for number, line in enumerate(lines[end + 1:], start=end + 2)]
    return PageFile(path.stem, meta, _Reader(path, directives or {}).blocks(body), path)


def parse_blocks(text: str, path: str | Path = "<text>", directives: Mapping[str, Directive] | None = None
                 ) -> list[Block]:
    """The blocks of a page body given as a string (no front matter); errors name ``path``."""
    return _Reader(path, directives or {}).blocks(list(enumerate(text.split("\n"), start=1)))


def check_front_matter(page: PageFile, required: Mapping[str, type | tuple[type, ...]],
                       optional: Mapping[str, type | tuple[type, ...]] = {}) -> None:
    """Raise unless the front matter has every ``required`` field, no other than ``optional``, of their types."""
    allowed = {**required, **optional}
    missing = [name for name in required if name not in page.meta]
    unknown = [name for name in page.meta if name not in allowed]
    if missing or unknown:
        raise PageFileError(page.path, 1, f"front matter: missing {missing}, unknown {unknown}; "
                                          f"the fields are {sorted(required)} and optionally {sorted(optional)}")
    for name, value in page.meta.items():
        if not isinstance(value, allowed[name]):
            raise PageFileError(page.path, 1, f"front matter: {name} = {value!r} should be of type {allowed[name]}")


def _toml(path: Path, text: str, first_line: int) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"at line (\d+)", str(error))
        line = int(found.group(1)) if found else text.count("\n") + 1  # otherwise "at end of document"
        line += first_line - 1
        raise PageFileError(path, line, f"front matter is not valid TOML: {error}") from None


Lines = list[tuple[int, str]]


class _Reader:
    """Reads numbered lines into blocks; one instance per file, so every error can name it."""

    def __init__(self, path: str | Path, directives: Mapping[str, Directive]) -> None:
        self.path, self.directives = path, directives

    def fail(self, line: int, message: str) -> PageFileError:
        return PageFileError(self.path, line, message)

    # --- blocks ---------------------------------------------------------------------------------

    def blocks(self, lines: Lines) -> list[Block]:
        blocks: list[Block] = []
        i = 0
        while i < len(lines):
            number, line = lines[i]
            if not line.strip():
                i += 1
                continue
            if line.startswith(" "):
                raise self.fail(number, "unexpected indentation: only a list item's children are indented, "
                                        "by four spaces under the item")
            new, i = self._block(lines, i)
            blocks += new
            if i < len(lines) and lines[i][1].strip() and not (_is_item(line) and _is_item(lines[i][1])):
                raise self.fail(lines[i][0], "a block is one line: leave a blank line before the next block "
                                             "(only list items may follow each other directly)")
        return blocks

    def _block(self, lines: Lines, i: int) -> tuple[list[Block], int]:
        number, line = lines[i]
        line = line.rstrip()
        if match := _HEADING.fullmatch(line):
            return [{"type": f"heading_{len(match[1])}", "text": self.rich(match[2], number)}], i + 1
        for pattern, kind in ((_TODO, "to_do"), (_BULLET, "bulleted_list_item"), (_NUMBERED, "numbered_list_item")):
            if match := pattern.fullmatch(line):
                return self._list_item(kind, match, lines, i)
        if match := _CALLOUT.fullmatch(line):
            return [{"type": "callout", "text": self.rich(match[2], number), "icon": match[1]}], i + 1
        if match := _QUOTE.fullmatch(line):
            return [{"type": "quote", "text": self.rich(match[1], number)}], i + 1
        if line == "---":
            return [{"type": "divider"}], i + 1
        if line == "&nbsp;":
            return [{"type": "paragraph", "text": ""}], i + 1
        if match := _IMAGE.fullmatch(line):
            return [{"type": "image", "url": match[2], "caption": self.plain(match[1], number)}], i + 1
        if line.startswith("|"):
            return self._table(lines, i)
        if line.startswith("```"):
            return self._code(lines, i)
        if line == "$$":
            return self._equation(lines, i)
        if match := _DETAILS.fullmatch(line):
            return self._details(match[1], lines, i)
        if match := _DIRECTIVE.fullmatch(line):
            return self._directive(match, lines, i)
        if _SYNTAX_START.match(line):
            raise self.fail(number, f"{line[:20]!r}... is not a construct of this format (see "
                                    "lab/datasets/data/pages/README.md); to start a paragraph with this character, escape it with a backslash")
        return [{"type": "paragraph", "text": self.rich(line, number)}], i + 1

    def _list_item(self, kind: str, match: re.Match[str], lines: Lines, i: int) -> tuple[list[Block], int]:
        number = lines[i][0]
        block: Block = {"type": kind, "text": self.rich(match[match.lastindex or 1], number)}
        if kind == "to_do":
            block["checked"] = match[1] == "x"
        end = i + 1
        while end < len(lines) and lines[end][1].startswith(_INDENT):
            end += 1
        if end > i + 1:
            block["children"] = self.blocks([(n, text[len(_INDENT):]) for n, text in lines[i + 1:end]])
        return [block], end

    def _table(self, lines: Lines, i: int) -> tuple[list[Block], int]:
        end = i
        while end < len(lines) and lines[end][1].startswith("|"):
            end += 1
        rows = lines[i:end]
        if len(rows) < 2 or not _TABLE_RULE.fullmatch(rows[1][1].rstrip()):
            raise self.fail(lines[i][0], "a table is a header row, a '| --- | --- |' rule, then its rows")
        cells = [self._cells(number, text) for number, text in [rows[0], *rows[2:]]]
        for (number, _), row in zip([rows[0], *rows[2:]], cells):
            if len(row) != len(cells[0]):
                raise self.fail(number, f"every table row needs the same number of cells: this row has {len(row)}, "
                                        f"the header {len(cells[0])}")
        return [{"type": "table", "has_column_header": True, "rows": cells}], end

    def _cells(self, number: int, text: str) -> list[str]:
        text = text.rstrip()
        if not text.endswith("|") or text.endswith("\\|"):
            raise self.fail(number, "a table row starts and ends with '|'")
        parts = re.split(r"(?<!\\)\|", text[1:-1])
        return [self.plain(part.strip(), number) for part in parts]

    def _closing(self, lines: Lines, i: int, closing: str, what: str) -> int:
        """The index of the first line after ``i`` that is exactly ``closing``."""
        for end in range(i + 1, len(lines)):
            if lines[end][1].rstrip() == closing:
                return end
        raise self.fail(lines[i][0], f"the {what} opened here is never closed by a {closing!r} line")

    def _code(self, lines: Lines, i: int) -> tuple[list[Block], int]:
        number, line = lines[i]
        language = line[3:].strip()
        if not language:
            raise self.fail(number, "a code block names its language after the fence, e.g. '```plain text'")
        end = self._closing(lines, i, "```", "code block")
        body = "\n".join(text for _, text in lines[i + 1:end])
        return [{"type": "code", "text": self.checked(body, number), "language": language}], end + 1

    def _equation(self, lines: Lines, i: int) -> tuple[list[Block], int]:
        end = self._closing(lines, i, "$$", "equation")
        return [{"type": "equation", "expression": "\n".join(text for _, text in lines[i + 1:end])}], end + 1

    def _details(self, summary: str, lines: Lines, i: int) -> tuple[list[Block], int]:
        number, depth = lines[i][0], 0
        for end in range(i, len(lines)):
            text = lines[end][1].rstrip()
            depth += text.startswith("<details>") - (text == "</details>")
            if depth == 0:
                break
        else:
            raise self.fail(number, "the <details> opened here is never closed by a '</details>' line")
        children = self.blocks(lines[i + 1:end])
        if not children:
            raise self.fail(number, "a toggle holds at least one block between <details> and </details>")
        if match := _HEADING.fullmatch(summary):
            block = {"type": f"heading_{len(match[1])}", "text": self.rich(match[2], number), "toggleable": True}
        else:
            block = {"type": "toggle", "text": self.rich(summary, number)}
        return [{**block, "children": children}], end + 1

    def _directive(self, match: re.Match[str], lines: Lines, i: int) -> tuple[list[Block], int]:
        number = lines[i][0]
        colons, name, attributes = match[1], match[2], self._attributes(match[4] or "", number)
        label = None if match[3] is None else self.plain(match[3], number)
        if len(colons) == 2:
            return self._leaf(name, label, attributes, number), i + 1
        end = self._closing(lines, i, colons, f"{colons}{name} directive")
        inner = lines[i + 1:end]
        if name == "column_list":
            self._expect(name, attributes, set(), label, False, number)
            return [{"type": "column_list", "columns": self._columns(inner, len(colons), number)}], end + 1
        return [self._container(name, label, attributes, self.blocks(inner), number)], end + 1

    def _columns(self, lines: Lines, outer: int, number: int) -> list[list[Block]]:
        columns, i = [], 0
        while i < len(lines):
            if not lines[i][1].strip():
                i += 1
                continue
            opening = _DIRECTIVE.fullmatch(lines[i][1].rstrip())
            if not opening or opening[2] != "column" or not 3 <= len(opening[1]) < outer:
                raise self.fail(lines[i][0], f"a column_list holds only :::column directives (with fewer colons "
                                             f"than its own {outer})")
            end = self._closing(lines, i, opening[1], "column")
            columns.append(self.blocks(lines[i + 1:end]))
            if not columns[-1]:
                raise self.fail(lines[i][0], "a column holds at least one block")
            i = end + 1
        if len(columns) < 2:
            raise self.fail(number, f"a column_list needs at least 2 columns, got {len(columns)}")
        return columns

    def _attributes(self, text: str, number: int) -> dict[str, str]:
        attributes, position = {}, 0
        while position < len(text.rstrip()):
            found = _ATTRIBUTE.match(text, position)
            if not found:
                raise self.fail(number, f"directive attributes are name=\"value\" pairs, got {{{text}}}")
            attributes[found[1]] = found[2] if found[2] is not None else found[3]
            position = found.end()
        return attributes

    def _expect(self, name: str, attributes: dict[str, str], expected: set[str], label: str | None,
                needs_label: bool, number: int) -> None:
        if set(attributes) != expected or (label is None) == needs_label:
            raise self.fail(number, f"{name} takes {'a [label] and ' if needs_label else ''}the attributes "
                                    f"{sorted(expected)}; got {sorted(attributes)}{' and a label' if label else ''}")

    def _leaf(self, name: str, label: str | None, attributes: dict[str, str], number: int) -> list[Block]:
        if name == "synced_block":
            self._expect(name, attributes, {"synced_from"}, label, False, number)
            return [{"type": "synced_block", "synced_from": attributes["synced_from"]}]
        if name == "child_page":
            self._expect(name, attributes, {"page"}, label, True, number)
            return [{"type": "child_page", "page": attributes["page"], "text": self.checked(label, number)}]
        if name == "bookmark":
            self._expect(name, attributes, {"url"}, label, True, number)
            return [{"type": "bookmark", "url": attributes["url"], "caption": label}]
        if name in self.directives:
            try:
                return self.directives[name](attributes, label)
            except (KeyError, ValueError) as error:
                raise self.fail(number, f"::{name}: {error}") from None
        known = ["bookmark", "child_page", "synced_block", *self.directives]
        raise self.fail(number, f"unknown directive ::{name}; this file can use ::{', ::'.join(known)}")

    def _container(self, name: str, label: str | None, attributes: dict[str, str], children: list[Block],
                   number: int) -> Block:
        if not children:
            raise self.fail(number, f"the {name} directive holds at least one block")
        if name == "synced_block":
            self._expect(name, attributes, {"key"}, label, False, number)
            return {"type": "synced_block", "key": attributes["key"], "children": children}
        if name == "meeting_notes":
            self._expect(name, attributes, set(), label, True, number)
            return {"type": "meeting_notes", "text": self.checked(label, number), "children": children}
        raise self.fail(number, f"unknown container directive :::{name}; "
                                "the containers are :::synced_block, :::meeting_notes and ::::column_list")

    # --- inline ---------------------------------------------------------------------------------

    def checked(self, text: str, number: int) -> str:
        if len(text) > MAX_RUN_CHARS:
            raise self.fail(number, f"a rich-text run holds at most {MAX_RUN_CHARS} characters, got {len(text)}: "
                                    f"{text[:60]!r}...; split it into two blocks")
        return text

    def plain(self, text: str, number: int) -> str:
        """Text where only backslash escapes are special (captions, labels, table cells)."""
        return self.checked(re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text), number)

    def rich(self, text: str, number: int) -> str | list[dict[str, Any]]:
        """A string when the text is plain; otherwise runs with ``bold``, ``code`` or ``link``."""
        runs: list[dict[str, Any]] = []
        plain, i = "", 0
        while i < len(text):
            char = text[i]
            if char == "\\" and i + 1 < len(text) and text[i + 1] in _ESCAPABLE:
                plain, i = plain + text[i + 1], i + 2
                continue
            run, end = self._styled(text, i, number)
            if run is None:
                plain, i = plain + char, i + 1
                continue
            if plain:
                runs.append({"text": self.checked(plain, number)})
            runs.append(run)
            plain, i = "", end
        if not runs:
            return self.checked(plain, number)
        if plain:
            runs.append({"text": self.checked(plain, number)})
        return runs

    def _styled(self, text: str, i: int, number: int) -> tuple[dict[str, Any] | None, int]:
        if text.startswith("**", i):
            end = text.find("**", i + 2)
            if end <= i + 2:
                raise self.fail(number, f"unclosed or empty ** at column {i + 1}")
            return {"text": self.plain(text[i + 2:end], number), "bold": True}, end + 2
        if text[i] == "`":
            end = text.find("`", i + 1)
            if end <= i + 1:
                raise self.fail(number, f"unclosed or empty ` at column {i + 1}")
            return {"text": self.checked(text[i + 1:end], number), "code": True}, end + 1
        if text[i] == "[":
            found = _LINK.match(text, i)
            if not found:
                raise self.fail(number, f"'[' at column {i + 1} starts no [text](url) link; escape it as \\[")
            return {"text": self.plain(found[1], number), "link": found[2]}, found.end()
        if text[i] in "*_":
            raise self.fail(number, f"{text[i]!r} at column {i + 1}: emphasis other than **bold** is not part of "
                                    f"this format; escape it as \\{text[i]}")
        return None, i
