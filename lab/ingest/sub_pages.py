"""Sub-pages in an incremental sync: the trap of a parent that does not change, and its fix.

Editing a sub-page stamps the sub-page's ``last_edited_time``, not its parent's, and a
sub-page is not a row of the data source: the watermark query never returns it. The sync
therefore lists the pages the integration can see with ``search``, most recently edited first
(the source lesson stops that list at the watermark; the lab reads it to the end, one request
per 100 pages, so that the same list also reconciles: a sub-page unshared or trashed leaves,
one shared again comes back). It does so only when some page of the index shows a sub-page.

A sub-page is read again when it is new to the index, its ``last_edited_time`` moved (or the
index read it during its stamp's minute), or its breadcrumb or inherited type changed. A
sub-page its parent shows but the list lacks (search lags behind in Notion) is retrieved
before it is declared gone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lab.client import NotionClient, iterate_paginated_api
from lab.ingest.reading import PageRead, read_is_current, read_page, retrieve_page
from lab.ingest.store import IndexedPage
from lab.notion.pages import PageMetadata

__all__ = ["SubPages", "visible_pages", "sync_sub_pages"]


@dataclass
class SubPages:
    """The sub-pages an index should hold after a sync."""

    reads: list[PageRead] = field(default_factory=list)  # read now
    kept: list[str] = field(default_factory=list)  # ids whose stored read is current
    listed: bool = False  # whether the visible pages were listed

    @property
    def ids(self) -> set[str]:
        return {read.id for read in self.reads} | set(self.kept)


def visible_pages(client: NotionClient) -> dict[str, dict[str, Any]]:
    """Every page shared with the integration, by id, most recently edited first."""
    results = iterate_paginated_api(client.search, filter={"property": "object", "value": "page"},
                                    sort={"timestamp": "last_edited_time", "direction": "descending"})
    return {page["id"]: page for page in results}


def _parent_page(page: dict[str, Any]) -> str | None:
    parent = page.get("parent") or {}
    return parent.get("page_id") if parent.get("type") == "page_id" else None


def _stored_read_is_current(page: dict[str, Any], breadcrumb: PageMetadata, parent_id: str,
                            stored: IndexedPage | None) -> bool:
    return (stored is not None and stored.parent_id == parent_id and stored.info.title == breadcrumb.title
            and stored.info.type == breadcrumb.type and read_is_current(page, stored.info.edited, stored.read_at))


def sync_sub_pages(client: NotionClient, documents: Iterable[tuple[PageMetadata, PageRead | None]],
                   indexed: Mapping[str, IndexedPage],
                   on_page: Callable[[PageRead], None] | None = None) -> SubPages:
    """Find, and read where needed, every sub-page under ``documents``: the pages the index will
    hold, each with its read made now (or ``None`` if its stored read is current). ``on_page``
    hears of each sub-page read."""
    queue = list(documents)
    result = SubPages()
    shows_sub_pages = any(read.child_page_ids if read is not None else indexed[info.id].child_pages
                          for info, read in queue)
    if not shows_sub_pages:
        return result
    visible, result.listed = visible_pages(client), True
    children_of: dict[str, list[str]] = {}
    for page_id, page in visible.items():
        children_of.setdefault(_parent_page(page) or "", []).append(page_id)
    for page_id, stored in indexed.items():
        if stored.parent_id is not None:
            children_of.setdefault(stored.parent_id, []).append(page_id)
    seen = {info.id for info, _ in queue}
    while queue:
        info, read = queue.pop(0)
        # a page read now shows its sub-pages; an unchanged one has the ones it had, or one shared again
        kids = read.child_page_ids if read is not None else sorted(set(children_of.get(info.id, [])))
        for kid in kids:
            if kid in seen:
                continue
            seen.add(kid)
            page = visible.get(kid) or retrieve_page(client, kid)
            if page is None:
                continue
            breadcrumb = PageRead(page, [], info).info
            stored = indexed.get(kid)
            if _stored_read_is_current(page, breadcrumb, info.id, stored):
                result.kept.append(kid)
                queue.append((stored.info, None))
            else:
                child = read_page(client, page, parent=info)
                result.reads.append(child)
                if on_page is not None:
                    on_page(child)
                queue.append((child.info, child))
    return result
