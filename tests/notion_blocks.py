"""Build realistic Notion blocks (API version 2026-03-11) and page traversals for tests.

A :class:`Blocks` factory hands out block dicts shaped like ``GET /v1/blocks/{id}/children``
results: deterministic ids, parent, timestamps, ``has_children``, ``in_trash``, creator and
editor, and the content object named after the type. Blocks are arranged in trees of
:class:`Node`; :func:`traverse` walks a tree the way the lab's client does, yielding
``(depth, block)`` pairs, and resolves a synced-block reference to its original's children.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CREATED = "2026-03-02T15:00:00.000Z"
EDITED = "2026-03-20T17:42:00.000Z"
USER = {"object": "user", "id": "7f3c2a10-0000-4000-8000-00000000a001"}


def rich(text: str, **annotations: Any) -> list[dict[str, Any]]:
    """A rich-text list holding one run; ``annotations`` such as ``bold=True`` set its style."""
    return [run(text, **annotations)] if text else []


def run(text: str, link: str | None = None, **annotations: Any) -> dict[str, Any]:
    """One rich-text run with every annotation Notion sends."""
    styles = {"bold": False, "italic": False, "strikethrough": False, "underline": False, "code": False,
              "color": "default"}
    styles.update(annotations)
    return {"type": "text", "text": {"content": text, "link": {"url": link} if link else None},
            "annotations": styles, "plain_text": text, "href": link}


@dataclass
class Node:
    """A block and its children; ``resolves`` points a synced reference at its original node."""

    block: dict[str, Any]
    children: list[Node] = field(default_factory=list)
    resolves: Node | None = None


class Blocks:
    """Factory of block dicts for one page, with ids numbered in creation order."""

    def __init__(self, page_id: str = "1a2b3c4d-0000-4000-8000-000000000001") -> None:
        self.page_id = page_id
        self._count = 0

    def _id(self) -> str:
        self._count += 1
        return f"{self.page_id[:8]}-b10c-4000-8000-{self._count:012d}"

    def block(self, block_type: str, content: dict[str, Any], *children: Node, in_trash: bool = False) -> Node:
        """Any block type with the given content object."""
        block = {
            "object": "block", "id": self._id(), "parent": None,
            "created_time": CREATED, "last_edited_time": EDITED,
            "created_by": USER, "last_edited_by": USER,
            "has_children": bool(children), "archived": in_trash, "in_trash": in_trash,
            "type": block_type, block_type: content,
        }
        return Node(block, list(children))

    def text_block(self, block_type: str, text: str | list[dict[str, Any]], *children: Node, **extra: Any) -> Node:
        """A block whose content is ``rich_text`` (paragraph, list items, toggle, callout, quote...)."""
        runs = rich(text) if isinstance(text, str) else text
        return self.block(block_type, {"rich_text": runs, "color": "default", **extra}, *children)

    def paragraph(self, text: str | list[dict[str, Any]], *children: Node) -> Node:
        return self.text_block("paragraph", text, *children)

    def heading(self, level: int, text: str, *children: Node, toggleable: bool = False) -> Node:
        return self.text_block(f"heading_{level}", text, *children, is_toggleable=toggleable or bool(children))

    def bulleted(self, text: str, *children: Node) -> Node:
        return self.text_block("bulleted_list_item", text, *children)

    def numbered(self, text: str, *children: Node) -> Node:
        return self.text_block("numbered_list_item", text, *children)

    def to_do(self, text: str, checked: bool = False) -> Node:
        return self.text_block("to_do", text, checked=checked)

    def toggle(self, text: str, *children: Node) -> Node:
        return self.text_block("toggle", text, *children)

    def callout(self, text: str, *children: Node, icon: str = "⚠️") -> Node:
        return self.text_block("callout", text, *children, icon={"type": "emoji", "emoji": icon})

    def quote(self, text: str, *children: Node) -> Node:
        return self.text_block("quote", text, *children)

    def code(self, text: str, language: str = "python") -> Node:
        return self.block("code", {"rich_text": rich(text), "caption": [], "language": language})

    def divider(self) -> Node:
        return self.block("divider", {})

    def table(self, rows: list[list[str]], header: bool = True) -> Node:
        width = len(rows[0]) if rows else 0
        cells = [self.block("table_row", {"cells": [rich(cell) for cell in row]}) for row in rows]
        return self.block("table", {"table_width": width, "has_column_header": header,
                                    "has_row_header": False}, *cells)

    def columns(self, *columns: list[Node]) -> Node:
        return self.block("column_list", {}, *[self.block("column", {}, *content) for content in columns])

    def synced_original(self, *children: Node) -> Node:
        return self.block("synced_block", {"synced_from": None}, *children)

    def synced_reference(self, original: Node) -> Node:
        node = self.block("synced_block", {"synced_from": {"type": "block_id", "block_id": original.block["id"]}})
        node.block["has_children"] = True
        node.resolves = original
        return node

    def child_page(self, title: str) -> Node:
        node = self.block("child_page", {"title": title})
        node.block["has_children"] = True
        return node

    def child_database(self, title: str) -> Node:
        return self.block("child_database", {"title": title})

    def image(self, caption: str, url: str = "https://example.com/pan.jpg", kind: str = "external") -> Node:
        source = {"url": url} if kind == "external" else {"url": url, "expiry_time": EDITED}
        return self.block("image", {"caption": rich(caption), "type": kind, kind: source})

    def bookmark(self, url: str, caption: str = "") -> Node:
        return self.block("bookmark", {"caption": rich(caption), "url": url})

    def equation(self, expression: str) -> Node:
        return self.block("equation", {"expression": expression})

    def meeting_notes(self, title: str, *children: Node) -> Node:
        return self.block("meeting_notes", {"title": rich(title), "status": "notes_ready"}, *children)


def traverse(nodes: list[Node], page_id: str = "1a2b3c4d-0000-4000-8000-000000000001",
             depth: int = 0, parent: dict[str, Any] | None = None) -> list[tuple[int, dict[str, Any]]]:
    """``(depth, block)`` pairs in document order, children right after their parent.

    Parents are set as the API reports them (a synced original's children keep the
    original as parent even when reached through a reference).
    """
    parent = parent or {"type": "page_id", "page_id": page_id}
    out: list[tuple[int, dict[str, Any]]] = []
    for node in nodes:
        if node.block["parent"] is None:
            node.block["parent"] = parent
        out.append((depth, node.block))
        children = node.resolves.children if node.resolves is not None else node.children
        holder = node.resolves.block if node.resolves is not None else node.block
        out.extend(traverse(children, page_id, depth + 1, {"type": "block_id", "block_id": holder["id"]}))
    return out


def page_object(page_id: str = "1a2b3c4d-0000-4000-8000-000000000001", title: str = "Ficha: Rol de canela",
                page_type: str | None = "ficha", edited: str = EDITED) -> dict[str, Any]:
    """A knowledge-base row as ``GET /v1/pages/{id}`` returns it (2026-03-11)."""
    return {
        "object": "page", "id": page_id, "created_time": CREATED, "last_edited_time": edited,
        "in_trash": False, "url": f"https://www.notion.so/{page_id.replace('-', '')}",
        "parent": {"type": "data_source_id", "data_source_id": "2f4c0a1e-0000-4000-8000-00000000d5a1"},
        "created_by": USER, "last_edited_by": USER, "icon": None, "cover": None,
        "properties": {
            "Nombre": {"id": "title", "type": "title", "title": rich(title)},
            "Tipo": {"id": "t1", "type": "select",
                     "select": {"id": "s1", "name": page_type, "color": "brown"} if page_type else None},
            "Publicable": {"id": "p1", "type": "checkbox", "checkbox": True},
        },
    }
