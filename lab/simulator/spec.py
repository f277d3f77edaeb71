"""A workspace described in JSON, the format of the lab's own workspaces, checked before it is built.

``lab/datasets/data/workspace/bakery.json`` is one; ``docs/workspace-spec.md`` documents the format
for anyone who describes a workspace of their own (users, data sources, pages and their blocks,
integrations and what is shared with each). :func:`check_workspace_spec` reads the whole spec before
anything is built and stops at the first field that is wrong, naming it by its path in the file
(``pages[3].blocks[1].type``) and saying what would be right: a typo is an error, never a page that
silently lacks a property or a block that quietly became something else.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from lab.simulator.workspace import WorkspaceError

__all__ = ["WorkspaceSpecError", "check_workspace_spec", "load_workspace_spec", "CAPABILITIES", "PROPERTY_TYPES"]

#: Capabilities an integration may be given (Notion's names); the simulator serves reads, so only
#: ``read_content`` changes what an integration may call.
CAPABILITIES = frozenset({"read_content", "update_content", "insert_content", "read_comments", "insert_comments"})
#: The property types a data source can have: one title, and at most one select (the page's ``type``)
#: and one checkbox (the page's ``publishable``).
PROPERTY_TYPES = ("title", "select", "checkbox")

_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z")
_TIME_HINT = "a UTC time to the minute as Notion writes it, e.g. \"2026-03-20T17:42:00.000Z\""
_TOP = {"name": True, "language": False, "users": True, "data_sources": False, "pages": False, "integrations": True}
_USER = {"key": True, "name": True, "email": False}
_DATA_SOURCE = {"key": True, "title": True, "properties": True, "created": False, "edited": False,
                "created_by": False, "edited_by": False, "database": False}
_PAGE = {"key": True, "title": True, "parent": False, "type": False, "publishable": False, "icon": False,
         "created": False, "edited": False, "created_by": False, "edited_by": False, "in_trash": False,
         "blocks": False}
_INTEGRATION = {"key": True, "name": True, "capabilities": False, "shares": False}
_RUN = {"text": True, "bold": False, "italic": False, "code": False, "link": False}

_TEXT = ("text", "children")
#: The fields each block type may have besides ``type`` (children only where Notion nests blocks).
_BLOCK_FIELDS: dict[str, tuple[str, ...]] = {
    "paragraph": _TEXT, "bulleted_list_item": _TEXT, "numbered_list_item": _TEXT, "quote": _TEXT, "toggle": _TEXT,
    "heading_1": ("text", "toggleable", "children"), "heading_2": ("text", "toggleable", "children"),
    "heading_3": ("text", "toggleable", "children"), "to_do": ("text", "checked", "children"),
    "callout": ("text", "icon", "children"), "code": ("text", "language"), "divider": (),
    "table": ("rows", "has_column_header"), "column_list": ("columns",),
    "synced_block": ("key", "synced_from", "children"),
    "child_page": ("page", "text"), "child_database": ("text",), "image": ("url", "caption"),
    "bookmark": ("url", "caption"), "equation": ("expression",), "meeting_notes": ("text", "children"),
}


class WorkspaceSpecError(WorkspaceError):
    """A workspace spec that cannot be built: the message names the field by its path and what would be right."""


def load_workspace_spec(path: str | Path) -> dict[str, Any]:
    """Read a workspace spec file (UTF-8 JSON) and check it, so a mistake is reported with the file's name."""
    path = Path(path)
    try:
        spec = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise WorkspaceSpecError(f"no workspace spec at {path}; write one as docs/workspace-spec.md "
                                 "describes") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WorkspaceSpecError(f"{path}: not UTF-8 JSON ({exc})") from None
    except RecursionError:
        raise WorkspaceSpecError(f"{path}: nested deeper than JSON can be read here (a list or object inside "
                                 "about a thousand others); Notion itself nests blocks far less deep") from None
    try:
        check_workspace_spec(spec)
    except WorkspaceSpecError as exc:
        raise WorkspaceSpecError(f"{path}: {exc}") from None
    return spec


