"""Constructors for the blocks of the workspace spec, so page outlines read like the page.

Each function returns the plain dict the simulator reads (``{"type": ..., "text": ...}``).
Text arguments are strings or runs; several arguments become a list of runs, which is how a
bold allergen word or a link sits inside a sentence.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "Block", "Run", "Part", "bold", "code_run", "link", "rich",
    "h1", "h2", "h3", "p", "bullet", "numbered", "todo", "toggle", "callout", "quote", "code",
    "divider", "table", "columns", "synced_original", "synced_reference", "image", "bookmark",
    "equation", "child_page", "meeting_notes", "MAX_RUN_CHARS",
]

Block = dict[str, Any]
Run = dict[str, Any]
Part = str | Run

#: Notion refuses rich-text runs longer than this many characters.
MAX_RUN_CHARS = 2000


def bold(text: str) -> Run:
    """A bold run, for the word a reader must not miss (an allergen, a deadline)."""
    return {"text": text, "bold": True}


def code_run(text: str) -> Run:
    """An inline-code run, for product codes and literal words typed into a chat."""
    return {"text": text, "code": True}


def link(text: str, url: str) -> Run:
    """A run that links to ``url``."""
    return {"text": text, "link": url}


def rich(*parts: Part) -> str | list[Run]:
    """One string stays a string; several parts become runs (plain strings as plain runs)."""
    if len(parts) == 1 and isinstance(parts[0], str):
        text = parts[0]
        _check_length(text)
        return text
    runs = [{"text": part} if isinstance(part, str) else dict(part) for part in parts]
    for run in runs:
        _check_length(run["text"])
    return runs


def _check_length(text: str) -> None:
    if len(text) > MAX_RUN_CHARS:
        raise ValueError(f"a rich-text run holds at most {MAX_RUN_CHARS} characters, got {len(text)}: "
                         f"{text[:60]!r}...; split it into two blocks")


def _with_children(block: Block, children: list[Block] | None) -> Block:
    if children:
        block["children"] = list(children)
    return block


def _heading(level: int, parts: tuple[Part, ...], children: list[Block] | None) -> Block:
    block: Block = {"type": f"heading_{level}", "text": rich(*parts)}
    if children is not None:
        # Only a toggleable heading may hold blocks, as in Notion.
        block["toggleable"] = True
        block["children"] = list(children)
    return block


def h1(*parts: Part, children: list[Block] | None = None) -> Block:
    """A page-level heading (used in very few pages); ``children`` makes it a toggleable heading."""
    return _heading(1, parts, children)


def h2(*parts: Part, children: list[Block] | None = None) -> Block:
    """A section heading, the unit a chunk's breadcrumb names; ``children`` makes it toggleable."""
    return _heading(2, parts, children)


def h3(*parts: Part, children: list[Block] | None = None) -> Block:
    """A sub-section heading; ``children`` makes it a toggleable heading."""
    return _heading(3, parts, children)


def p(*parts: Part, children: list[Block] | None = None) -> Block:
    """A paragraph (``p("")`` is the empty paragraph Notion leaves behind an Enter)."""
    return _with_children({"type": "paragraph", "text": rich(*parts)}, children)


def bullet(*parts: Part, children: list[Block] | None = None) -> Block:
    """A bulleted list item; ``children`` nests a list under it."""
    return _with_children({"type": "bulleted_list_item", "text": rich(*parts)}, children)


def numbered(*parts: Part, children: list[Block] | None = None) -> Block:
    """A numbered list item; ``children`` nests a list under it."""
    return _with_children({"type": "numbered_list_item", "text": rich(*parts)}, children)


def todo(text: str, checked: bool) -> Block:
    """A checklist item, ticked or not."""
    return {"type": "to_do", "text": rich(text), "checked": checked}


def toggle(question: str, *answer: Block) -> Block:
    """A toggle whose text is a question and whose children hold the answer."""
    if not answer:
        raise ValueError(f"toggle {question!r} needs at least one answer block as its children")
    return {"type": "toggle", "text": rich(question), "children": list(answer)}


def callout(*parts: Part, icon: str = "⚠️") -> Block:
    """A highlighted box with an emoji icon."""
    return {"type": "callout", "text": rich(*parts), "icon": icon}


def quote(*parts: Part) -> Block:
    """A quotation, usually Don Ernesto's words."""
    return {"type": "quote", "text": rich(*parts)}


def code(text: str, language: str = "plain text") -> Block:
    """A code block; ``text`` keeps its newlines and indentation exactly."""
    return {"type": "code", "text": rich(text), "language": language}


def divider() -> Block:
    """A horizontal rule."""
    return {"type": "divider"}


def table(rows: list[list[str]], has_column_header: bool = True) -> Block:
    """A table; every row must have the same number of cells."""
    widths = {len(row) for row in rows}
    if len(widths) != 1:
        raise ValueError(f"every table row needs the same number of cells, got widths {sorted(widths)}")
    return {"type": "table", "has_column_header": has_column_header, "rows": [list(row) for row in rows]}


def columns(*cols: list[Block]) -> Block:
    """A column list; each argument is the list of blocks of one column."""
    if len(cols) < 2:
        raise ValueError(f"a column list needs at least 2 columns, got {len(cols)}")
    return {"type": "column_list", "columns": [list(col) for col in cols]}


def synced_original(key: str, *children: Block) -> Block:
    """The original of a synced block, named by ``key`` so that references can point at it."""
    return {"type": "synced_block", "key": key, "children": list(children)}


def synced_reference(key: str) -> Block:
    """A reference that shows the synced block ``key`` (it has no children of its own)."""
    return {"type": "synced_block", "synced_from": key}


def image(url: str, caption: str) -> Block:
    """An external image with its caption."""
    return {"type": "image", "url": url, "caption": caption}


def bookmark(url: str, caption: str) -> Block:
    """A link preview with its caption."""
    return {"type": "bookmark", "url": url, "caption": caption}


def equation(expression: str) -> Block:
    """A block equation in LaTeX."""
    return {"type": "equation", "expression": expression}


def child_page(key: str, title: str) -> Block:
    """The block a parent page shows for its sub-page ``key``."""
    return {"type": "child_page", "page": key, "text": title}


def meeting_notes(title: str, *notes: Block) -> Block:
    """A meeting-notes block: the title, then the notes as children."""
    return {"type": "meeting_notes", "text": rich(title), "children": list(notes)}
