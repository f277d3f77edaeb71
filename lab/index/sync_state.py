"""What a sync needs besides chunks: the pages the index holds, the watermark, the log of runs, and
the staging area where a first index keeps the pages it has read so that an interrupted one resumes."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from lab.index.rows import id_list
from lab.notion.pages import PageMetadata

__all__ = ["IndexedPage", "IndexSnapshot", "StagedPage", "SyncState"]


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

@dataclass(frozen=True, kw_only=True)
class StagedPage:
    """One page a first index read and kept before publishing: its read, encoded as text."""

    page_id: str
    parent_id: str | None
    read_at: str
    body: str


class SyncState:
    """Pages, watermarks, sync runs and the staging area (a part of ``IndexStore``)."""

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

    def pages(self) -> dict[str, PageMetadata]:
        """Pages the index holds, by id, as they were when read (``edited`` is their last_edited_time then)."""
        return {page_id: page.info for page_id, page in self.indexed_pages().items()}

    def indexed_pages(self) -> dict[str, IndexedPage]:
        """Pages the index holds, by id, with when each was read and the page it is a sub-page of."""
        rows = self._db.execute("SELECT page_id, title, type, edited, url, read_at, parent_id, child_pages, "
                                "shown_originals, held_originals FROM pages ORDER BY page_id")
        return {r[0]: IndexedPage(info=PageMetadata(id=r[0], title=r[1], type=r[2], edited=r[3], url=r[4]),
                                  read_at=r[5], parent_id=r[6], child_pages=r[7],
                                  shown_originals=tuple(json.loads(r[8]).items()),
                                  held_originals=tuple(json.loads(r[9]))) for r in rows}

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

    def stage_page(self, page: StagedPage, data_source_id: str) -> None:
        """Keep one page a first index has read (committed at once, outside the published index)."""
        with self.transaction():
            self._db.execute("INSERT OR REPLACE INTO staged_pages VALUES (?,?,?,?,?)",
                             (page.page_id, data_source_id, page.parent_id, page.read_at, page.body))

    def staged_pages(self, data_source_id: str) -> list[StagedPage]:
        """The pages kept for a first index of this data source, in page id order."""
        rows = self._db.execute("SELECT page_id, parent_id, read_at, body FROM staged_pages "
                                "WHERE data_source_id = ? ORDER BY page_id", (data_source_id,))
        return [StagedPage(page_id=r[0], parent_id=r[1], read_at=r[2], body=r[3]) for r in rows]

    def staged_count(self) -> int:
        """How many pages an interrupted first index left in the staging area."""
        return self._db.execute("SELECT COUNT(*) FROM staged_pages").fetchone()[0]

    def clear_staged(self) -> None:
        """Empty the staging area (when the index it was read for is published)."""
        with self.transaction():
            self._db.execute("DELETE FROM staged_pages")
