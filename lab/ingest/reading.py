"""The indexer's read: find the knowledge base, list its publishable pages, read every block.

Three endpoints do it, as in the source lesson: ``search`` for the data source, one
``data_sources.query`` filtered on the publishable checkbox, and ``blocks.children.list`` for
every page and for every block with children (toggles, columns, tables, synced blocks).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from lab.client import NotionClient, iterate_paginated_api, walk_blocks
from lab.chunking.flatten import page_metadata
from lab.client.traversal import WalkReport
from lab.notion.richtext import plain_text

__all__ = ["PageRead", "KnowledgeBaseRead", "find_data_source", "publishable_filter", "read_page",
           "read_knowledge_base", "request_breakdown", "page_title", "page_property"]

KNOWLEDGE_BASE_TITLE = "Base de conocimiento"
PUBLISHABLE_PROPERTY = "Publicable"
TYPE_PROPERTY = "Tipo"


def page_title(page: dict[str, Any]) -> str:
    """The plain text of a page's title property, whatever the property is called."""
    return page_metadata(page)["title"]


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
    """One page as the indexer read it: its page object and its blocks in document order."""

    page: dict[str, Any]
    blocks: list[tuple[int, dict[str, Any]]]

    @property
    def id(self) -> str:
        return self.page["id"]

    @property
    def title(self) -> str:
        return page_title(self.page)

    @property
    def type(self) -> str:
        return page_property(self.page, TYPE_PROPERTY) or ""

    @property
    def edited(self) -> str:
        return self.page["last_edited_time"]

    def metadata(self) -> dict[str, str]:
        """What every chunk of the page carries: id, title, type, edited time, url."""
        meta = page_metadata(self.page, TYPE_PROPERTY)
        return meta | {"type": meta["type"] or "", "url": meta["url"] or ""}


@dataclass
class KnowledgeBaseRead:
    """The result of one full read of the knowledge base."""

    data_source_id: str
    pages: list[PageRead] = field(default_factory=list)
    walk: WalkReport = field(default_factory=WalkReport)

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


def read_page(client: NotionClient, page: dict[str, Any], report: WalkReport | None = None) -> PageRead:
    """Read every block of one page."""
    return PageRead(page, list(walk_blocks(client, page["id"], report=report)))


def read_knowledge_base(client: NotionClient, title: str = KNOWLEDGE_BASE_TITLE,
                        publishable_property: str = PUBLISHABLE_PROPERTY) -> KnowledgeBaseRead:
    """Search for the data source, query its publishable pages, read each page's blocks."""
    source = find_data_source(client, title)
    result = KnowledgeBaseRead(source["id"])
    for page in iterate_paginated_api(client.data_sources.query, data_source_id=source["id"],
                                      filter=publishable_filter(publishable_property)):
        result.pages.append(read_page(client, page, result.walk))
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
