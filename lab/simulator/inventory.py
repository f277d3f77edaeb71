"""What a workspace holds and what one integration can see of it, as tables."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from lab.simulator.workspace import Workspace

if TYPE_CHECKING:  # pandas loads when a table is made: the served simulator and the command line start without it
    import pandas as pd

__all__ = ["page_status", "page_inventory", "block_type_counts", "STATUSES"]

STATUSES = ("publishable", "draft", "private")


def page_status(ws: Workspace, page_id: str, integration_key: str) -> str:
    """``publishable`` (shared, box ticked, or a sub-page under such a row, as the indexer reads it),
    ``draft`` (shared, not publishable) or ``private`` (not shared)."""
    if not ws.can_see(ws.integration_by_key(integration_key), page_id):
        return "private"
    top = [ws.pages[above] for above in ws.ancestors(page_id) if above in ws.pages][-1]  # the row it hangs from
    return "publishable" if top.parent_type == "data_source_id" and top.publishable else "draft"


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
    import pandas as pd

    frame = pd.DataFrame(rows)
    frame["status"] = pd.Categorical(frame["status"], categories=list(STATUSES), ordered=True)
    return frame.sort_values(["status", "type", "title"]).reset_index(drop=True)


def block_type_counts(ws: Workspace, page_ids: list[str] | None = None) -> pd.DataFrame:
    """How many blocks of each type the given pages hold (all pages by default), most common first."""
    ids = page_ids if page_ids is not None else list(ws.pages)
    counts = Counter(ws.blocks[b].type for p in ids for b in _descendants(ws, p))
    import pandas as pd

    frame = pd.DataFrame(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])), columns=["block_type", "blocks"])
    return frame
