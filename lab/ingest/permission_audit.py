"""The permission audit: which pages each integration can see, and which of them it should not.

An integration needs only the publishable pages of the knowledge base; the indexer reads no
other (:mod:`lab.ingest.reading`). Whatever else is shared with it is exposure without use: a
token that leaks, or a reader with a bug, reaches it. The audit lists every page an integration
sees (``search`` with no query returns everything shared with it, which is all Notion lets an
integration learn about its own access) and flags the pages the indexer would not index:

- ``draft``: a row of a data source whose publishable checkbox is not ticked. Sharing a data
  source shares all its rows, so drafts are visible to every integration that reads it; the
  query filter keeps them out of the index, and moving them out is the only way to hide them.
- ``private``: a page outside the knowledge base (a workspace page, or a page under one) that was
  shared with the integration, or a sub-page under an unpublished row. Nothing needs it: unshare it.

Each integration's **roots** are what sits at the top of what it sees: the data sources and pages
shared with it, whose parent it cannot see (:func:`integration_roots`). Everything else it sees
hangs below one of them, since sharing a page shares its sub-pages and sharing a data source
shares its rows. One integration per knowledge domain, each shared with its domain's roots only,
keeps a leaked token to one subtree: the audit lists the roots and counts what hangs below.

A sub-page inherits its parent's publishability, as the indexer reads it; one inside a block
(a toggle, a column) hangs from the page that holds the block, which costs the audit a
``blocks.retrieve`` per block between them (:mod:`lab.ingest.page_parents`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

import pandas as pd

from lab.client import NotionClient, collect_paginated_api
from lab.ingest.page_parents import ParentPages
from lab.ingest.reading import PUBLISHABLE_PROPERTY, page_property, page_title

__all__ = ["VisiblePage", "SharedRoot", "audit_integration", "audit_integrations", "audit_summary", "integration_label",
           "integration_roots", "roots_table"]


@dataclass(frozen=True, kw_only=True)
class VisiblePage:
    """One page one integration can see, and whether the audit flags it (``flag`` is "" if not)."""

    integration: str
    page_id: str
    title: str
    parent: str  # "data_source_id", "page_id", "block_id" or "workspace": where Notion says it lives
    flag: str  # "", "draft" or "private"
    reason: str


@dataclass(frozen=True, kw_only=True)
class SharedRoot:
    """A data source or page at the top of what one integration sees: its parent is out of the integration's sight."""

    integration: str
    object_id: str
    kind: str  # "data_source" or "page"
    title: str

    def label(self) -> str:
        """The root's title and, for a data source, what it is: "Base de conocimiento (data source)"."""
        return f"{self.title} (data source)" if self.kind == "data_source" else self.title


def integration_label(client: NotionClient) -> str:
    """The integration's name as Notion reports it for its token (its bot user)."""
    return str(client.users.me().get("name") or "unnamed integration")


def _parent_type(page: Mapping[str, Any]) -> str:
    return str((page.get("parent") or {}).get("type", "workspace"))


def _classify(page: Mapping[str, Any], visible: Mapping[str, Mapping[str, Any]], parent_of: ParentPages,
              prop: str) -> tuple[str, str]:
    """(flag, reason) for one page: a publishable row, or a sub-page under one, is not flagged."""
    kind, seen = _parent_type(page), {page["id"]}
    while kind in ("page_id", "block_id"):  # walk up to the row (or workspace page) it hangs from
        above = visible.get(parent_of(page) or "")
        if above is None or above["id"] in seen:
            return "private", "a sub-page whose parent is not visible"
        page, seen = above, seen | {above["id"]}
        kind = _parent_type(page)
    ticked = page_property(page, prop) if kind == "data_source_id" else None
    if ticked is True:
        return "", "publishable" if len(seen) == 1 else "a sub-page of a publishable row"
    if len(seen) > 1:
        return "private", ("a sub-page of an unpublished row" if kind == "data_source_id"
                           else "a sub-page of a page outside the knowledge base")
    if ticked is not None:
        return "draft", f"a row whose {prop!r} box is not ticked"
    if kind == "data_source_id":
        return "private", f"a row of a data source without a {prop!r} box"
    return "private", "a page outside the knowledge base"


