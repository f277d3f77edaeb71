"""The code under test: a small reader of a Notion help center, written with the official SDK.

Nothing here knows about the simulator: it takes a ``notion_client.Client``, which the tests point
at the served simulator and production points at api.notion.com.
"""

from __future__ import annotations

from typing import Any

from notion_client import Client
from notion_client.helpers import collect_paginated_api


def published_articles(notion: Client, data_source_id: str, page_size: int = 100) -> list[str]:
    """Titles of the published articles, every cursor followed."""
    rows = collect_paginated_api(notion.data_sources.query, data_source_id=data_source_id, page_size=page_size,
                                 filter={"property": "Published", "checkbox": {"equals": True}})
    return sorted(_title(row) for row in rows)


def article_text(notion: Client, page_id: str) -> list[str]:
    """The lines of an article, nested blocks (toggles, sub-pages' titles) included, in reading order."""
    lines = []
    for block in collect_paginated_api(notion.blocks.children.list, block_id=page_id):
        content = block[block["type"]]
        if "rich_text" in content:
            lines.append("".join(run["plain_text"] for run in content["rich_text"]))
        elif block["type"] == "child_page":
            lines.append(content["title"])
        elif block["type"] == "table":
            lines += [" | ".join("".join(run["plain_text"] for run in cell) for cell in row["table_row"]["cells"])
                      for row in collect_paginated_api(notion.blocks.children.list, block_id=block["id"])]
        if block["has_children"] and block["type"] not in ("child_page", "table"):
            lines += article_text(notion, block["id"])
    return lines


def _title(page: dict[str, Any]) -> str:
    title = next(prop for prop in page["properties"].values() if prop["type"] == "title")
    return "".join(run["plain_text"] for run in title["title"])
