"""The indexer's read: find the knowledge base, list its publishable pages, read every block.

Three endpoints do it, as in the source lesson: ``search`` for the data source, one
``data_sources.query`` filtered on the publishable checkbox, and ``blocks.children.list`` for
every page and for every block with children (toggles, columns, tables, synced blocks). A
sub-page (a ``child_page`` block) is a document of its own: it is retrieved and read after its
parent, titled with its breadcrumb ("Parent > Child"), and inherits the parent's type and
publishability (a sub-page of a publishable page is published with it; one the integration
cannot see is skipped). The lessons, the full index and the command line all read through
:func:`read_knowledge_base`; the incremental sync lists the publishable pages with the same
:func:`publishable_pages`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

import pandas as pd

from lab.client import NotionClient, ObjectNotFound, collect_paginated_api, iterate_paginated_api, walk_blocks
from lab.client.traversal import WalkReport
from lab.notion.pages import TYPE_PROPERTY, PageMetadata
from lab.notion.richtext import plain_text

__all__ = ["PageRead", "KnowledgeBaseRead", "find_data_source", "publishable_filter", "publishable_pages",
           "read_page", "read_pages", "retrieve_page", "read_child_page", "read_knowledge_base", "read_is_current",
           "request_breakdown", "page_title", "page_property", "BREADCRUMB"]

KNOWLEDGE_BASE_TITLE = "Base de conocimiento"
PUBLISHABLE_PROPERTY = "Publicable"
BREADCRUMB = " > "  # between a sub-page's parent title and its own


def page_title(page: dict[str, Any]) -> str:
    """The plain text of a page's title property, whatever the property is called."""
    return PageMetadata.from_page(page).title


def page_property(page: dict[str, Any], name: str) -> Any:
    """The value of a select or checkbox property (``None`` when absent or empty)."""
    prop = page.get("properties", {}).get(name)
    if prop is None:
        return None
    if prop["type"] == "select":
        return (prop["select"] or {}).get("name")
    return prop.get(prop["type"])


@dataclass
class PageRead:
    """One page as the indexer read it: its page object, its blocks in document order, the
    document it sits in (``parent``, for a sub-page) and when reading its blocks began."""

    page: dict[str, Any]
    blocks: list[tuple[int, dict[str, Any]]]
    parent: PageMetadata | None = None
    read_at: str = ""

    @cached_property
    def info(self) -> PageMetadata:
        """What every chunk of the page and the index carry (no type or url reads as ``""``).

        A sub-page is titled with its breadcrumb and typed like its parent.
        """
        info = PageMetadata.from_page(self.page, TYPE_PROPERTY)
        if self.parent is not None:
            info = replace(info, title=f"{self.parent.title}{BREADCRUMB}{info.title}", type=self.parent.type)
        return replace(info, type=info.type or "", url=info.url or "")

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


@dataclass
class KnowledgeBaseRead:
    """The result of one full read of the knowledge base (pages first, then their sub-pages)."""

    data_source_id: str
    pages: list[PageRead] = field(default_factory=list)
    walk: WalkReport = field(default_factory=WalkReport)
    resumed: list[str] = field(default_factory=list)  # ids of pages taken from an interrupted run

    @property
    def block_count(self) -> int:
        return sum(len(p.blocks) for p in self.pages)


def find_data_source(client: NotionClient, title: str = KNOWLEDGE_BASE_TITLE) -> dict[str, Any]:
    """The shared data source with exactly this title (search matches substrings; we check)."""
    for result in iterate_paginated_api(client.search, query=title,
                                        filter={"property": "object", "value": "data_source"}):
        if plain_text(result.get("title", [])) == title:
            return result
    raise LookupError(f"no data source titled {title!r} is shared with this integration; share it from "
                      "Notion's connections menu")


def publishable_filter(prop: str = PUBLISHABLE_PROPERTY) -> dict[str, Any]:
    """The query filter that keeps only pages whose checkbox ``prop`` is ticked."""
    return {"property": prop, "checkbox": {"equals": True}}


def publishable_pages(client: NotionClient, data_source_id: str,
                      publishable_property: str = PUBLISHABLE_PROPERTY) -> list[dict[str, Any]]:
    """The page objects of the data source whose checkbox ``publishable_property`` is ticked."""
    return collect_paginated_api(client.data_sources.query, data_source_id=data_source_id,
                                 filter=publishable_filter(publishable_property))


