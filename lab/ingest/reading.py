"""The indexer's read: find the knowledge base, list its publishable pages, read every block.

Three endpoints do it, as in the source lesson: ``search`` for the data source, one
``data_sources.query`` filtered on the publishable checkbox, and ``blocks.children.list`` for
every page and for every block with children (toggles, columns, tables, synced blocks). A
sub-page (a ``child_page`` block) under a publishable page is a document of its own, read after
the rows (:mod:`lab.ingest.sub_pages`). The lessons, the full index and the command line all
read through :func:`read_knowledge_base`; the incremental sync lists the publishable pages with
the same :func:`publishable_pages`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from lab.client import NotionClient, RowsRead, iterate_paginated_api, query_every_row
from lab.client.traversal import WalkReport
from lab.ingest.page_reads import PageRead, read_page, read_pages
from lab.ingest.sub_pages import find_sub_pages, known_read_is_current
from lab.ingest.synced_originals import SyncedOriginals
from lab.notion.pages import PageMetadata, PageProperties
from lab.notion.richtext import plain_text

__all__ = ["PageRead", "KnowledgeBaseRead", "find_data_source", "publishable_filter", "publishable_pages",
           "read_page", "read_pages", "read_knowledge_base", "request_breakdown", "page_title", "page_property"]

KNOWLEDGE_BASE_TITLE = "Base de conocimiento"
PUBLISHABLE_PROPERTY = "Publicable"


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
class KnowledgeBaseRead:
    """The result of one full read of the knowledge base (pages first, then their sub-pages)."""

    data_source_id: str
    pages: list[PageRead] = field(default_factory=list)
    walk: WalkReport = field(default_factory=WalkReport)
    resumed: list[str] = field(default_factory=list)  # ids of pages taken from an interrupted run
    query_windows: int = 0  # queries of the listing (one unless it held more than 10,000 rows)

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


def publishable_pages(client: NotionClient, data_source_id: str, publishable_property: str = PUBLISHABLE_PROPERTY,
                      shape: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> RowsRead:
    """The page objects of the data source whose checkbox ``publishable_property`` is ticked, however
    many (past Notion's 10,000 results a query, in creation-time windows: :func:`~lab.client.query_every_row`);
    each as ``shape`` makes it if given (:func:`~lab.ingest.page_reads.page_essentials`)."""
    return query_every_row(client.data_sources.query, data_source_id, filter=publishable_filter(publishable_property),
                           shape=shape)


def read_knowledge_base(client: NotionClient, title: str = KNOWLEDGE_BASE_TITLE,
                        publishable_property: str = PUBLISHABLE_PROPERTY, data_source_id: str | None = None,
                        on_page: Callable[[PageRead], None] | None = None,
                        earlier: Mapping[str, PageRead] | None = None,
                        shape: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
                        properties: PageProperties = PageProperties(),
                        on_listed: Callable[[int], None] | None = None) -> KnowledgeBaseRead:
    """Search for the data source (unless its id is given), list its publishable pages, read each
    one's blocks, then every sub-page under them (:mod:`lab.ingest.sub_pages`).

    Every page is listed before the first is read, so no query cursor has to outlive a long read.
    ``earlier`` holds the reads an interrupted run kept: a page whose read there is current (same
    ``last_edited_time``, read after that minute closed) is taken from there; everything else is
    read now, and ``on_page`` hears of each page read now (the full index keeps it; the command
    line prints progress). ``shape`` keeps only part of each listed page object (the indexer's
    :func:`~lab.ingest.page_reads.page_essentials`); every page object is kept whole otherwise. Each
    page's audience and version are read from the selects ``properties`` names (none without a name).
    ``on_listed`` hears how many publishable pages the listing returned, before the first is read (a progress
    line's total).
    """
    earlier = earlier or {}
    known = {page_id: read.indexed() for page_id, read in earlier.items()}
    result = KnowledgeBaseRead(data_source_id if data_source_id is not None else find_data_source(client, title)["id"])
    listing = publishable_pages(client, result.data_source_id, publishable_property, shape)
    listed, result.query_windows = listing.rows, listing.windows
    if on_listed is not None:
        on_listed(len(listed))
    originals = SyncedOriginals.for_index(client, known, listed)
    for page in listed:
        if known_read_is_current(page, known.get(page["id"]), originals, properties=properties):
            result.pages.append(earlier[page["id"]])
            result.resumed.append(page["id"])
            continue
        result.pages.append(read_page(client, page, result.walk, properties=properties))
        if on_page is not None:
            on_page(result.pages[-1])
    sub_pages = find_sub_pages(client, [(read.info, read) for read in result.pages], known, earlier, on_page,
                               result.walk, originals)
    result.pages += sub_pages.reads + sub_pages.resumed
    result.resumed += [read.id for read in sub_pages.resumed]
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