def audit_integration(client: NotionClient, label: str | None = None,
                      publishable_property: str = PUBLISHABLE_PROPERTY) -> list[VisiblePage]:
    """Every page ``client``'s integration can see, in title order, each flagged or not."""
    label = label if label is not None else integration_label(client)
    pages = collect_paginated_api(client.search, filter={"property": "object", "value": "page"})
    visible, parent_of = {page["id"]: page for page in pages}, ParentPages(client)
    rows = []
    for page in pages:
        flag, reason = _classify(page, visible, parent_of, publishable_property)
        rows.append(VisiblePage(integration=label, page_id=page["id"], title=page_title(page),
                                parent=_parent_type(page), flag=flag, reason=reason))
    return sorted(rows, key=lambda row: (row.title, row.page_id))


def _plain(rich_text: Any) -> str:
    return "".join(str(part.get("plain_text", "")) for part in rich_text or [] if isinstance(part, Mapping))


def integration_roots(client: NotionClient, label: str | None = None) -> list[SharedRoot]:
    """The data sources and pages at the top of what ``client``'s integration sees, data sources first, then by
    title: a data source whose database sits in no page it sees, a page whose parent (row of a data source,
    page, or the page holding its block) it does not see."""
    label = label if label is not None else integration_label(client)
    sources = collect_paginated_api(client.search, filter={"property": "object", "value": "data_source"})
    pages = collect_paginated_api(client.search, filter={"property": "object", "value": "page"})
    visible, parent_of = {obj["id"] for obj in [*sources, *pages]}, ParentPages(client)
    roots = [SharedRoot(integration=label, object_id=source["id"], kind="data_source",
                        title=_plain(source.get("title")))
             for source in sources if (source.get("database_parent") or {}).get("page_id") not in visible]
    for page in pages:
        parent = page.get("parent") or {}
        above = parent.get("data_source_id") if parent.get("type") == "data_source_id" else parent_of(page)
        if above not in visible:
            roots.append(SharedRoot(integration=label, object_id=page["id"], kind="page", title=page_title(page)))
    return sorted(roots, key=lambda root: (root.kind != "data_source", root.title, root.object_id))


def roots_table(clients: Mapping[str, NotionClient]) -> pd.DataFrame:
    """One row per root of each integration (columns of :class:`SharedRoot`), integrations in the order given."""
    rows = [asdict(root) for label, client in clients.items() for root in integration_roots(client, label)]
    return pd.DataFrame(rows, columns=list(SharedRoot.__dataclass_fields__))


def audit_integrations(clients: Mapping[str, NotionClient],
                       publishable_property: str = PUBLISHABLE_PROPERTY) -> pd.DataFrame:
    """One row per page each integration sees (columns of :class:`VisiblePage`), integrations in
    the order given; ``clients`` maps a label to a client holding that integration's token."""
    rows = [asdict(row) for label, client in clients.items()
            for row in audit_integration(client, label, publishable_property)]
    return pd.DataFrame(rows, columns=list(VisiblePage.__dataclass_fields__))


def audit_summary(audit: pd.DataFrame, roots: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per integration: pages visible, publishable, drafts and private pages (in the audit's order), and
    first, given ``roots`` (:func:`roots_table`), the roots they hang from, joined by "; "."""
    order = list(dict.fromkeys(audit["integration"]))
    counts = (audit.assign(publishable=audit["flag"].eq(""), drafts=audit["flag"].eq("draft"),
                           private=audit["flag"].eq("private"))
              .groupby("integration", sort=False)
              .agg(visible=("page_id", "size"), publishable=("publishable", "sum"), drafts=("drafts", "sum"),
                   private=("private", "sum")))
    summary = counts.reindex(order).reset_index().astype({c: int for c in ("visible", "publishable", "drafts",
                                                                            "private")})
    if roots is not None:
        labels = [SharedRoot(**row).label() for row in roots.to_dict("records")]
        joined = pd.Series(labels, dtype=object).groupby(roots["integration"].to_numpy(), sort=False).agg("; ".join)
        summary.insert(1, "roots", summary["integration"].map(joined).fillna(""))
    return summary