def read_is_current(page: dict[str, Any], edited: str | None, read_at: str) -> bool:
    """Whether a read of this page (made at ``read_at`` of the version stamped ``edited``) holds
    every edit of the page object ``page``.

    ``last_edited_time`` has minute precision: a read made during the minute the page was stamped
    may have missed a later edit in that same minute (the stamp does not move), so only a read
    that began after the minute closed is current.
    """
    if edited != page["last_edited_time"] or not read_at:
        return False
    stamp = datetime.fromisoformat(page["last_edited_time"].replace("Z", "+00:00"))
    return datetime.fromisoformat(read_at) >= stamp + timedelta(minutes=1)


def read_page(client: NotionClient, page: dict[str, Any], report: WalkReport | None = None,
              parent: PageMetadata | None = None) -> PageRead:
    """Read every block of one page (a sub-page of ``parent`` if given), noting when the read began."""
    read_at = client.clock.datetime().isoformat()
    return PageRead(page, list(walk_blocks(client, page["id"], report=report)), parent, read_at)


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


def read_child_page(client: NotionClient, page_id: str, parent: PageMetadata,
                    report: WalkReport | None = None) -> PageRead | None:
    """Retrieve and read the sub-page ``page_id`` of ``parent``; ``None`` if it is not shared with us
    or in the trash (its visibility is the integration's, as for any page)."""
    page = retrieve_page(client, page_id)
    return None if page is None else read_page(client, page, report, parent)


def read_knowledge_base(client: NotionClient, title: str = KNOWLEDGE_BASE_TITLE,
                        publishable_property: str = PUBLISHABLE_PROPERTY, data_source_id: str | None = None,
                        on_page: Callable[[PageRead], None] | None = None,
                        earlier: Mapping[str, PageRead] | None = None) -> KnowledgeBaseRead:
    """Search for the data source (unless its id is given), list its publishable pages, read each
    one's blocks, then every sub-page under them.

    Every page is listed before the first is read, so no query cursor has to outlive a long read.
    ``earlier`` holds the reads an interrupted run kept: a page still listed with the same
    ``last_edited_time`` (read after that minute closed) is taken from there, and so are the
    sub-pages of such a page; everything else is read now, and ``on_page`` hears of each page
    read now (the full index keeps it; the command line prints progress).
    """
    earlier = earlier or {}
    result = KnowledgeBaseRead(data_source_id or find_data_source(client, title)["id"])

    def kept(read: PageRead, parent: PageMetadata | None) -> PageRead:
        result.resumed.append(read.id)
        return PageRead(read.page, read.blocks, parent, read.read_at)

    def fresh(read: PageRead | None) -> PageRead | None:
        if read is not None and on_page is not None:
            on_page(read)
        return read

    for page in publishable_pages(client, result.data_source_id, publishable_property):
        before = earlier.get(page["id"])
        if before is not None and before.parent_id is None and read_is_current(page, before.edited,
                                                                                before.read_at):
            result.pages.append(kept(before, None))
        else:
            result.pages.append(fresh(read_page(client, page, result.walk)))
    seen = {read.id for read in result.pages}
    for parent in result.pages:  # grows as sub-pages are read: their own sub-pages follow
        for child_id in parent.child_page_ids:
            if child_id in seen:
                continue
            seen.add(child_id)
            before = earlier.get(child_id)
            if before is not None and before.parent_id == parent.id and parent.id in result.resumed:
                result.pages.append(kept(before, parent.info))
            elif (child := fresh(read_child_page(client, child_id, parent.info, result.walk))) is not None:
                result.pages.append(child)
    return result


def request_breakdown(log: pd.DataFrame, page_ids: set[str]) -> dict[str, int]:
    """Requests of a read split by purpose: what t_min = R / r counts, term by term."""
    ok = log[log["status"] == 200]
    children = ok[ok["endpoint"] == "blocks.children.list"]
    container = children["route"].str.extract(r"/v1/blocks/([^/]+)/children")[0]
    return {
        "search": int((ok["endpoint"] == "search").sum()),
        "queries": int((ok["endpoint"] == "data_sources.query").sum()),
        "page reads": int(container.isin(page_ids).sum()),
        "nested reads": int((~container.isin(page_ids)).sum()),
        "other": int((~ok["endpoint"].isin(["search", "data_sources.query", "blocks.children.list"])).sum()),
        "retries": int((log["status"] != 200).sum()),
    }
