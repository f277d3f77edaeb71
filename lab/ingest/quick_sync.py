"""A quick sync: what the watermark query returns, and what those pages' edits reach, without listing the workspace.

A reconciliation lists every publishable row of the data source (one request per 100 rows: 1,000
requests at 100,000 pages, five and a half minutes at Notion's 3 requests per second), so it runs
on a cadence (:class:`~lab.ingest.sync.SyncConfig`'s ``reconcile_every``). In between, a quick sync
asks only for the rows edited ``on_or_after`` the watermark and looks up, in the index, only the
pages it has reason to doubt. What it catches:

- a row edited, created, renamed, retyped or restored from the trash (each stamps the row): read
  again if the index's read is not current; a row whose ``Publicable`` box was unticked (a property
  edit, so it is stamped too) leaves the index with its sub-pages;
- sub-pages: a row or sub-page read again shows its sub-pages now, so one added, moved out or
  trashed (each edits the parent's blocks, which stamps it) comes or goes with it, and a renamed
  parent's sub-pages are read again under their new breadcrumb; a sub-page is not a row, so its own
  edits never reach the watermark query: when the index holds sub-pages (or a page read now shows
  one), ``search`` lists the visible pages most recently edited first, stopped at the watermark
  (one request when little changed), and every sub-page in it that the index holds under a parent
  that stays is read again if its read is not current;
- synced blocks: editing an original stamps the page that holds it; when a page read again holds
  originals (now or in the index's read), every page the index holds that shows one of them is
  compared with what the original shows now (read once), and read again if it moved.

What waits for the next reconciliation, because nothing stamps a page a data-source query still
returns: a row moved to the trash or deleted (a query no longer returns it, and its stamp does
not reach the watermark query), a page unshared from the integration or shared again, a sub-page
unshared (its parent is not edited), an original held by a page the index does not hold or by a
page that was unshared or trashed (the reference then shows nothing, and no page is stamped), and
a sub-page edit that Notion's search has not caught up with when the sync runs. Each of these
reaches the index at the next reconciliation, which compares every listed row with the index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from lab.client import NotionClient, WalkReport, query_every_row
from lab.errors import LabError
from lab.index import IndexedPage, IndexStore
from lab.ingest.page_reads import PageRead, document_info, page_essentials, read_page, retrieve_page
from lab.ingest.reading import page_property
from lab.ingest.sub_pages import known_read_is_current
from lab.ingest.synced_originals import SyncedOriginals
from lab.notion.pages import PageMetadata, PageProperties

__all__ = ["QuickPlan", "plan_quick", "edited_filter", "MissingPropertyError"]


class MissingPropertyError(LabError, LookupError):
    """The watermark query's rows lack the publishable checkbox: nothing can say which of them to index."""


def edited_filter(watermark: str) -> dict[str, Any]:
    """The watermark query's filter: every row edited in the watermark's minute or later, publishable or not."""
    return {"timestamp": "last_edited_time", "last_edited_time": {"on_or_after": watermark}}


@dataclass
class QuickPlan:
    """What a quick sync found: the pages it read (in the order read), the pages that leave the index
    (as the index held them), and the rows the watermark query returned (last edit, title)."""

    reads: list[PageRead] = field(default_factory=list)
    removed: dict[str, IndexedPage] = field(default_factory=dict)
    changed: list[tuple[str, str]] = field(default_factory=list)
    query_windows: int = 0
    walk: WalkReport = field(default_factory=WalkReport)


class _Holders(Mapping[str, str]):
    """The page the index holds each synced original in, looked up only for the originals asked about."""

    def __init__(self, store: IndexStore) -> None:
        self._store = store
        self._found: dict[str, str | None] = {}

    def __getitem__(self, original: str) -> str:
        if original not in self._found:
            holders = self._store.pages_with_originals([original], held=True)
            self._found[original] = next(iter(holders), None)
        holder = self._found[original]
        if holder is None:
            raise KeyError(original)
        return holder

    def __iter__(self) -> Iterator[str]:
        return (original for original, holder in self._found.items() if holder is not None)

    def __len__(self) -> int:
        return sum(holder is not None for holder in self._found.values())


