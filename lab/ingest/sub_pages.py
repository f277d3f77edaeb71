"""Sub-pages: documents of their own, and the trap of a parent that does not change.

A sub-page (the page behind a ``child_page`` block) is indexed as a document of its own under
its parent, titled "Parent > Child" and typed like its parent. It inherits the parent's
publishability: only sub-pages under publishable pages are indexed, and only if the integration
can see them (its visibility is its own, as for any page: one unshared from the integration is
skipped). A page that is not a row of the data source is never indexed for itself.

The trap: editing a sub-page stamps the sub-page's ``last_edited_time``, not its parent's, and
a sub-page is not a row of the data source, so the watermark query never returns it. The fix:
list the pages the integration can see with ``search``, most recently edited first, and compare
each sub-page's stamp with the read the index holds. The source lesson stops that list at the
watermark; the lab reads it to the end (one request per 100 pages) so that the same list also
reconciles: a sub-page unshared or trashed leaves, one shared again comes back. The list is
made only when some document shows a sub-page. A sub-page its parent shows but the list lacks
(Notion's search lags behind edits) is retrieved before it is declared gone.

A listed page inside a block of its parent (a toggle, a column) names the block, not the page:
the block is retrieved to find the page (:mod:`lab.ingest.page_parents`), only for such a page
the index does not hold yet, and only once a page whose earlier read is current and showed
sub-pages needs them (a page read now shows its sub-pages at any depth).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lab.client import NotionClient
from lab.client.traversal import WalkReport
from lab.ingest.page_parents import ParentPages, has_block_parent
from lab.ingest.page_reads import PageRead, document_info, read_is_current, read_page, retrieve_page, visible_pages
from lab.index import IndexedPage
from lab.ingest.synced_originals import SyncedOriginals
from lab.notion.pages import PageMetadata, PageProperties

__all__ = ["SubPages", "find_sub_pages", "known_read_is_current"]


def known_read_is_current(page: dict[str, Any], known: IndexedPage | None, originals: SyncedOriginals,
                          parent: PageMetadata | None = None, properties: PageProperties = PageProperties()) -> bool:
    """Whether an earlier read of ``page`` (``known``: what the index or a checkpoint holds) can stand
    for a read now, as a document under ``parent`` (``None`` for a row of the data source): same
    parent, same breadcrumb, type, audience and version (read from the selects ``properties`` names: an index
    built without one, or with another, reads its pages again), no edit since (:func:`read_is_current`), and every
    synced original it shows from another page shows the same now (asked of ``originals`` only then)."""
    if known is None or known.parent_id != (parent.id if parent is not None else None):
        return False
    expected = document_info(page, parent, properties)
    return (known.info.title == expected.title and known.info.type == expected.type
            and known.info.audience == expected.audience and known.info.version == expected.version
            and read_is_current(page, known.info.edited, known.read_at)
            and originals.unchanged(dict(known.shown_originals), known.read_at))


@dataclass
class SubPages:
    """The sub-pages the index should hold, found under some documents."""

    reads: list[PageRead] = field(default_factory=list)  # read now
    kept: list[str] = field(default_factory=list)  # ids whose earlier read is current
    resumed: list[PageRead] = field(default_factory=list)  # of those, the reads the caller handed over
    listed: bool = False  # whether the visible pages were listed

    @property
    def ids(self) -> set[str]:
        return {read.id for read in self.reads} | set(self.kept)


class _Children:
    """The visible pages under each page, and the pages the index holds under it: where an unchanged
    page's sub-pages are found. A visible page inside a block is placed under the page that holds
    the block only when first asked (it costs requests), and only if the index does not hold it
    (the index knows its parent)."""

    def __init__(self, client: NotionClient, visible: Mapping[str, dict[str, Any]],
                 known: Mapping[str, IndexedPage]) -> None:
        self._parent_of = ParentPages(client)
        self._of: dict[str, set[str]] = {}
        self._inside_blocks: list[dict[str, Any]] = []
        for page_id, page in visible.items():
            if not has_block_parent(page):
                self._of.setdefault(self._parent_of(page) or "", set()).add(page_id)
            elif page_id not in known:
                self._inside_blocks.append(page)
        for page_id, page_known in known.items():
            if page_known.parent_id is not None:
                self._of.setdefault(page_known.parent_id, set()).add(page_id)

    def of(self, page_id: str) -> list[str]:
        for page in self._inside_blocks:
            self._of.setdefault(self._parent_of(page) or "", set()).add(page["id"])
        self._inside_blocks = []
        return sorted(self._of.get(page_id, ()))


def find_sub_pages(client: NotionClient, documents: Iterable[tuple[PageMetadata, PageRead | None]],
                   known: Mapping[str, IndexedPage], earlier: Mapping[str, PageRead] | None = None,
                   on_page: Callable[[PageRead], None] | None = None, report: WalkReport | None = None,
                   originals: SyncedOriginals | None = None) -> SubPages:
    """Find every sub-page under ``documents`` (the rows the index will hold, each with its read
    made now, or ``None`` if the index's read is current) and read those whose earlier read is
    not current.

    ``known`` says what the index (or a first index's checkpoint) holds about each page;
    ``earlier`` holds the reads themselves when the caller has them (a resumed first index): a
    current one is handed back in ``resumed``, under its parent's current metadata. ``on_page``
    hears of each sub-page read now; ``originals`` is the run's view of synced originals.
    """
    earlier = earlier or {}
    originals = originals or SyncedOriginals(client)
    queue = list(documents)
    result = SubPages()
    if not any(read.child_page_ids if read is not None else known[info.id].child_pages for info, read in queue):
        return result
    visible, result.listed = visible_pages(client), True
    children = _Children(client, visible, known)
    seen = {info.id for info, _ in queue}
    while queue:
        info, read = queue.pop(0)
        # a page in hand shows its sub-pages; an unchanged one has those it had, or one shared again
        # (none if its read showed none: adding a sub-page would have stamped it)
        kids = (read.child_page_ids if read is not None
                else children.of(info.id) if known[info.id].child_pages else [])
        for kid in kids:
            if kid in seen:
                continue
            seen.add(kid)
            page = visible.get(kid) or retrieve_page(client, kid)
            if page is None:  # not shared with the integration, or in the trash
                continue
            if known_read_is_current(page, known.get(kid), originals, info):
                result.kept.append(kid)
                if kid in earlier:
                    resumed = earlier[kid].under(info)
                    result.resumed.append(resumed)
                    queue.append((resumed.info, resumed))
                else:
                    queue.append((known[kid].info, None))
                continue
            child = read_page(client, page, report, parent=info)
            result.reads.append(child)
            if on_page is not None:
                on_page(child)
            queue.append((child.info, child))
    return result
