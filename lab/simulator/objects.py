"""Workspace records rendered as the JSON objects Notion returns, per API version.

Version ``2026-03-11`` carries ``in_trash`` only and names the meeting-notes block
``meeting_notes``; ``2025-09-03`` carries both ``archived`` and ``in_trash`` (same value) and
still calls that block ``transcription``.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from typing import Any

from lab.notion.api import LATEST_VERSION, VERSIONS
from lab.notion.richtext import rich_text
from lab.simulator.ids import object_id
from lab.simulator.workspace import Block, DataSource, Integration, Page, Workspace

__all__ = ["page_object", "block_object", "data_source_object", "bot_user_object"]


_SELECT_COLORS = ("blue", "red", "green", "yellow", "purple", "orange", "pink", "brown", "gray")


def _trash(version: str, in_trash: bool) -> dict[str, bool]:
    if version == "2025-09-03":
        return {"archived": in_trash, "in_trash": in_trash}
    return {"in_trash": in_trash}


def _user(user_id: str) -> dict[str, str]:
    return {"object": "user", "id": user_id}


def _slug(title: str) -> str:
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]+", "-", ascii_title).strip("-")


def page_url(page: Page) -> str:
    slug = _slug(page.title)
    return f"https://www.notion.so/{slug + '-' if slug else ''}{page.id.replace('-', '')}"


def _option_id(property_id: str, name: str) -> str:
    """A stable id for a select option, whatever script its name is written in."""
    return object_id("option", property_id, name)[:8]


def _parent(parent_type: str, parent_id: str | None) -> dict[str, Any]:
    if parent_type == "workspace":
        return {"type": "workspace", "workspace": True}
    return {"type": parent_type, parent_type: parent_id}


def _properties(ws: Workspace, page: Page) -> dict[str, Any]:
    if page.parent_type != "data_source_id":
        return {"title": {"id": "title", "type": "title", "title": rich_text(page.title)}}
    schema = ws.data_sources[page.parent_id].properties
    props: dict[str, Any] = {}
    for name, prop in schema.items():
        if prop["type"] == "title":
            props[name] = {"id": prop["id"], "type": "title", "title": rich_text(page.title)}
        elif prop["type"] == "select":
            options = prop.get("options", [])
            color = _SELECT_COLORS[options.index(page.type) % len(_SELECT_COLORS)] if page.type in options else "default"
            props[name] = {"id": prop["id"], "type": "select",
                           "select": {"id": _option_id(prop["id"], page.type), "name": page.type, "color": color}}
        elif prop["type"] == "checkbox":
            props[name] = {"id": prop["id"], "type": "checkbox", "checkbox": page.publishable}
    return props


def page_object(ws: Workspace, page: Page, version: str) -> dict[str, Any]:
    """A page as ``GET /v1/pages/{id}`` and list endpoints return it."""
    return {
        "object": "page",
        "id": page.id,
        "created_time": page.created,
        "last_edited_time": page.edited,
        "created_by": _user(page.created_by),
        "last_edited_by": _user(page.edited_by),
        "cover": None,
        "icon": {"type": "emoji", "emoji": page.icon} if page.icon else None,
        "parent": _parent(page.parent_type, page.parent_id),
        **_trash(version, page.in_trash),
        "is_locked": False,
        "properties": _properties(ws, page),
        "url": page_url(page),
        "public_url": None,
    }


def block_object(ws: Workspace, block: Block, version: str) -> dict[str, Any]:
    """A block as ``GET /v1/blocks/{id}`` and ``.../children`` return it."""
    kind = block.type
    content = copy.deepcopy(block.content)
    if kind == "child_page" and block.id in ws.pages:
        content = {"title": ws.pages[block.id].title}
    if kind == "meeting_notes" and version == "2025-09-03":
        kind = "transcription"
    return {
        "object": "block",
        "id": block.id,
        "parent": _parent(block.parent_type, block.parent_id),
        "created_time": block.created,
        "last_edited_time": block.edited,
        "created_by": _user(block.created_by),
        "last_edited_by": _user(block.edited_by),
        "has_children": ws.has_children(block),
        **_trash(version, block.in_trash),
        "type": kind,
        kind: content,
    }


def page_as_block(ws: Workspace, page: Page, version: str) -> dict[str, Any]:
    """A page id is also a block id: retrieved as a block, a page is a ``child_page``."""
    return {
        "object": "block",
        "id": page.id,
        "parent": _parent(page.parent_type, page.parent_id),
        "created_time": page.created,
        "last_edited_time": page.edited,
        "created_by": _user(page.created_by),
        "last_edited_by": _user(page.edited_by),
        "has_children": bool(page.children),
        **_trash(version, page.in_trash),
        "type": "child_page",
        "child_page": {"title": page.title},
    }


def data_source_object(ds: DataSource, version: str) -> dict[str, Any]:
    """The data source (the table of pages and its property schema)."""
    properties = {}
    for name, prop in ds.properties.items():
        entry: dict[str, Any] = {"id": prop["id"], "name": name, "type": prop["type"]}
        if prop["type"] == "select":
            entry["select"] = {"options": [{"id": _option_id(prop["id"], o), "name": o,
                                            "color": _SELECT_COLORS[i % len(_SELECT_COLORS)]}
                                           for i, o in enumerate(prop.get("options", []))]}
        else:
            entry[prop["type"]] = {}
        properties[name] = entry
    return {
        "object": "data_source",
        "id": ds.id,
        "created_time": ds.created,
        "last_edited_time": ds.edited,
        "created_by": _user(ds.created_by),
        "last_edited_by": _user(ds.edited_by),
        "title": rich_text(ds.title),
        "description": [],
        "icon": None,
        "parent": {"type": "database_id", "database_id": ds.database_id},
        "database_parent": {"type": "workspace", "workspace": True},
        **_trash(version, ds.in_trash),
        "properties": properties,
        "url": f"https://www.notion.so/{ds.database_id.replace('-', '')}",
    }


def bot_user_object(ws: Workspace, integration: Integration) -> dict[str, Any]:
    """``GET /v1/users/me``: the integration's bot user."""
    return {
        "object": "user",
        "id": integration.bot_id,
        "name": integration.name,
        "avatar_url": None,
        "type": "bot",
        "bot": {"owner": {"type": "workspace", "workspace": True}, "workspace_name": ws.name},
    }