def check_workspace_spec(spec: Any) -> None:
    """Raise :class:`WorkspaceSpecError` at the first field of ``spec`` that is wrong, else return."""
    try:
        _check(spec)
    except RecursionError:  # blocks nested about a thousand deep: the walk cannot follow them
        raise WorkspaceSpecError("blocks nested deeper than the spec can be read (about a thousand levels); "
                                 "Notion itself nests blocks far less deep (see docs/workspace-spec.md)") from None


def _check(spec: Any) -> None:
    _fields(spec, _TOP, "the spec")
    _text(spec["name"], "name")
    if "language" in spec:
        _text(spec["language"], "language")
    users = _records(spec, "users", _USER, at_least_one=True)
    user_keys = _unique_keys(users, "users")
    for i, user in enumerate(users):
        _text(user["name"], f"users[{i}].name")
        if user.get("email") is not None:
            _text(user["email"], f"users[{i}].email")
    sources = _records(spec, "data_sources", _DATA_SOURCE)
    source_keys = _unique_keys(sources, "data_sources")
    for i, source in enumerate(sources):
        _data_source(source, f"data_sources[{i}]", user_keys)
    pages = _records(spec, "pages", _PAGE)
    page_keys = _unique_keys(pages, "pages")
    parents = {page["key"]: page.get("parent", {"type": "workspace"}) for page in pages}
    originals = _synced_originals(pages)
    sources_by_key = dict(zip(source_keys, sources))
    for i, page in enumerate(pages):
        _page(page, f"pages[{i}]", user_keys, sources_by_key, parents, originals)
    _sub_pages_shown_once(pages)
    integrations = _records(spec, "integrations", _INTEGRATION, at_least_one=True)
    _unique_keys(integrations, "integrations")
    for i, integration in enumerate(integrations):
        _integration(integration, f"integrations[{i}]", set(source_keys), set(page_keys))


# ---------------------------------------------------------------------- records and their fields

def _fail(where: str, message: str) -> WorkspaceSpecError:
    return WorkspaceSpecError(f"{where}: {message} (see docs/workspace-spec.md)")


def _fields(record: Any, allowed: Mapping[str, bool], where: str) -> None:
    """``record`` is an object with every required field and no unknown one."""
    if not isinstance(record, dict):
        raise _fail(where, f"should be a JSON object, not {_shown(record)}")
    missing = [name for name, required in allowed.items() if required and name not in record]
    unknown = sorted(set(record) - set(allowed))
    if missing or unknown:
        raise _fail(where, ", ".join(filter(None, [f"missing {missing}" if missing else "",
                                                   f"unknown {unknown}" if unknown else ""]))
                    + f"; the fields are {sorted(allowed)}")


def _records(spec: dict[str, Any], name: str, allowed: Mapping[str, bool], at_least_one: bool = False
             ) -> list[dict[str, Any]]:
    records = spec.get(name, [])
    if not isinstance(records, list) or (at_least_one and not records):
        raise _fail(name, f"should be a list of objects{' with at least one' if at_least_one else ''}, "
                          f"not {_shown(records)}")
    for i, record in enumerate(records):
        _fields(record, allowed, f"{name}[{i}]")
    return records


def _unique_keys(records: list[dict[str, Any]], name: str) -> list[str]:
    keys: list[str] = []
    for i, record in enumerate(records):
        _text(record["key"], f"{name}[{i}].key")
        if record["key"] in keys:
            raise _fail(f"{name}[{i}].key", f"{record['key']!r} is used twice; every key is unique")
        keys.append(record["key"])
    return keys


def _text(value: Any, where: str) -> None:
    if not isinstance(value, str) or not value.strip():
        raise _fail(where, f"should be a non-empty string, not {_shown(value)}")


def _flag(record: Mapping[str, Any], name: str, where: str) -> None:
    if name in record and not isinstance(record[name], bool):
        raise _fail(f"{where}.{name}", f"should be true or false, not {_shown(record[name])}")


