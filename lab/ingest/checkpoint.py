"""A run's reads, kept in the index file's staging area as soon as they are made, and read back a batch at a time.

Against a real workspace of 10,000 pages at 3 requests per second a first index reads for about
two hours. Keeping each page's read in the staging area of the same SQLite file (committed at
once, outside the published index) means that a crash or a Ctrl-C loses at most the page being
read: the next run lists the pages again, takes every kept page whose ``last_edited_time`` has
not moved, and reads only the rest. A sync keeps the pages it reads again the same way, in a
staging area of its own (:meth:`ReadCheckpoint.scratch`): it does not resume, and the index file
is not written before it publishes.

A run holds only what it needs to decide (each page's metadata, its sub-page links, what it shows
of synced originals): the blocks wait in the file, and publishing reads them back one page at a
time (:meth:`ReadCheckpoint.each_read`), so a workspace of 100,000 pages is never in memory at once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass

from lab.ingest.page_reads import PageRead
from lab.ingest.replanning import IndexMoved
from lab.index import IndexStore, StagedPage
from lab.notion.pages import TYPE_PROPERTY, PageMetadata, PageProperties

__all__ = ["ReadCheckpoint", "StagedRead"]


@dataclass(frozen=True)
class StagedRead:
    """One page a run will publish from the staging area: which page, which read of it (when that read
    began), and the document it sits in now (``None`` for a row; a sub-page's breadcrumb follows it)."""

    page_id: str
    read_at: str
    parent: PageMetadata | None = None

    @classmethod
    def of(cls, read: PageRead) -> StagedRead:
        """The reference to ``read``, as the run holds it now."""
        return cls(read.id, read.read_at, read.parent)


def _read(staged: StagedPage, parent: PageMetadata | None = None, as_kept: bool = True) -> PageRead:
    body = json.loads(staged.body)
    if as_kept:
        parent = PageMetadata(**body["parent"]) if body["parent"] is not None else None
    properties = PageProperties(body.get("audience_property"), body.get("version_property"),
                                body.get("type_property", TYPE_PROPERTY))
    return PageRead(body["page"], [(int(depth), block) for depth, block in body["blocks"]], parent, staged.read_at,
                    properties=properties)


class ReadCheckpoint:
    """The pages a run has read so far, kept in ``store`` under ``key`` (a first index's: its data source id)."""

    def __init__(self, store: IndexStore, key: str) -> None:
        self.store = store
        self.key = key

    @classmethod
    def scratch(cls, key: str) -> ReadCheckpoint:
        """A staging area of its own, in a private temporary file that SQLite deletes when it is closed
        (:meth:`close`) or the process ends, however: where a sync keeps its reads until it publishes."""
        return cls(IndexStore(""), key)

    def close(self) -> None:
        """Close the file this checkpoint keeps its reads in (a scratch one is deleted)."""
        self.store.close()

    def reads(self) -> dict[str, PageRead]:
        """Every kept read under this key, by page id, without its blocks (links to sub-pages and what it
        shows of synced originals stay: :meth:`PageRead.drop_content`); a sub-page's under its parent as
        it was then, which the reader compares with the parent now. Bodies are read one at a time."""
        reads = {}
        for staged in self.store.each_staged_page(self.key):
            read = _read(staged)
            read.drop_content()
            reads[staged.page_id] = read
        return reads

    def keep(self, read: PageRead) -> None:
        """Commit one page's read to the staging area, at once."""
        parent = asdict(read.parent) if read.parent is not None else None
        body = json.dumps({"page": read.page, "blocks": read.blocks, "parent": parent,
                           "audience_property": read.properties.audience,
                           "version_property": read.properties.version,
                           "type_property": read.properties.type}, ensure_ascii=False)
        self.store.stage_page(StagedPage(page_id=read.id, parent_id=read.parent_id, read_at=read.read_at,
                                         body=body), self.key)

    def each_read(self, pages: Sequence[StagedRead]) -> Iterator[PageRead]:
        """The whole reads of ``pages`` (a batch), one at a time, each under its parent now, in no particular
        order: the caller cuts each and drops its blocks before the next is decoded.

        Raises :class:`~lab.ingest.replanning.IndexMoved` if a read is no longer the one the run made
        (another run replaced it, or published and emptied the staging area): the run plans again.
        """
        expected = {page.page_id: page for page in pages}
        for staged in self.store.each_staged_read(self.key, list(expected)):
            page = expected.pop(staged.page_id)
            if staged.read_at != page.read_at:
                raise _moved(self.store, page)
            yield _read(staged, page.parent, as_kept=False)
        if expected:
            raise _moved(self.store, next(iter(expected.values())))


def _moved(store: IndexStore, page: StagedRead) -> IndexMoved:
    return IndexMoved(f"the read of page {page.page_id} kept in the staging area of {store.path or 'a scratch file'} "
                      "is not the one this run made: another run replaced it or published; plan again")
