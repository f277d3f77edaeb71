"""Workspace records rendered as the JSON objects Notion returns, per API version.

What differs between versions (trash field names, the meeting-notes block's type, rows that name a
database or a data source, databases with or without their schema) is read from
:mod:`lab.simulator.versions`. The field sets are pinned against Notion's in
``tests/data/notion_fields.json``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from lab.notion.richtext import rich_text
from lab.simulator.ids import object_id
from lab.simulator.versions import api_version
from lab.simulator.workspace import Block, DataSource, Integration, Page, Workspace

__all__ = ["page_object", "block_object", "page_as_block", "data_source_object", "database_object",
           "bot_user_object", "workspace_id", "MAX_FILE_UPLOAD_BYTES"]


_SELECT_COLORS = ("blue", "red", "green", "yellow", "purple", "orange", "pink", "brown", "gray")

#: ``bot.workspace_limits.max_file_upload_size_in_bytes`` by plan: 5 MiB on the free plan, 5 GiB
#: on paid plans (Notion's file-upload guide; both values appear in real ``users/me`` answers).
MAX_FILE_UPLOAD_BYTES: dict[str, int] = {"free": 5 * 2**20, "plus": 5 * 2**30, "business": 5 * 2**30,
                                         "enterprise": 5 * 2**30}


def _trash(version: str, in_trash: bool) -> dict[str, bool]:
    return dict.fromkeys(api_version(version).trash_fields, in_trash)


def _user(user_id: str) -> dict[str, str]:
    return {"object": "user", "id": user_id}


def _slug(title: str) -> str:
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]+", "-", ascii_title).strip("-")


def page_url(page: Page) -> str:
    slug = _slug(page.title)
    return f"https://www.notion.so/{slug + '-' if slug else ''}{page.id.replace('-', '')}"


def workspace_id(ws: Workspace) -> str:
    """The workspace's id (``bot.workspace_id``): stable for a workspace name."""
    return object_id("workspace", ws.name)


def _option_id(property_id: str, name: str) -> str:
    """A stable id for a select option, whatever script its name is written in."""
    return object_id("option", property_id, name)[:8]


def _parent(ws: Workspace, parent_type: str, parent_id: str | None, version: str) -> dict[str, Any]:
    if parent_type == "workspace":
        return {"type": "workspace", "workspace": True}
    if parent_type == "data_source_id" and not api_version(version).has_data_sources:
        # Before data sources a row's parent is its database.
        return {"type": "database_id", "database_id": ws.data_sources[parent_id].database_id}
    if parent_type == "data_source_id":
        # A row names its data source and, since 2025-09-03, the database that holds it.
        return {"type": "data_source_id", "data_source_id": parent_id,
                "database_id": ws.data_sources[parent_id].database_id}
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
        "parent": _parent(ws, page.parent_type, page.parent_id, version),
        **_trash(version, page.in_trash),
        # Notion's newer "archive" state, distinct from the trash; the workspace has no archived page.
        "is_archived": False,
        "is_locked": False,
        "properties": _properties(ws, page),
        "url": page_url(page),
        "public_url": None,
    }


def _content(block: Block) -> dict[str, Any]:
    # shared with the workspace, not copied: the simulator encodes every answer before any edit can follow
    content = block.content
    if block.type == "paragraph":
        # Paragraphs gained an optional icon in 2026; Notion sends null when none is set.
        content = {"rich_text": content["rich_text"], "icon": content.get("icon"),
                   **{k: v for k, v in content.items() if k not in ("rich_text", "icon")}}
    return content


def block_object(ws: Workspace, block: Block, version: str) -> dict[str, Any]:
    """A block as ``GET /v1/blocks/{id}`` and ``.../children`` return it."""
    if block.type == "child_page" and block.id in ws.pages:
        # The block and its sub-page are one record in Notion: title, times and editors come from the page.
        parent = _parent(ws, block.parent_type, block.parent_id, version)
        return _child_page(ws, ws.pages[block.id], version, parent)
    kind = api_version(version).meeting_notes_type if block.type == "meeting_notes" else block.type
    return {
        "object": "block",
        "id": block.id,
        "parent": _parent(ws, block.parent_type, block.parent_id, version),
        "created_time": block.created,
        "last_edited_time": block.edited,
        "created_by": _user(block.created_by),
        "last_edited_by": _user(block.edited_by),
        "has_children": ws.has_children(block),
        **_trash(version, block.in_trash),
        "type": kind,
        kind: _content(block),
    }