def _authored(record: Mapping[str, Any], where: str, users: list[str]) -> None:
    """``created`` and ``edited`` times in Notion's format, in order; authors among the users."""
    for name in ("created", "edited"):
        if name in record and not (isinstance(record[name], str) and _TIME.fullmatch(record[name])
                                   and _is_date(record[name])):
            raise _fail(f"{where}.{name}", f"should be {_TIME_HINT}, not {_shown(record[name])}")
    if "created" in record and "edited" in record and record["edited"] < record["created"]:
        raise _fail(f"{where}.edited", f"{record['edited']} is before created {record['created']}")
    for name in ("created_by", "edited_by"):
        if name in record and record[name] not in users:
            raise _fail(f"{where}.{name}", f"{_shown(record[name])} is not a user key; the users are {users}")


def _is_date(stamp: str) -> bool:
    """Whether a stamp of :data:`_TIME`'s form names a real moment (no 30 February, no hour 25): one that does
    not would be served, kept as an index's watermark, and refused by every later query that filters on it."""
    try:
        datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.000Z")
    except ValueError:
        return False
    return True


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


# ---------------------------------------------------------------------- data sources, pages, integrations

def _data_source(source: dict[str, Any], where: str, users: list[str]) -> None:
    _text(source["title"], f"{where}.title")
    if "database" in source:  # data sources naming the same database are its several sources
        _text(source["database"], f"{where}.database")
    _authored(source, where, users)
    properties = source["properties"]
    if not isinstance(properties, dict):
        raise _fail(f"{where}.properties", f"should be an object of name -> {{\"type\": ...}}, "
                                           f"not {_shown(properties)}")
    seen: list[str] = []
    for name, prop in properties.items():
        at = f"{where}.properties[{name!r}]"
        _fields(prop, {"type": True, "options": False}, at)
        if prop["type"] not in PROPERTY_TYPES:
            raise _fail(f"{at}.type", f"{_shown(prop['type'])} is not served; a data source has one title, and at "
                                      f"most one select (each page's \"type\") and one checkbox (its \"publishable\")")
        if prop["type"] in seen:
            raise _fail(at, f"a second {prop['type']} property; there is at most one of each type")
        seen.append(prop["type"])
        if "options" in prop and (prop["type"] != "select" or not _strings(prop["options"])):
            raise _fail(f"{at}.options", "only a select has options: a list of non-empty strings")
    if "title" not in seen:
        raise _fail(f"{where}.properties", "has no title property; add one, e.g. \"Name\": {\"type\": \"title\"}")


def _page(page: dict[str, Any], where: str, users: list[str], sources: Mapping[str, dict[str, Any]],
          parents: Mapping[str, Any], originals: set[str]) -> None:
    _text(page["title"], f"{where}.title")
    _authored(page, where, users)
    for name in ("publishable", "in_trash"):
        _flag(page, name, where)
    if "type" in page:
        _text(page["type"], f"{where}.type")
    if page.get("icon") is not None:  # null: no icon, as Notion writes it
        _text(page["icon"], f"{where}.icon")
    parent = page.get("parent", {"type": "workspace"})
    known = {"data_source": sources, "page": parents}
    if not isinstance(parent, dict) or parent.get("type") not in ("workspace", *known):
        raise _fail(f"{where}.parent", "should be {\"type\": \"workspace\"}, {\"type\": \"data_source\", \"key\": ...} "
                                       "(a row) or {\"type\": \"page\", \"key\": ...} (a sub-page), "
                                       f"not {_shown(parent)}")
    _fields(parent, {"type": True} if parent["type"] == "workspace" else {"type": True, "key": True}, f"{where}.parent")
    if parent["type"] != "workspace":
        _text(parent["key"], f"{where}.parent.key")
    if parent["type"] != "workspace" and parent["key"] not in known[parent["type"]]:
        raise _fail(f"{where}.parent.key", f"no {parent['type'].replace('_', ' ')} has the key {_shown(parent['key'])}")
    if parent["type"] == "page" and _ancestor_cycle(page["key"], parents):
        raise _fail(f"{where}.parent", f"page {page['key']!r} would be its own ancestor")
    if parent["type"] == "data_source":
        options = next((p.get("options") for p in sources[parent["key"]]["properties"].values()
                        if p["type"] == "select"), None)
        if "type" in page and options is not None and page["type"] not in options:
            raise _fail(f"{where}.type", f"{_shown(page['type'])} is not an option of the data source's select "
                                         f"{options}")
    blocks = page.get("blocks", [])
    for at, block in _walk(blocks, f"{where}.blocks"):
        _block(block, at, page["key"], parents, originals)


