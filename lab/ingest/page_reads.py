"""One page as the indexer reads it, and whether a read made earlier still holds every edit.

A page is read with ``blocks.children.list`` (its blocks, and the blocks of every block with
children); the read notes when it began. A sub-page (the page behind a ``child_page`` block)
is read the same way and carries its parent's metadata: it is titled with its breadcrumb
("Parent > Child"), typed like its parent, meant for its parent's audience and of its parent's version.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from lab.client import NotionClient, ObjectNotFound, iterate_paginated_api, walk_blocks
from lab.client.traversal import WalkReport
from lab.ingest.read_times import read_is_current
from lab.index import IndexedPage
from lab.ingest.synced_originals import held_originals, shown_originals
from lab.notion.pages import TYPE_PROPERTY, PageMetadata, PageProperties

__all__ = ["PageRead", "BREADCRUMB", "read_page", "read_pages", "retrieve_page", "read_is_current",
           "visible_pages", "page_essentials", "document_info"]

BREADCRUMB = " > "  # between a sub-page's parent title and its own

#: The properties a listing keeps whatever their name: the title, and the selects (a type, an audience, a version).
_KEPT_TYPES = ("title", "select")
#: The fields of a page object the indexer reads besides its title and type properties.
_ESSENTIAL_FIELDS = ("object", "id", "created_time", "last_edited_time", "parent", "url", "in_trash")


def _essential_property(prop: Any) -> Any:
    """A title property with only its runs' text, a select with only its option's name (else as it is)."""
    if not isinstance(prop, dict):
        return prop
    if prop.get("type") == "title" and isinstance(prop.get("title"), list):
        return {"type": "title", "title": [{"plain_text": run.get("plain_text", "")} if isinstance(run, dict) else run
                                           for run in prop["title"]]}
    if prop.get("type") == "select" and isinstance(prop.get("select"), dict):
        return {"type": "select", "select": {"name": prop["select"].get("name")}}
    return prop


def page_essentials(page: dict[str, Any]) -> dict[str, Any]:
    """The part of a page object the indexer reads (ids, times, parent, url, title, type and every other
    select, an audience and a version among them), for a listing of a large data source: a whole page
    object takes about 5 KB in memory, this a few hundred bytes."""
    properties = page.get("properties")
    kept = {key: page[key] for key in _ESSENTIAL_FIELDS if key in page}
    if isinstance(properties, dict):
        kept["properties"] = {name: _essential_property(prop) for name, prop in properties.items()
                              if name == TYPE_PROPERTY or (isinstance(prop, dict) and prop.get("type") in _KEPT_TYPES)}
    elif "properties" in page:
        kept["properties"] = properties
    return kept


def document_info(page: dict[str, Any], parent: PageMetadata | None = None,
                  properties: PageProperties = PageProperties()) -> PageMetadata:
    """What the index carries of ``page`` as a document under ``parent`` (``None`` for a row): a sub-page is
    titled with its breadcrumb, typed like its parent, meant for its parent's audience and of its parent's
    version (a sub-page has no properties of its own); no type or url reads as ``""``, no audience or version
    (or none named in ``properties``) as ``None``."""
    info = properties.read(page)
    title, kind, audience, version = info.title, info.type, info.audience, info.version
    if parent is not None:
        title, kind = f"{parent.title}{BREADCRUMB}{title}", parent.type
        audience, version = parent.audience, parent.version
    return PageMetadata(id=info.id, title=title, type=kind or "", edited=info.edited, url=info.url or "",
                        audience=audience, version=version)


@dataclass
class PageRead:
    """One page as the indexer read it: its page object, its blocks in document order, the
    document it sits in (``parent``, for a sub-page), when reading its blocks began, and the selects its
    audience and version are read from (:class:`~lab.notion.pages.PageProperties`)."""

    page: dict[str, Any]
    blocks: list[tuple[int, dict[str, Any]]]
    parent: PageMetadata | None = None
    read_at: str = ""
    synced: tuple[dict[str, str], list[str]] | None = None  # kept by drop_content, computed from blocks until then
    properties: PageProperties = PageProperties()

    @cached_property
    def info(self) -> PageMetadata:
        """What every chunk of the page and the index carry (no type or url reads as ``""``).

        A sub-page is titled with its breadcrumb, typed like its parent, meant for its parent's audience and of
        its parent's version.
        """
        return document_info(self.page, self.parent, self.properties)

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def edited(self) -> str:
        return self.info.edited

    @property
    def parent_id(self) -> str | None:
        return self.parent.id if self.parent is not None else None

    @property
    def child_page_ids(self) -> list[str]:
        """The sub-pages this page shows, in document order (their content is not in ``blocks``)."""
        return list(dict.fromkeys(block["id"] for _, block in self.blocks if block["type"] == "child_page"))

    @property
    def synced_originals(self) -> tuple[dict[str, str], list[str]]:
        """What the page shows of synced originals held elsewhere, and the originals it holds
        (:mod:`lab.ingest.synced_originals`)."""
        return self.synced if self.synced is not None else (shown_originals(self.blocks), held_originals(self.blocks))

    def drop_content(self) -> None:
        """Forget every block but the links to sub-pages, in place, once the page is chunked and
        kept: a first index of 10,000 pages would otherwise hold every block of every page at once."""
        self.synced = self.synced_originals
        self.blocks = [(depth, block) for depth, block in self.blocks if block["type"] == "child_page"]

    def under(self, parent: PageMetadata | None) -> PageRead:
        """The same read, as a document under ``parent`` (whose title or type may have changed since)."""
        return PageRead(self.page, self.blocks, parent, self.read_at, self.synced, self.properties)

    def indexed(self) -> IndexedPage:
        """The row the index keeps for this page."""
        shown, held = self.synced_originals
        return IndexedPage(info=self.info, read_at=self.read_at, parent_id=self.parent_id,
                           child_pages=len(self.child_page_ids), shown_originals=tuple(shown.items()),
                           held_originals=tuple(held))


def read_page(client: NotionClient, page: dict[str, Any], report: WalkReport | None = None,
              parent: PageMetadata | None = None, properties: PageProperties = PageProperties()) -> PageRead:
    """Read every block of one page (a sub-page of ``parent`` if given), noting when the read began; its
    audience and version are read from the selects ``properties`` names (a sub-page's are its parent's)."""
    read_at = client.clock.datetime().isoformat()
    return PageRead(page, list(walk_blocks(client, page["id"], report=report)), parent, read_at,
                    properties=properties)


def read_pages(client: NotionClient, pages: list[dict[str, Any]], report: WalkReport | None = None,
               on_page: Callable[[PageRead], None] | None = None) -> list[PageRead]:
    """Read every block of each page in turn; ``on_page`` hears of each as soon as it is read (CLI progress)."""
    reads = []
    for page in pages:
        reads.append(read_page(client, page, report))
        if on_page is not None:
            on_page(reads[-1])
    return reads


def retrieve_page(client: NotionClient, page_id: str) -> dict[str, Any] | None:
    """The page object, or ``None`` if the page is not shared with this integration or is in the trash."""
    try:
        page = client.pages.retrieve(page_id)
    except ObjectNotFound:
        return None
    return None if page.get("in_trash") else page


def visible_pages(client: NotionClient) -> dict[str, dict[str, Any]]:
    """Every page shared with the integration (``search``), by id, most recently edited first."""
    results = iterate_paginated_api(client.search, filter={"property": "object", "value": "page"},
                                    sort={"timestamp": "last_edited_time", "direction": "descending"})
    return {page["id"]: page for page in results}