def _keeping(publishable_property: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """:func:`page_essentials`, plus the publishable checkbox (the watermark query returns unpublished rows too)."""
    def shape(page: dict[str, Any]) -> dict[str, Any]:
        kept = page_essentials(page)
        box = (page.get("properties") or {}).get(publishable_property)
        if box is not None and isinstance(kept.get("properties"), dict):
            kept["properties"][publishable_property] = box
        return kept

    return shape


def _edited_since(client: NotionClient, watermark: str) -> dict[str, dict[str, Any]]:
    """The visible pages edited in the watermark's minute or later, by id: ``search``, most recently edited
    first, stopped at the first page edited before it."""
    found: dict[str, dict[str, Any]] = {}
    cursor: str | None = None
    while True:
        answer = client.search(filter={"property": "object", "value": "page"}, page_size=100,
                               sort={"timestamp": "last_edited_time", "direction": "descending"},
                               **({"start_cursor": cursor} if cursor else {}))
        for page in answer["results"]:
            if page["last_edited_time"] < watermark:
                return found
            found[page["id"]] = page_essentials(page)
        cursor = answer.get("next_cursor")
        if not answer.get("has_more") or not cursor:
            return found


class _QuickRun:
    """One quick sync's reads, worked out page by page: each page read now shows its sub-pages, and what
    leaves the index is named explicitly (nothing the run did not look at leaves)."""

    def __init__(self, client: NotionClient, store: IndexStore, keep: Callable[[PageRead], None],
                 properties: PageProperties, publishable_property: str,
                 rows: Mapping[str, dict[str, Any]]) -> None:
        self.client, self.store, self.keep = client, store, keep
        self.properties, self.publishable_property = properties, publishable_property
        self.plan = QuickPlan()
        self.known: dict[str, IndexedPage] = {}  # what the index holds of the pages looked at
        self.handled: dict[str, PageMetadata] = {}  # pages read now or kept, as documents under their parent now
        self.visible: dict[str, dict[str, Any]] = {}  # pages search listed, edited since the watermark
        # an original is unchanged for a read if the row holding it was returned and not edited since
        self.originals = SyncedOriginals(client, holders=_Holders(store), listed=rows)
        self.queue: list[PageRead] = []

    def look_up(self, page_ids: list[str]) -> None:
        """Fetch what the index holds of these pages, once each."""
        missing = [page_id for page_id in page_ids if page_id not in self.known]
        if missing:
            self.known.update(self.store.indexed_pages(missing))

    def read(self, page: dict[str, Any], parent: PageMetadata | None) -> None:
        """Read ``page`` now, as a document under ``parent``, keep the read and settle its sub-pages later."""
        read = read_page(self.client, page, self.plan.walk, parent=parent, properties=self.properties)
        self.keep(read)
        self.plan.reads.append(read)
        self.handled[read.id] = read.info
        self.plan.removed.pop(read.id, None)
        self.queue.append(read)

    def consider(self, page: dict[str, Any], parent: PageMetadata | None) -> None:
        """Keep the index's read of ``page`` as a document under ``parent`` if it is current, else read it."""
        self.look_up([page["id"]])
        if known_read_is_current(page, self.known.get(page["id"]), self.originals, parent, self.properties):
            self.handled[page["id"]] = self.known[page["id"]].info  # the same as a read now would carry
        else:
            self.read(page, parent)

    def remove(self, page_ids: list[str]) -> None:
        """Take these pages out of the index with every sub-page under them (those the run handled stay)."""
        self.look_up(page_ids)
        frontier = [self.known[page_id] for page_id in page_ids if page_id in self.known
                    and page_id not in self.handled and page_id not in self.plan.removed]
        while frontier:
            for page in frontier:
                self.plan.removed[page.info.id] = page
            parents = [page.info.id for page in frontier if page.child_pages]
            below = self.store.sub_pages_of(parents) if parents else {}
            self.known.update(below)
            frontier = [page for page_id, page in below.items()
                        if page_id not in self.handled and page_id not in self.plan.removed]

    def expand(self) -> None:
        """Settle the sub-pages of every page read now: those it shows are kept or read, those the index held
        under it and it no longer shows leave."""
        while self.queue:
            read = self.queue.pop(0)
            shown = read.child_page_ids
            known = self.known.get(read.id)
            before = self.store.sub_pages_of([read.id]) if known is not None and known.child_pages else {}
            self.known.update(before)
            for kid in shown:
                if kid in self.handled:
                    continue
                page = self.visible.get(kid) or retrieve_page(self.client, kid)
                if page is not None:
                    self.consider(page_essentials(page), read.info)
            self.remove([kid for kid in before if kid not in self.handled])

    def parent_now(self, page: IndexedPage) -> PageMetadata | None:
        """The document a sub-page sits in now: its parent as read now, or as the index holds it."""
        if page.parent_id in self.handled:
            return self.handled[page.parent_id]
        self.look_up([page.parent_id])
        parent = self.known.get(page.parent_id)
        return parent.info if parent is not None else None


def plan_quick(client: NotionClient, store: IndexStore, source_id: str, watermark: str,
               keep: Callable[[PageRead], None], *, publishable_property: str,
               properties: PageProperties, holds_sub_pages: bool) -> QuickPlan:
    """Read what the watermark query and its pages' edits say changed (see the module's docstring); every
    page read is handed to ``keep`` as soon as it is read; ``holds_sub_pages``: whether the index holds any
    (then search lists the pages edited since the watermark). Nothing is written to the index."""
    edited = query_every_row(client.data_sources.query, source_id, filter=edited_filter(watermark),
                             shape=_keeping(publishable_property))
    rows, windows = edited.rows, edited.windows
    del edited
    run = _QuickRun(client, store, keep, properties, publishable_property, {row["id"]: row for row in rows})
    run.plan.query_windows = windows
    run.plan.changed = [(row["last_edited_time"], document_info(row).title) for row in rows]
    run.look_up([row["id"] for row in rows])
    unpublished = []
    for row in rows:
        if publishable_property not in (row.get("properties") or {}):
            raise MissingPropertyError(
                f"the rows of data source {source_id} have no property {publishable_property!r}, the checkbox "
                "that marks publishable pages; give the one the index was built with (--publishable-property)")
        if page_property(row, publishable_property) is True:
            run.consider(row, None)
        elif row["id"] in run.known:
            unpublished.append(row["id"])
    run.remove(unpublished)
    if holds_sub_pages or any(read.child_page_ids for read in run.plan.reads):
        run.visible = _edited_since(client, watermark)
    run.expand()
    _edited_sub_pages(run)
    _shown_originals(run)
    return run.plan


def _edited_sub_pages(run: _QuickRun) -> None:
    """Read again every sub-page search listed as edited whose parent stays and whose read is not current,
    parents before their sub-pages (a sub-page's breadcrumb is its parent's title)."""
    run.look_up(list(run.visible))
    pending = {page_id: run.known[page_id] for page_id in run.visible
               if page_id in run.known and run.known[page_id].parent_id is not None}
    while pending:
        ready = [page_id for page_id, page in pending.items() if page.parent_id not in pending]
        for page_id in ready or list(pending)[:1]:
            page = pending.pop(page_id)
            if page_id in run.handled or page_id in run.plan.removed or page.parent_id in run.plan.removed \
                    or page.parent_id in {read.id for read in run.plan.reads}:
                continue  # settled already, or by its parent read now (which no longer shows it, if it is not handled)
            parent = run.parent_now(page)
            if parent is not None:
                run.consider(run.visible[page_id], parent)
                run.expand()


def _shown_originals(run: _QuickRun) -> None:
    """Read again every page that shows a synced original held by a page read now, if what it shows moved."""
    held: set[str] = set()
    for read in list(run.plan.reads):
        held.update(read.synced_originals[1])
        if read.id in run.known:
            held.update(run.known[read.id].held_originals)
    if not held:
        return
    read_now = {read.id for read in run.plan.reads}
    for page_id, page in run.store.pages_with_originals(sorted(held), held=False).items():
        if page_id in read_now or page_id in run.plan.removed:
            continue
        shown = dict(page.shown_originals)
        if all(run.originals.fingerprint(original) == shown[original] for original in sorted(held & set(shown))):
            continue
        run.known.setdefault(page_id, page)
        found = retrieve_page(run.client, page_id)
        parent = run.parent_now(page) if page.parent_id is not None else None
        if found is None or (page.parent_id is None and page_property(found, run.publishable_property) is not True) \
                or (page.parent_id is not None and parent is None):
            run.remove([page_id])
            continue
        run.handled.pop(page_id, None)
        run.read(page_essentials(found), parent)
        run.expand()
