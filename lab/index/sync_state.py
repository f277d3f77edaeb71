"""What a sync needs besides chunks: the pages the index holds, the watermark and the log of runs (the
reads a run keeps before it publishes are in the staging area, :mod:`lab.index.staging`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lab.index.rows import batches, id_list, marks
from lab.notion.pages import PageMetadata

__all__ = ["IndexedPage", "IndexSnapshot", "SyncState", "CHUNK_COUNT_SUFFIX", "SUB_PAGES_SUFFIX"]

#: Meta keys (after a source's name) of what a run kept for the next one, valid while the content's stamp holds.
CHUNK_COUNT_SUFFIX, SUB_PAGES_SUFFIX = ".chunk_count", ".holds_sub_pages"


@dataclass(frozen=True, kw_only=True)
class IndexedPage:
    """A page the index holds: its metadata as read, when it was read, the page it is a sub-page
    of (``None`` for a row of the data source), how many sub-pages its read showed, what it
    showed of synced originals held elsewhere (original id, fingerprint) and the originals it
    holds (see :mod:`lab.ingest.synced_originals`)."""

    info: PageMetadata
    read_at: str = ""
    parent_id: str | None = None
    child_pages: int = 0
    shown_originals: tuple[tuple[str, str], ...] = ()
    held_originals: tuple[str, ...] = ()

@dataclass(frozen=True, kw_only=True)
class IndexSnapshot:
    """What a sync plans against, read in one transaction: the generation, the watermark and data
    source of one source, every page, and how many chunks the index holds. The chunks of the
    pages a sync reads are looked up when it knows which (:meth:`IndexStore.page_chunks`); if
    another run publishes in between, the generation has moved and the sync plans again."""

    generation: int
    watermark: str | None
    data_source_id: str | None
    pages: dict[str, IndexedPage]
    chunk_count: int
    reconciled_at: str | None = None  # when the last run that listed every publishable page began
    whole: bool = True  # False: a quick sync's snapshot, without the pages (looked up as needed)
    content_stamp: str = ""  # the content's stamp then: a count kept under it still holds while it has not moved
    holds_sub_pages: bool = False  # whether any page the index holds is a sub-page


class SyncState:
    """Pages, watermarks and sync runs (a part of ``IndexStore``)."""

    _db: sqlite3.Connection

    def snapshot(self, source: str, whole: bool = True, reconciled_key: str | None = None) -> IndexSnapshot:
        """The index as a sync of ``source`` plans against it, read in one transaction (or in the caller's);
        ``whole=False`` leaves out every page and the chunk count (a quick sync looks up the few pages it
        needs: its write checks that the generation has not moved since). ``reconciled_key``: the meta key
        that says when the index was last reconciled."""
        with self.read_transaction():
            reconciled_at = self.get_meta(reconciled_key) if reconciled_key is not None else None
            return IndexSnapshot(generation=self.generation(), watermark=self.watermark(source),
                                 data_source_id=self.get_meta(f"{source}.data_source_id"),
                                 pages=self.indexed_pages() if whole else {},
                                 chunk_count=self.chunk_total(source), reconciled_at=reconciled_at,
                                 whole=whole, content_stamp=self.content_stamp(),
                                 holds_sub_pages=self.known_to_hold_sub_pages(source))

    def chunk_total(self, source: str) -> int:
        """How many chunks the index holds: the count the last run of ``source`` kept, if nothing was written
        since (:meth:`keep_counts`), else counted (a count reads every row of an index of the chunk ids)."""
        kept = self._stamped(f"{source}{CHUNK_COUNT_SUFFIX}")
        return int(kept) if kept is not None else self.count_chunks()

    def known_to_hold_sub_pages(self, source: str) -> bool:
        """Whether the index holds a sub-page: as the last run of ``source`` kept it (``True`` may outlast the
        last sub-page until a reconciliation), if nothing was written since, else looked for."""
        kept = self._stamped(f"{source}{SUB_PAGES_SUFFIX}")
        return kept == "1" if kept is not None else self.holds_sub_pages()

    def keep_counts(self, source: str, chunks: int, sub_pages: bool) -> None:
        """Keep how many chunks the index holds and whether it holds sub-pages under the content's stamp now
        (inside the run's transaction, after its last write): the next run reads them instead of counting."""
        stamp = self.content_stamp()
        with self.transaction():
            self.set_meta(f"{source}{CHUNK_COUNT_SUFFIX}", f"{stamp}:{chunks}")
            self.set_meta(f"{source}{SUB_PAGES_SUFFIX}", f"{stamp}:{int(sub_pages)}")

    def _stamped(self, key: str) -> str | None:
        kept = self.get_meta(key)
        if kept is None:
            return None
        stamp, _, value = kept.rpartition(":")
        return value if stamp == self.content_stamp() else None

    def put_pages(self, pages: Iterable[IndexedPage]) -> None:
        """Insert or replace these pages (a missing type or url reads ``""``; a missing audience or version stays
        ``NULL``)."""
        with self.transaction():
            self._db.executemany("INSERT OR REPLACE INTO pages (page_id, title, type, edited, url, read_at, parent_id, "
                                 "child_pages, shown_originals, held_originals, audience, version) "
                                 "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                                 [(p.info.id, p.info.title, p.info.type or "", p.info.edited, p.info.url or "",
                                   p.read_at, p.parent_id, p.child_pages, json.dumps(dict(p.shown_originals)),
                                   json.dumps(list(p.held_originals)), p.info.audience, p.info.version)
                                  for p in pages])

    def delete_pages(self, page_ids: Iterable[str]) -> int:
        """Remove pages and every chunk cut from them; the number of chunks removed."""
        page_ids = id_list(page_ids, "page_ids")
        with self.transaction():
            removed = self.delete_chunks(self.page_chunks(page_ids))
            self._db.executemany("DELETE FROM pages WHERE page_id = ?", [(p,) for p in page_ids])
            return removed

    def page_ids(self) -> set[str]:
        """The ids of the pages the index holds (a full index removes those it did not read again)."""
        return {row[0] for row in self._db.execute("SELECT page_id FROM pages")}

    def chunks_without_page(self) -> list[str]:
        """Ids of the chunks cut from no page the index holds (written by another kind of run, or left
        by a page removed): what a full index, which replaces the whole index, deletes last."""
        return [row[0] for row in self._db.execute(
            "SELECT id FROM chunks WHERE page_id NOT IN (SELECT page_id FROM pages) ORDER BY id")]

    def pages(self) -> dict[str, PageMetadata]:
        """Pages the index holds, by id, as they were when read (``edited`` is their last_edited_time then)."""
        return {page_id: page.info for page_id, page in self.indexed_pages().items()}

    def indexed_pages(self, page_ids: Iterable[str] | None = None) -> dict[str, IndexedPage]:
        """Pages the index holds, by id, with when each was read and the page it is a sub-page of: every
        page, or only those of ``page_ids`` (looked up by key: a quick sync reads the few it needs)."""
        if page_ids is None:
            return self._indexed_pages("ORDER BY page_id", ())
        found: dict[str, IndexedPage] = {}
        for batch in batches(sorted(set(id_list(page_ids, "page_ids")))):
            found.update(self._indexed_pages(f"WHERE page_id IN ({marks(batch)})", batch))
        return dict(sorted(found.items()))

    def sub_pages_of(self, parent_ids: Iterable[str]) -> dict[str, IndexedPage]:
        """The pages the index holds as sub-pages of these pages, by id (a scan of the pages table: ask only
        for pages whose read showed sub-pages)."""
        found: dict[str, IndexedPage] = {}
        for batch in batches(sorted(set(id_list(parent_ids, "parent_ids")))):
            found.update(self._indexed_pages(f"WHERE parent_id IN ({marks(batch)})", batch))
        return dict(sorted(found.items()))

    def holds_sub_pages(self) -> bool:
        """Whether the index holds any sub-page."""
        return self._db.execute("SELECT EXISTS (SELECT 1 FROM pages WHERE parent_id IS NOT NULL)").fetchone()[0] == 1

    def pages_with_originals(self, original_ids: Iterable[str], *, held: bool) -> dict[str, IndexedPage]:
        """The pages whose read holds (``held``) or shows from elsewhere one of these synced originals, by id
        (a scan of the pages table: ask only for originals a run has reason to doubt)."""
        column = "held_originals" if held else "shown_originals"
        found: dict[str, IndexedPage] = {}
        for original in sorted(set(id_list(original_ids, "original_ids"))):
            for page_id, page in self._indexed_pages(f"WHERE {column} LIKE ?", (f'%"{original}"%',)).items():
                if original in (page.held_originals if held else dict(page.shown_originals)):
                    found[page_id] = page
        return dict(sorted(found.items()))

    def _indexed_pages(self, where: str, parameters: Sequence[Any]) -> dict[str, IndexedPage]:
        rows = self._db.execute("SELECT page_id, title, type, edited, url, read_at, parent_id, child_pages, "
                                f"shown_originals, held_originals, audience, version FROM pages {where}", parameters)
        return {r[0]: IndexedPage(info=PageMetadata(id=r[0], title=r[1], type=r[2], edited=r[3], url=r[4],
                                                    audience=r[10], version=r[11]),
                                  read_at=r[5], parent_id=r[6], child_pages=r[7],
                                  shown_originals=() if r[8] == "{}" else tuple(json.loads(r[8]).items()),
                                  held_originals=() if r[9] == "[]" else tuple(json.loads(r[9]))) for r in rows}

    def audiences(self) -> dict[str, str]:
        """The audience of each page the index holds that names one, by page id (pages without one are left out)."""
        return dict(self._db.execute("SELECT page_id, audience FROM pages WHERE audience IS NOT NULL ORDER BY page_id"))

    def read_times(self) -> dict[str, str]:
        """When each page the index holds was read (ISO time; ``""`` if not recorded)."""
        return dict(self._db.execute("SELECT page_id, read_at FROM pages ORDER BY page_id"))

    def watermark(self, source: str) -> str | None:
        row = self._db.execute("SELECT watermark FROM sync_state WHERE source = ?", (source,)).fetchone()
        return row[0] if row else None

    def set_watermark(self, source: str, watermark: str) -> None:
        """Move the watermark of ``source`` forward to ``watermark``; it never goes back."""
        with self.transaction():
            self._db.execute("INSERT INTO sync_state VALUES (?, ?) ON CONFLICT (source) DO UPDATE "
                             "SET watermark = MAX(watermark, excluded.watermark)", (source, watermark))

    def add_sync_run(self, run: Mapping[str, Any]) -> None:
        columns = ["source", "kind", "watermark_before", "watermark", "ran_at", "requests", "pages_reread",
                   "pages_removed", "chunks_new", "chunks_updated", "chunks_unchanged", "chunks_deleted",
                   "chunks_total", "tokens_embedded"]
        with self.transaction():
            self._db.execute(f"INSERT INTO sync_runs ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                             [run[c] for c in columns])

    def sync_runs(self) -> list[dict[str, Any]]:
        cursor = self._db.execute("SELECT * FROM sync_runs ORDER BY run")
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor]
