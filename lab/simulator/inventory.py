"""What a workspace holds and what one integration can see of it, as tables."""

from __future__ import annotations

from collections import Counter

import pandas as pd

from lab.simulator.workspace import Page, Workspace

__all__ = ["page_status", "page_inventory", "block_type_counts", "STATUSES"]

STATUSES = ("publishable", "draft", "private")


def page_status(ws: Workspace, page_id: str, integration_key: str) -> str:
    """``publishable`` (shared, box ticked, or a sub-page under such a row, as the indexer reads it),
    ``draft`` (shared, not publishable) or ``private`` (not shared)."""
    if not ws.can_see(ws.integration_by_key(integration_key), page_id):
        return "private"
    row = _row_above(ws, page_id)
    return "publishable" if row is not None and row.parent_type == "data_source_id" and row.publishable else "draft"


def _row_above(ws: Workspace, page_id: str) -> Page | None:
    """The page at the top of ``page_id``'s chain of parent pages (through the blocks that hold
    sub-pages), itself for a row or a top-level page; ``None`` on a cycle."""
    page, seen = ws.pages[page_id], set()
    while page.parent_type in ("page_id", "block_id") and page.id not in seen:
        seen.add(page.id)
        parent = page.parent_id if page.parent_type == "page_id" else ws.blocks[page.parent_id].page_id
        page = ws.pages[parent]
    return None if page.id in seen else page


def _descendants(ws: Workspace, page_id: str) -> list[str]:
    """Every block of a page (nested ones included), without entering sub-pages."""
    out, stack = [], list(reversed(ws.pages[page_id].children))
    while stack:
        block = ws.blocks[stack.pop()]
        out.append(block.id)
        if block.type != "child_page" and not block.synced_from:
            stack.extend(reversed(block.children))
    return out


def page_inventory(ws: Workspace, integration_key: str) -> pd.DataFrame:
    """One row per page: title, type, status for this integration, blocks, last edit."""
    rows = []
    for page in ws.pages.values():
        rows.append({"title": page.title, "type": page.type, "status": page_status(ws, page.id, integration_key),
                     "blocks": len(_descendants(ws, page.id)), "edited": page.edited, "in_trash": page.in_trash,
                     "page_id": page.id})
    frame = pd.DataFrame(rows)
    frame["status"] = pd.Categorical(frame["status"], categories=list(STATUSES), ordered=True)
    return frame.sort_values(["status", "type", "title"]).reset_index(drop=True)


def block_type_counts(ws: Workspace, page_ids: list[str] | None = None) -> pd.DataFrame:
    """How many blocks of each type the given pages hold (all pages by default), most common first."""
    ids = page_ids if page_ids is not None else list(ws.pages)
    counts = Counter(ws.blocks[b].type for p in ids for b in _descendants(ws, p))
    frame = pd.DataFrame(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])), columns=["block_type", "blocks"])
    return frame
