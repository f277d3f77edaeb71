"""The workspace the simulator serves: pages, their block trees, a data source, integrations.

A :class:`Workspace` is built from a plain spec (``lab/datasets/data/workspace/bakery.json`` for
the lessons, small hand-made specs in the tests, the format of ``docs/workspace-spec.md``) and then
edited the way a person edits Notion: change a block's text, delete a block, add a page or a
sub-page, rename a page, untick "Publicable", move a page to the trash, share or unshare it with
an integration. Content edits stamp ``last_edited_time`` from the clock, rounded down to the
minute, on the page whose content changed and nowhere else: an edit inside a sub-page stamps the
sub-page, not its parent, as in Notion. Adding a sub-page, or trashing, restoring or renaming one,
changes its parent's content too (its ``child_page`` block comes, goes or shows the new title),
so it stamps both.

A sub-page created inside a block of a page (a toggle, a column, a callout) has that block as
its parent (``{"type": "block_id", ...}``), as Notion reports it; its ``child_page`` block sits
under that block, and the page that holds the block is the one whose content changes.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Iterator

from lab.errors import LabError
from lab.clock import Clock, SimulatedClock, iso_minute
from lab.simulator.ids import object_id
from lab.notion.richtext import plain_text, rich_text

__all__ = ["Workspace", "Page", "Block", "DataSource", "Integration", "User", "WorkspaceError", "revision"]

# Every change to a page, a data source or an integration's access, in any workspace, takes the
# next number: a listing computed at one revision is still right while the revision has not moved.
_changes = itertools.count(1)
_revision = 0


def revision() -> int:
    """A number that moves whenever anything a listing depends on changed (titles, properties,
    timestamps, parents, trash, sharing); the simulator caches listings under it."""
    return _revision


def _changed() -> None:
    global _revision
    _revision = next(_changes)


class _Tracked:
    """Counts every attribute assignment as a change (assignments from outside the editing methods too)."""

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        _changed()

BLOCK_TYPES = frozenset({
    "paragraph", "heading_1", "heading_2", "heading_3", "bulleted_list_item", "numbered_list_item",
    "to_do", "toggle", "callout", "quote", "code", "divider", "table", "table_row", "column_list",
    "column", "synced_block", "child_page", "child_database", "image", "bookmark", "equation",
    "meeting_notes",
})
_TEXT_TYPES = frozenset({"paragraph", "heading_1", "heading_2", "heading_3", "bulleted_list_item",
                         "numbered_list_item", "to_do", "toggle", "callout", "quote", "code"})
#: Blocks a person can create a sub-page inside: those that nest blocks (a heading only if it is a
#: toggle, a synced block only as its original).
_PAGE_HOLDERS = (_TEXT_TYPES - {"code"}) | {"column", "synced_block"}


class WorkspaceError(LabError, ValueError):
    """A workspace spec or an edit that does not make sense (unknown key, bad block type...)."""


@dataclass
class User:
    key: str
    id: str
    name: str
    type: str = "person"


@dataclass
class DataSource(_Tracked):
    key: str
    id: str
    database_id: str
    title: str
    properties: dict[str, dict[str, Any]]
    created: str
    edited: str
    created_by: str
    edited_by: str
    in_trash: bool = False


@dataclass
class Page(_Tracked):
    key: str
    id: str
    title: str
    type: str
    publishable: bool
    parent_type: str  # "data_source_id", "page_id", "block_id" or "workspace"
    parent_id: str | None
    created: str
    edited: str
    created_by: str
    edited_by: str
    icon: str | None = None
    in_trash: bool = False
    children: list[str] = field(default_factory=list)


@dataclass
class Block:
    id: str
    type: str
    content: dict[str, Any]
    parent_type: str  # "page_id" or "block_id"
    parent_id: str
    page_id: str
    created: str
    edited: str
    created_by: str
    edited_by: str
    in_trash: bool = False
    children: list[str] = field(default_factory=list)
    synced_from: str | None = None


@dataclass
class Integration(_Tracked):
    """One internal integration (one connection): what it may do and what is shared with it."""

    key: str
    name: str
    bot_id: str
    capabilities: frozenset[str]
    shared: set[str] = field(default_factory=set)
    excluded: set[str] = field(default_factory=set)


class Workspace:
    """An in-memory Notion workspace with Notion's visibility rules and edit semantics.

    Every edit is made by ``user`` (a user's key): the first user of the spec unless told.
    """

    def __init__(self, name: str, clock: Clock | None = None) -> None:
        self.name = name
        self.clock = clock or SimulatedClock()
        self.users: dict[str, User] = {}
        self.pages: dict[str, Page] = {}
        self.blocks: dict[str, Block] = {}
        self.data_sources: dict[str, DataSource] = {}
        self.integrations: dict[str, Integration] = {}
        self._page_keys: dict[str, str] = {}
        self._synced_keys: dict[str, str] = {}
        self._pending_refs: list[tuple[str, str]] = []
        #: Who creates and edits when a spec or an edit names nobody: the spec's first user
        #: (:meth:`from_spec` sets it; the bakery's is valeria).
        self.default_user = "valeria"

    # ------------------------------------------------------------------ building

    @classmethod
    def from_spec(cls, spec: dict[str, Any], clock: Clock | None = None) -> "Workspace":
        """Build a workspace from its spec (the format is ``docs/workspace-spec.md``; check a spec someone
        wrote with :func:`lab.simulator.spec.check_workspace_spec` first, which names what is wrong).

        A page or data source without ``created`` is created when the workspace is built (to the
        minute, on its clock), and one without ``created_by`` by the first user.
        """
        ws = cls(spec["name"], clock)
        if spec.get("users"):
            ws.default_user = spec["users"][0]["key"]
        for user in spec.get("users", []):
            ws.users[user["key"]] = User(user["key"], object_id("user", user["key"]), user["name"])
        for ds in spec.get("data_sources", []):
            ws._add_data_source(ds)
        for page in spec.get("pages", []):
            ws._add_page(page)
        for page in ws.pages.values():
            ws._take_block_parent(page)
        ws._resolve_synced_references()
        for integration in spec.get("integrations", []):
            ws._add_integration(integration)
        return ws

    def _user_id(self, key: str | None) -> str:
        key = self.default_user if key is None else key
        if key not in self.users:
            self.users[key] = User(key, object_id("user", key), key)
        return self.users[key].id

    def _add_data_source(self, ds: dict[str, Any]) -> None:
        properties = {}
        for name, prop in ds["properties"].items():
            entry = {"id": "title" if prop["type"] == "title" else object_id("property", ds["key"], name)[:8],
                     "name": name, "type": prop["type"]}
            if prop["type"] == "select":
                entry["options"] = list(prop.get("options", []))
            properties[name] = entry
        record = DataSource(ds["key"], object_id("data_source", ds["key"]),
                            object_id("database", ds.get("database", ds["key"])),
                            ds["title"], properties, *self._times(ds), self._user_id(ds.get("created_by")),
                            self._user_id(ds.get("edited_by", ds.get("created_by"))))
        self.data_sources[record.id] = record

    def _times(self, spec: dict[str, Any]) -> tuple[str, str]:
        """``created`` and ``edited`` of a spec; a time it leaves out is now, to the minute."""
        created = spec.get("created") or self._stamp()
        return created, spec.get("edited") or created

    def _data_source_by_key(self, key: str) -> DataSource:
        for ds in self.data_sources.values():
            if ds.key == key:
                return ds
        raise WorkspaceError(f"unknown data source key {key!r}; known: {sorted(d.key for d in self.data_sources.values())}")

    def _add_page(self, spec: dict[str, Any]) -> Page:
        _check_page_spec(spec)
        if spec["key"] in self._page_keys:
            raise WorkspaceError(f"duplicate page key {spec['key']!r}")
        parent = spec.get("parent", {"type": "workspace"})
        if parent["type"] == "data_source":
            parent_type, parent_id = "data_source_id", self._data_source_by_key(parent["key"]).id
        elif parent["type"] == "page":
            parent_type, parent_id = "page_id", object_id("page", parent["key"])
        elif parent["type"] == "block":
            parent_type, parent_id = "block_id", self._page_holder(spec["key"], parent.get("id"))
        elif parent["type"] == "workspace":
            parent_type, parent_id = "workspace", None
        else:
            raise WorkspaceError(f"page {spec['key']!r}: unknown parent type {parent['type']!r}")
        page = Page(spec["key"], object_id("page", spec["key"]), spec["title"], spec.get("type", ""),
                    bool(spec.get("publishable", False)), parent_type, parent_id, *self._times(spec),
                    self._user_id(spec.get("created_by")), self._user_id(spec.get("edited_by", spec.get("created_by"))),
                    spec.get("icon"), bool(spec.get("in_trash", False)))
        self.pages[page.id] = page
        self._page_keys[page.key] = page.id
        synced_keys, pending_refs = dict(self._synced_keys), list(self._pending_refs)
        try:
            for index, block_spec in enumerate(spec.get("blocks", [])):
                page.children.append(self._add_block(block_spec, page, "page_id", page.id, f"{page.key}/{index}"))
        except WorkspaceError:  # a page with half its blocks is not an edit anyone made: leave no trace
            del self.pages[page.id], self._page_keys[page.key]
            for block_id in [b.id for b in self.blocks.values() if b.page_id == page.id]:
                del self.blocks[block_id]
            self._synced_keys, self._pending_refs = synced_keys, pending_refs
            raise
        return page

    def _page_holder(self, key: str, block_id: Any) -> str:
        """The id of a block a sub-page can be created inside, or an error that says which blocks can."""
        block = self.blocks.get(block_id) if isinstance(block_id, str) else None
        flat_heading = block is not None and block.type.startswith("heading") and not block.content["is_toggleable"]
        if block is None or block.in_trash or block.type not in _PAGE_HOLDERS or block.synced_from or flat_heading:
            raise WorkspaceError(f"page {key!r}: parent block {block_id!r} cannot hold a sub-page; give the id of "
                                 f"a block of a page that nests blocks ({', '.join(sorted(_PAGE_HOLDERS))})")
        return block.id

    def _take_block_parent(self, page: Page) -> None:
        """A sub-page whose ``child_page`` block sits inside a block has that block as its parent, as in Notion."""
        block = self.blocks.get(page.id)
        if page.parent_type == "page_id" and block is not None and block.parent_type == "block_id":
            page.parent_type, page.parent_id = "block_id", block.parent_id

    def _add_block(self, spec: dict[str, Any], page: Page, parent_type: str, parent_id: str, path: str) -> str:
        kind = spec.get("type")
        if kind not in BLOCK_TYPES or kind in ("table_row", "column"):
            raise WorkspaceError(f"page {page.key!r}, block {path}: unknown or non-top-level block type {kind!r}")
        if kind == "child_page":
            return self._add_child_page_block(spec, page, parent_type, parent_id)
        block = Block(object_id("block", path), kind, _content(kind, spec, path), parent_type, parent_id, page.id,
                      page.created, page.edited, page.created_by, page.edited_by)
        self.blocks[block.id] = block
        if kind == "table":
            for i, row in enumerate(spec["rows"]):
                block.children.append(self._leaf(page, block.id, f"{path}/row{i}", "table_row",
                                                 {"cells": [rich_text(str(cell)) for cell in row]}))
        elif kind == "column_list":
            for i, column in enumerate(spec["columns"]):
                col_id = self._leaf(page, block.id, f"{path}/col{i}", "column", {})
                block.children.append(col_id)
                self.blocks[col_id].children = [self._add_block(child, page, "block_id", col_id, f"{path}/col{i}/{j}")
                                                for j, child in enumerate(column)]
        elif kind == "synced_block" and spec.get("synced_from"):
            self._pending_refs.append((block.id, spec["synced_from"]))
        if kind == "synced_block" and spec.get("key"):
            self._synced_keys[spec["key"]] = block.id
        for i, child in enumerate(spec.get("children", [])):
            block.children.append(self._add_block(child, page, "block_id", block.id, f"{path}/{i}"))
        return block.id

    def _leaf(self, page: Page, parent_id: str, path: str, kind: str, content: dict[str, Any]) -> str:
        block = Block(object_id("block", path), kind, content, "block_id", parent_id, page.id,
                      page.created, page.edited, page.created_by, page.edited_by)
        self.blocks[block.id] = block
        return block.id

    def _add_child_page_block(self, spec: dict[str, Any], page: Page, parent_type: str, parent_id: str) -> str:
        # A child_page block and the page it shows share one id, as in Notion.
        child_id = object_id("page", spec["page"])
        title = spec.get("text") or spec["page"]
        self.blocks[child_id] = Block(child_id, "child_page", {"title": title}, parent_type, parent_id, page.id,
                                      page.created, page.edited, page.created_by, page.edited_by)
        return child_id

    def _resolve_synced_references(self) -> None:
        for block_id, key in self._pending_refs:
            if key not in self._synced_keys:
                raise WorkspaceError(f"synced block reference to unknown original {key!r}")
            original = self._synced_keys[key]
            self.blocks[block_id].synced_from = original
            self.blocks[block_id].content = {"synced_from": {"type": "block_id", "block_id": original}}
        self._pending_refs.clear()

    def _add_integration(self, spec: dict[str, Any]) -> None:
        shared = set()
        for share in spec.get("shares", []):
            shared.add(self._resolve_key(share["type"], share["key"]))
        self.integrations[spec["key"]] = Integration(
            spec["key"], spec["name"], object_id("bot", spec["key"]),
            frozenset(spec.get("capabilities", ["read_content"])), shared)

    def _resolve_key(self, kind: str, key: str) -> str:
        if kind == "data_source":
            return self._data_source_by_key(key).id
        if kind == "page":
            return self.page_id(key)
        raise WorkspaceError(f"cannot share an object of type {kind!r}")

    # ------------------------------------------------------------------ reading

    def page_id(self, key: str) -> str:
        """The id of the page with this spec key."""
        try:
            return self._page_keys[key]
        except KeyError:
            raise WorkspaceError(f"unknown page key {key!r}") from None

    def page(self, page_id: str) -> Page:
        """The page with this id, or an error that says how to find one (an edit names pages by id)."""
        page = self.pages.get(page_id) if isinstance(page_id, str) else None
        if page is None:
            raise WorkspaceError(f"no page has the id {page_id!r}; get one with page_id(key) or page_by_title(title)")
        return page

    def block(self, block_id: str) -> Block:
        """The block with this id, or an error that says how to find one."""
        block = self.blocks.get(block_id) if isinstance(block_id, str) else None
        if block is None:
            raise WorkspaceError(f"no block has the id {block_id!r}; get one with find_block(page_id, text)")
        return block

    def page_by_title(self, title: str) -> Page:
        """The page with exactly this title."""
        for page in self.pages.values():
            if page.title == title:
                return page
        raise WorkspaceError(f"no page titled {title!r}")

    def children_of(self, object_id_: str) -> list[str]:
        """Direct children of a page or block; a synced reference shows its original's children."""
        if object_id_ in self.pages:
            return self.pages[object_id_].children
        block = self.block(object_id_)
        if block.synced_from:
            return self.blocks[block.synced_from].children
        return block.children

    def has_children(self, block: Block) -> bool:
        """Whether a block has children not in the trash, following synced references and child pages."""
        if block.type == "child_page" and block.id in self.pages:
            children = self.pages[block.id].children
        else:
            children = self.children_of(block.id)
        return any(not self.blocks[child].in_trash for child in children)

    def parent_of(self, object_id_: str) -> str | None:
        """The id of the parent object (block, page or data source), or None at the top."""
        if object_id_ in self.pages:
            return self.pages[object_id_].parent_id
        if object_id_ in self.blocks:
            return self.blocks[object_id_].parent_id
        return None

    def ancestors(self, object_id_: str) -> Iterator[str]:
        """The object itself, then each parent up to the top of the workspace."""
        seen: set[str] = set()
        current: str | None = object_id_
        while current is not None and current not in seen:
            seen.add(current)
            yield current
            current = self.parent_of(current)

    def integration_by_key(self, key: str) -> Integration:
        try:
            return self.integrations[key]
        except KeyError:
            raise WorkspaceError(f"unknown integration {key!r}; known: {sorted(self.integrations)}") from None

    def can_see(self, integration: Integration, object_id_: str) -> bool:
        """Notion's rule: visible if the object or an ancestor is shared, unless one was unshared."""
        for ancestor in self.ancestors(object_id_):
            if ancestor in integration.excluded:
                return False
            if ancestor in integration.shared:
                return True
        return False

    def database_sources(self, database_id: str) -> list[DataSource]:
        """The data sources a database holds (one, unless a spec gives several the same ``database``)."""
        return [ds for ds in self.data_sources.values() if ds.database_id == database_id]

    def block_text(self, block_id: str) -> str:
        """Plain text of a block's rich text (empty for blocks without text)."""
        content = self.block(block_id).content
        return plain_text(content.get("rich_text", []))

    def find_block(self, page_id: str, contains: str) -> Block:
        """The first block of a page (depth-first) whose text contains ``contains``."""
        stack = list(reversed(self.page(page_id).children))
        while stack:
            block = self.blocks[stack.pop()]
            if contains in self.block_text(block.id):
                return block
            if block.type != "child_page" and not block.synced_from:
                stack.extend(reversed(block.children))
        raise WorkspaceError(f"no block containing {contains!r} in page {self.pages[page_id].title!r}")

    # ------------------------------------------------------------------ editing

    def _stamp(self) -> str:
        return iso_minute(self.clock.datetime())

    def _touch_page(self, page: Page, user: str | None) -> str:
        stamp = self._stamp()
        page.edited, page.edited_by = stamp, self._user_id(user)
        return stamp

    def edit_block_text(self, block_id: str, text: str | list[dict[str, Any]], user: str | None = None) -> None:
        """Replace a block's text; the block and its page get a new ``last_edited_time``."""
        block = self.block(block_id)
        if block.type not in _TEXT_TYPES:
            raise WorkspaceError(f"block {block_id} is a {block.type}; only text blocks can be edited")
        if block.in_trash:  # as Notion answers: "Can't edit block that is archived."
            raise WorkspaceError(f"block {block_id} is in the trash and cannot be edited; edit a block that is not, "
                                 "or add a new one")
        if not isinstance(text, (str, list)):
            raise WorkspaceError(f"a block's text is a str or a list of rich text runs, not {type(text).__name__}; "
                                 "to empty a block, pass ''")
        block.content["rich_text"] = rich_text(text)
        stamp = self._touch_page(self.pages[block.page_id], user)
        block.edited, block.edited_by = stamp, self._user_id(user)

    def add_page(self, spec: dict[str, Any], user: str | None = None) -> Page:
        """Create a page from a spec; its created and edited times are now (to the minute).

        A page whose parent is a page (``{"type": "page", "key": ...}``) or a block of a page
        (``{"type": "block", "id": ...}``) is a sub-page: it also appears as a ``child_page``
        block at the end of that page or block, which is an edit of the page that holds it.
        """
        _check_page_spec(spec)
        parent = spec.get("parent", {})
        if parent.get("type") == "page":
            self.page_id(parent.get("key"))  # the parent must exist before its sub-page does
        stamp = self._stamp()
        spec = {**spec, "created": stamp, "edited": stamp, "created_by": user, "edited_by": user}
        page = self._add_page(spec)
        self._resolve_synced_references()
        self._take_block_parent(page)
        if page.parent_type in ("page_id", "block_id"):
            holder = self.blocks[page.parent_id] if page.parent_type == "block_id" else self.pages[page.parent_id]
            parent = self.pages[holder.page_id] if isinstance(holder, Block) else holder
            if page.id not in self.blocks:
                self._add_child_page_block({"page": page.key, "text": page.title}, parent, page.parent_type,
                                           page.parent_id)
                holder.children.append(page.id)
            block = self.blocks[page.id]
            block.created = block.edited = stamp
            block.created_by = block.edited_by = self._user_id(user)
            self._touch_page(parent, user)
        return page

    def add_child_page(self, parent_id: str, spec: dict[str, Any], user: str | None = None, *,
                       inside_block: str | None = None) -> Page:
        """Create a sub-page at the end of page ``parent_id``, or at the end of its block ``inside_block``
        (a toggle, a column, a callout...): an edit of page ``parent_id``, as in Notion."""
        parent = self.page(parent_id)
        if inside_block is None:
            return self.add_page({**spec, "parent": {"type": "page", "key": parent.key}}, user)
        holder = self.blocks.get(inside_block)
        if holder is None or holder.page_id != parent_id:
            raise WorkspaceError(f"block {inside_block!r} is not a block of page {parent.title!r}; "
                                 f"pick one with find_block(page_id, text)")
        return self.add_page({**spec, "parent": {"type": "block", "id": inside_block}}, user)

    def delete_block(self, block_id: str, user: str | None = None) -> None:
        """Delete a block as Notion's ``DELETE /v1/blocks/{id}`` does: it goes to the trash (``in_trash``)
        with everything under it, and its page is edited. Deleting a ``child_page`` block trashes
        the sub-page, and so does deleting a block that holds one (a toggle, a column)."""
        block = self.block(block_id)
        if block.type == "child_page" and block_id in self.pages:
            self.move_to_trash(block_id, user)
            return
        for sub_page in self._sub_pages_inside(block):
            self.move_to_trash(sub_page, user)
        stamp = self._touch_page(self.pages[block.page_id], user)
        block.in_trash = True
        block.edited, block.edited_by = stamp, self._user_id(user)

    def _sub_pages_inside(self, block: Block) -> list[str]:
        """The sub-pages not in the trash whose ``child_page`` blocks sit somewhere under ``block``."""
        found, stack = [], list(block.children)
        while stack:
            child = self.blocks[stack.pop()]
            if child.type == "child_page" and child.id in self.pages:
                found += [] if self.pages[child.id].in_trash else [child.id]
            elif not child.in_trash:
                stack.extend(child.children)
        return found

    def rename(self, page_id: str, title: str, user: str | None = None) -> None:
        """Change a page's title: a property edit, so the page is edited. A sub-page's title is
        also the text of its ``child_page`` block, so its parent is edited too."""
        page = self.page(page_id)
        if not isinstance(title, str):
            raise WorkspaceError(f"a page title is a str, not {type(title).__name__}")
        page.title = title
        self._edit_child_page_block(page_id, self._touch_page(page, user), user)

    def set_publishable(self, page_id: str, value: bool, user: str | None = None) -> None:
        """Tick or untick the Publicable checkbox: a property edit, so the page is edited."""
        page = self.page(page_id)
        page.publishable = bool(value)
        self._touch_page(page, user)

    def set_select(self, page_id: str, option: str, user: str | None = None) -> None:
        """Choose another option of the row's select (the simulator's rows have one value for every select
        property of their data source, such as a type or an audience): a property edit, so the page is edited."""
        page = self.page(page_id)
        if not isinstance(option, str):
            raise WorkspaceError(f"a select option is a str, not {type(option).__name__}")
        page.type = option
        self._touch_page(page, user)

    def move_to_trash(self, page_id: str, user: str | None = None) -> None:
        """Move a page to the trash (``in_trash``); it disappears from search and queries."""
        self._set_in_trash(page_id, True, user)

    def restore(self, page_id: str, user: str | None = None) -> None:
        """Take a page out of the trash."""
        self._set_in_trash(page_id, False, user)

    def _set_in_trash(self, page_id: str, value: bool, user: str | None) -> None:
        page = self.page(page_id)
        page.in_trash = value
        # a sub-page's block leaves (or returns to) its parent's content: the parent is edited too
        self._edit_child_page_block(page_id, self._touch_page(page, user), user, in_trash=value)

    def _edit_child_page_block(self, page_id: str, stamp: str, user: str | None, in_trash: bool | None = None) -> None:
        """A sub-page's title and presence are also its parent's content: stamp its ``child_page``
        block (moving it to or from the trash when ``in_trash`` is given) and edit the parent."""
        block = self.blocks.get(page_id)
        if block is None or block.type != "child_page":
            return
        if in_trash is not None:
            block.in_trash = in_trash
        block.edited, block.edited_by = stamp, self._user_id(user)
        self._touch_page(self.pages[block.page_id], user)

    def share(self, integration_key: str, object_id_: str) -> None:
        """Add a connection to a page or data source. Permissions are not content: no edit stamp."""
        integration = self.integration_by_key(integration_key)
        integration.excluded.discard(object_id_)
        integration.shared.add(object_id_)
        _changed()

    def unshare(self, integration_key: str, object_id_: str) -> None:
        """Remove a connection; takes effect at once, for the object and everything below it."""
        integration = self.integration_by_key(integration_key)
        integration.shared.discard(object_id_)
        integration.excluded.add(object_id_)
        _changed()

    def __repr__(self) -> str:
        return (f"Workspace({self.name!r}, pages={len(self.pages)}, blocks={len(self.blocks)}, "
                f"data_sources={len(self.data_sources)}, integrations={sorted(self.integrations)})")


def _check_page_spec(spec: Any) -> None:
    """A page spec's shape, checked before anything is added (see ``lab.datasets.bakery`` for the format)."""
    if not isinstance(spec, dict) or not all(isinstance(spec.get(name), str) for name in ("key", "title")):
        raise WorkspaceError(f"a page spec is a dict with a str 'key' and 'title' (and optionally 'parent', "
                             f"'blocks', ...), not {spec!r:.120}")
    parent = spec.get("parent", {"type": "workspace"})
    if not isinstance(parent, dict) or not isinstance(parent.get("type"), str):
        raise WorkspaceError(f"page {spec['key']!r}: parent should be a dict such as {{'type': 'page', 'key': ...}} "
                             f"or {{'type': 'block', 'id': ...}}, not {parent!r:.80}")
    _check_block_specs(spec["key"], spec.get("blocks", []))


def _check_block_specs(key: str, blocks: Any) -> None:
    """Blocks, and the children and columns of each at any depth, are lists of block dicts."""
    pending = [blocks]
    while pending:
        level = pending.pop()
        if not isinstance(level, list) or not all(isinstance(block, dict) for block in level):
            raise WorkspaceError(f"page {key!r}: blocks and their children should be lists of block dicts such "
                                 f"as {{'type': 'paragraph', 'text': ...}}, not {level!r:.80}")
        pending += [block["children"] for block in level if "children" in block]
        for block in level:  # a column list holds its columns, each a list of blocks
            columns = block.get("columns", [])
            if not isinstance(columns, list):
                raise WorkspaceError(f"page {key!r}: a column list's columns should be a list of block lists, "
                                     f"not {columns!r:.80}")
            pending += columns


def _content(kind: str, spec: dict[str, Any], path: str) -> dict[str, Any]:
    """The type-named payload of a block, as Notion shapes it."""
    text = rich_text(spec.get("text"))
    if kind in ("heading_1", "heading_2", "heading_3"):
        return {"rich_text": text, "is_toggleable": bool(spec.get("toggleable", False)), "color": "default"}
    if kind in ("paragraph", "bulleted_list_item", "numbered_list_item", "quote", "toggle"):
        return {"rich_text": text, "color": "default"}
    if kind == "to_do":
        return {"rich_text": text, "checked": bool(spec.get("checked", False)), "color": "default"}
    if kind == "callout":
        icon = spec.get("icon")
        return {"rich_text": text, "icon": {"type": "emoji", "emoji": icon} if icon else None,
                "color": "gray_background"}
    if kind == "code":
        return {"rich_text": text, "caption": [], "language": spec.get("language", "plain text")}
    if kind == "table":
        rows = spec.get("rows") or []
        if not rows or len({len(r) for r in rows}) != 1:
            raise WorkspaceError(f"block {path}: a table needs rows of equal width")
        return {"table_width": len(rows[0]), "has_column_header": bool(spec.get("has_column_header", True)),
                "has_row_header": False}
    if kind in ("divider", "column_list", "column"):
        return {}
    if kind == "synced_block":
        return {"synced_from": None}
    if kind == "image":
        return {"caption": rich_text(spec.get("caption")), "type": "external",
                "external": {"url": spec.get("url", "")}}
    if kind == "bookmark":
        return {"caption": rich_text(spec.get("caption")), "url": spec.get("url", "")}
    if kind == "equation":
        return {"expression": spec["expression"]}
    if kind == "child_database":
        return {"title": spec.get("text", "")}
    if kind == "meeting_notes":
        return {"title": text}
    raise WorkspaceError(f"block {path}: no content rule for type {kind!r}")