def page_as_block(ws: Workspace, page: Page, version: str) -> dict[str, Any]:
    """A page id is also a block id: retrieved as a block, a page is a ``child_page``."""
    return _child_page(ws, page, version, _parent(ws, page.parent_type, page.parent_id, version))


def _child_page(ws: Workspace, page: Page, version: str, parent: dict[str, Any]) -> dict[str, Any]:
    return {
        "object": "block",
        "id": page.id,
        "parent": parent,
        "created_time": page.created,
        "last_edited_time": page.edited,
        "created_by": _user(page.created_by),
        "last_edited_by": _user(page.edited_by),
        "has_children": bool(page.children),
        **_trash(version, page.in_trash),
        "type": "child_page",
        "child_page": {"title": page.title},
    }


def _property_schema(name: str, prop: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": prop["id"], "name": name, "description": None, "type": prop["type"]}
    if prop["type"] == "select":
        entry["select"] = {"options": [{"id": _option_id(prop["id"], option), "name": option,
                                        "color": _SELECT_COLORS[i % len(_SELECT_COLORS)], "description": None}
                                       for i, option in enumerate(prop.get("options", []))]}
    else:
        entry[prop["type"]] = {}
    return entry


def data_source_object(ds: DataSource, version: str) -> dict[str, Any]:
    """The data source (the table of pages and its property schema)."""
    return {
        "object": "data_source",
        "id": ds.id,
        "cover": None,
        "icon": None,
        "created_time": ds.created,
        "last_edited_time": ds.edited,
        "created_by": _user(ds.created_by),
        "last_edited_by": _user(ds.edited_by),
        "title": rich_text(ds.title),
        "description": [],
        # A database at the top of the workspace is a full page; only one inside a page can be inline.
        "is_inline": False,
        "properties": {name: _property_schema(name, prop) for name, prop in ds.properties.items()},
        "parent": {"type": "database_id", "database_id": ds.database_id},
        "database_parent": {"type": "workspace", "workspace": True},
        "url": f"https://www.notion.so/{ds.database_id.replace('-', '')}",
        "public_url": None,
        **_trash(version, ds.in_trash),
    }


def database_object(sources: list[DataSource], version: str) -> dict[str, Any]:
    """``GET /v1/databases/{id}``: before 2025-09-03 the database and its one table (schema included);
    from then on the container, listing its data sources by id and name."""
    first = sources[0]
    common = {"object": "database", "id": first.database_id, "cover": None, "icon": None,
              "created_time": min(ds.created for ds in sources),
              "last_edited_time": max(ds.edited for ds in sources),
              "created_by": _user(first.created_by), "last_edited_by": _user(first.edited_by),
              "title": rich_text(first.title), "description": [], "is_inline": False}
    where = {"parent": {"type": "workspace", "workspace": True},
             "url": f"https://www.notion.so/{first.database_id.replace('-', '')}", "public_url": None,
             **_trash(version, all(ds.in_trash for ds in sources))}
    if not api_version(version).has_data_sources:
        return {**common, "properties": {name: _property_schema(name, prop) for name, prop in first.properties.items()},
                **where}
    return {**common, "is_locked": False, **where,
            "data_sources": [{"id": ds.id, "name": ds.title} for ds in sources]}


def bot_user_object(ws: Workspace, integration: Integration, *, plan: str = "free") -> dict[str, Any]:
    """``GET /v1/users/me``: the integration's bot user, with its workspace and the plan's upload limit."""
    return {
        "object": "user",
        "id": integration.bot_id,
        "name": integration.name,
        "avatar_url": None,
        "type": "bot",
        "bot": {"owner": {"type": "workspace", "workspace": True}, "workspace_name": ws.name,
                "workspace_id": workspace_id(ws),
                "workspace_limits": {"max_file_upload_size_in_bytes": MAX_FILE_UPLOAD_BYTES[plan]}},
    }
