"""What a sync needs besides chunks: the pages the index holds, the watermark and the log of runs (the
reads a run keeps before it publishes are in the staging area, :mod:`lab.index.staging`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from lab.index.rows import id_list
from lab.notion.pages import PageMetadata

__all__ = ["IndexedPage", "IndexSnapshot", "SyncState"]


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


class SyncState:
    """Pages, watermarks and sync runs (a part of ``IndexStore``)."""

    _db: sqlite3.Connection

    def snapshot(self, source: str) -> IndexSnapshot:
        """The index as a sync of ``source`` plans against it, read in one transaction."""
        with self.read_transaction():
            return IndexSnapshot(generation=self.generation(), watermark=self.watermark(source),
                                 data_source_id=self.get_meta(f"{source}.data_source_id"), pages=self.indexed_pages(),
                                 chunk_count=self.count_chunks())

    def put_pages(self, pages: Iterable[IndexedPage]) -> None:
        """Insert or replace these pages (a missing type or url reads ``""``)."""
        with self.transaction():
            self._db.executemany("INSERT OR REPLACE INTO pages VALUES (?,?,?,?,?,?,?,?,?,?)",
                                 [(p.info.id, p.info.title, p.info.type or "", p.info.edited, p.info.url or "",
                                   p.read_at, p.parent_id, p.child_pages, json.dumps(dict(p.shown_originals)),
                                   json.dumps(list(p.held_originals))) for p in pages])

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

    def indexed_pages(self) -> dict[str, IndexedPage]:
        """Pages the index holds, by id, with when each was read and the page it is a sub-page of."""
        rows = self._db.execute("SELECT page_id, title, type, edited, url, read_at, parent_id, child_pages, "
                                "shown_originals, held_originals FROM pages ORDER BY page_id")
        return {r[0]: IndexedPage(info=PageMetadata(id=r[0], title=r[1], type=r[2], edited=r[3], url=r[4]),
                                  read_at=r[5], parent_id=r[6], child_pages=r[7],
                                  shown_originals=() if r[8] == "{}" else tuple(json.loads(r[8]).items()),
                                  held_originals=() if r[9] == "[]" else tuple(json.loads(r[9]))) for r in rows}

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