def _sub_pages_shown_once(pages: list[dict[str, Any]]) -> None:
    """Every sub-page is shown by one ``child_page`` block of its parent, as in Notion."""
    shown: dict[str, str] = {}
    for i, page in enumerate(pages):
        for at, block in _walk(page.get("blocks", []), f"pages[{i}].blocks"):
            if block.get("type") == "child_page":
                if block["page"] in shown:
                    raise _fail(f"{at}.page", f"page {block['page']!r} is already shown at {shown[block['page']]}")
                shown[block["page"]] = at
    for i, page in enumerate(pages):
        parent = page.get("parent", {})
        if parent.get("type") == "page" and page["key"] not in shown:
            raise _fail(f"pages[{i}].parent", f"sub-page {page['key']!r} is not shown in page {parent['key']!r}; add "
                                              f"{{\"type\": \"child_page\", \"page\": {page['key']!r}}} to its blocks")


def _ancestor_cycle(key: str, parents: Mapping[str, Any]) -> bool:
    seen, current = set(), key
    while isinstance(parents.get(current), dict) and parents[current].get("type") == "page":
        if current in seen:
            return True
        seen.add(current)
        current = parents[current].get("key")
    return current == key


def _integration(integration: dict[str, Any], where: str, sources: set[str], pages: set[str]) -> None:
    _text(integration["name"], f"{where}.name")
    capabilities = integration.get("capabilities", ["read_content"])
    if not isinstance(capabilities, list) or not set(capabilities) <= CAPABILITIES:
        raise _fail(f"{where}.capabilities", f"should be a list drawn from {sorted(CAPABILITIES)}, "
                                             f"not {_shown(capabilities)}")
    shares = integration.get("shares", [])
    if not isinstance(shares, list):
        raise _fail(f"{where}.shares", f"should be a list of {{\"type\": ..., \"key\": ...}}, not {_shown(shares)}")
    for i, share in enumerate(shares):
        at = f"{where}.shares[{i}]"
        _fields(share, {"type": True, "key": True}, at)
        _text(share["type"], f"{at}.type")
        _text(share["key"], f"{at}.key")
        known = {"data_source": sources, "page": pages}.get(share["type"])
        if known is None:
            raise _fail(f"{at}.type", f"{_shown(share['type'])} cannot be shared; share a \"data_source\" "
                                      "or a \"page\"")
        if share["key"] not in known:
            raise _fail(f"{at}.key", f"no {share['type'].replace('_', ' ')} has the key {_shown(share['key'])}")


# ---------------------------------------------------------------------- blocks

def _walk(blocks: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every block under ``blocks`` with its path, children and columns included, parents first."""
    if not isinstance(blocks, list):
        raise _fail(where, f"should be a list of blocks, not {_shown(blocks)}")
    for i, block in enumerate(blocks):
        at = f"{where}[{i}]"
        if not isinstance(block, dict):
            raise _fail(at, f"should be a block object such as {{\"type\": \"paragraph\", \"text\": ...}}, "
                            f"not {_shown(block)}")
        yield at, block
        if "children" in block:
            yield from _walk(block["children"], f"{at}.children")
        columns = block.get("columns", [])
        if block.get("type") == "column_list" and isinstance(columns, list):
            for j, column in enumerate(columns):
                yield from _walk(column, f"{at}.columns[{j}]")


def _synced_originals(pages: list[dict[str, Any]]) -> set[str]:
    originals: set[str] = set()
    for i, page in enumerate(pages):
        for at, block in _walk(page.get("blocks", []), f"pages[{i}].blocks"):
            if block.get("type") == "synced_block" and "key" in block:
                _text(block["key"], f"{at}.key")
                if block["key"] in originals:
                    raise _fail(f"{at}.key", f"synced block {block['key']!r} is defined twice")
                originals.add(block["key"])
    return originals


def _block(block: dict[str, Any], where: str, page: str, parents: Mapping[str, Any], originals: set[str]) -> None:
    kind = block.get("type")
    if not isinstance(kind, str) or kind not in _BLOCK_FIELDS:
        raise _fail(f"{where}.type", f"{_shown(kind)} is not a block type; use one of {sorted(_BLOCK_FIELDS)}")
    _fields(block, {"type": True, **{name: False for name in _BLOCK_FIELDS[kind]}}, where)
    if "text" in block:
        _rich_text(block["text"], f"{where}.text")
    for name in ("toggleable", "checked", "has_column_header"):
        _flag(block, name, where)
    if kind.startswith("heading") and block.get("children") and not block.get("toggleable"):
        raise _fail(f"{where}.children", "only a toggleable heading holds blocks; add \"toggleable\": true")
    for name in ("icon", "language", "url", "caption", "page", "expression", "synced_from"):
        if name in block:
            _text(block[name], f"{where}.{name}")
    _BLOCK_CHECKS.get(kind, lambda *_: None)(block, where, page, parents, originals)


def _rich_text(text: Any, where: str) -> None:
    if isinstance(text, str):
        return
    if not isinstance(text, list):
        raise _fail(where, f"should be a string or a list of runs such as {{\"text\": ..., \"bold\": true}}, "
                           f"not {_shown(text)}")
    for i, run in enumerate(text):
        _fields(run, _RUN, f"{where}[{i}]")
        if not isinstance(run["text"], str):
            raise _fail(f"{where}[{i}].text", f"should be a string, not {_shown(run['text'])}")
        for name in ("bold", "italic", "code"):
            _flag(run, name, f"{where}[{i}]")
        if "link" in run and run["link"] is not None:
            _text(run["link"], f"{where}[{i}].link")


def _strings(values: Any) -> bool:
    return isinstance(values, list) and all(isinstance(value, str) and value.strip() for value in values)


def _table(block: dict[str, Any], where: str, *_: Any) -> None:
    rows = block.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(row, list) and row for row in rows) \
            or len({len(row) for row in rows}) != 1 or not all(isinstance(cell, str) for row in rows for cell in row):
        raise _fail(f"{where}.rows", "should be a list of rows of equal width, each a list of strings")


def _column_list(block: dict[str, Any], where: str, *_: Any) -> None:
    columns = block.get("columns")
    if not isinstance(columns, list) or len(columns) < 2 or not all(isinstance(column, list) for column in columns):
        raise _fail(f"{where}.columns", "should be a list of at least two columns, each a list of blocks")


def _synced_block(block: dict[str, Any], where: str, page: str, parents: Mapping[str, Any], originals: set[str]
                  ) -> None:
    if ("key" in block) == ("synced_from" in block):
        raise _fail(where, "a synced block is an original with a \"key\" (and children) or a reference with "
                           "\"synced_from\": the key of an original")
    if "synced_from" in block:
        _text(block["synced_from"], f"{where}.synced_from")
    if "synced_from" in block and block["synced_from"] not in originals:
        raise _fail(f"{where}.synced_from", f"no synced block has the key {_shown(block['synced_from'])}")
    if "synced_from" in block and "children" in block:
        raise _fail(f"{where}.children", "a reference shows its original's children; give it none")


def _child_page(block: dict[str, Any], where: str, page: str, parents: Mapping[str, Any], *_: Any) -> None:
    if "page" not in block:
        raise _fail(where, "a child_page block needs \"page\": the key of the sub-page it shows")
    _text(block["page"], f"{where}.page")
    parent = parents.get(block["page"])
    if parent is None:
        raise _fail(f"{where}.page", f"no page has the key {_shown(block['page'])}")
    if parent != {"type": "page", "key": page}:
        raise _fail(f"{where}.page", f"page {block['page']!r} is shown here, so its parent should be "
                                     f"{{\"type\": \"page\", \"key\": {page!r}}}")


def _equation(block: dict[str, Any], where: str, *_: Any) -> None:
    if "expression" not in block:
        raise _fail(where, "an equation needs \"expression\": its LaTeX")


#: What a block of each of these types needs beyond its fields' own shapes.
_BLOCK_CHECKS: dict[str, Callable[..., None]] = {"table": _table, "column_list": _column_list,
                                                 "synced_block": _synced_block, "child_page": _child_page,
                                                 "equation": _equation}
