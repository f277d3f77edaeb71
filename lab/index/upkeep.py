"""Looking after the file and looking inside it: giving space back, erasing deleted text, copying
the whole index as bytes, and the comparisons and counts the tests and lessons read.

Space, erasure and images are the SQLite file's: on PostgreSQL the server's autovacuum gives space
back, and ``pg_dump`` copies a database, so those calls do nothing there or say so.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

import numpy as np

from lab.index.errors import StoreError
from lab.index.schema import tables

__all__ = ["Upkeep"]

_DERIVED = ('INSERT INTO "searcher_states"', "INSERT INTO \"meta\" VALUES('content_stamp',")
#: The meta key (after a source's name) of when a sync last reconciled: when a run ran, not what the index holds.
RECONCILED_SUFFIX = ".reconciled_at"
#: The meta key (after a source's name) of a run whose removed text a reader kept in the file: the next run erases it.
ERASE_PENDING_SUFFIX = ".erase_pending"
#: Meta keys a dump leaves out: when a sync last reconciled, the counts a run keeps for the next under the
#: content's random stamp (:meth:`~lab.index.IndexStore.keep_counts`), and an erasure left for the next run.
_RUN_KEYS = (RECONCILED_SUFFIX, ".chunk_count", ".holds_sub_pages", ERASE_PENDING_SUFFIX)
_RUN_META = re.compile(
    r"""INSERT INTO "meta" VALUES\('[^']*\.(reconciled_at|chunk_count|holds_sub_pages|erase_pending)',""")


def _literal(value: Any) -> str:
    """One value as SQLite's dump writes it (a PostgreSQL dump reads like a SQLite one)."""
    if value is None:
        return "NULL"
    if isinstance(value, (bytes, memoryview)):
        return f"X'{bytes(value).hex().upper()}'"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value)


class Upkeep:
    """Free space, erasure, images, dumps and counts of the whole index (a part of ``IndexStore``)."""

    _db: sqlite3.Connection

    def release_free_space(self) -> None:
        """Give the space deleted rows left in the file back to the file system (after a
        transaction, not in one): a first index of 10,000 pages stages hundreds of megabytes of
        blocks that the published index does not keep."""
        if self.backend == "sqlite" and not self._db.in_transaction:
            # a script runs the pragma to its end; execute() would free a single page
            self._db.executescript("PRAGMA incremental_vacuum;")

    def erase_deleted(self) -> bool:
        """Write the write-ahead log into the file and empty it (after a transaction, not in one): until
        then the file still holds its pages as they were before rows were deleted, so the text of a page
        that was unshared or unpublished would stay readable in it. False when another connection's read
        kept the log from being written back (after the busy timeout): the old pages are still in the file
        until this runs again with no reader in the way."""
        if self.backend != "sqlite" or self._db.in_transaction:
            return True
        busy, _, _ = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return not busy

    def serialize(self) -> bytes:
        """The whole index as bytes (a SQLite database image), for :meth:`restore`."""
        self._require_sqlite("serialize")
        image = bytearray(self._db.serialize())
        image[18:20] = b"\x01\x01"  # marked as rollback-journal, the mode an image in memory can open
        return bytes(image)

    def restore(self, image: bytes) -> None:
        """Make the index exactly the one :meth:`serialize` returned, in place (same file)."""
        self._require_sqlite("restore")
        source = sqlite3.connect(":memory:")
        try:
            source.deserialize(image)
            source.backup(self._db)
        finally:
            source.close()

    def dump(self) -> str:
        """A logical dump (SQL text) of the whole index: two equal dumps mean equal indexes. What a
        search derived from the content is left out (fitted search states, and the random stamp drawn
        at every write of the content, :mod:`lab.index.searcher_states`): it is a cache, not the index; so are
        the counts a sync keeps under that stamp, and when a sync last reconciled (``<source>.reconciled_at``
        in ``meta``), a time like the run log's."""
        if self.backend != "sqlite":
            return self._dump_rows()
        return "\n".join(line for line in self._db.iterdump()
                         if not line.startswith(_DERIVED) and not _RUN_META.match(line))

    def _dump_rows(self) -> str:
        """Every row of every table but the derived ones, table by table in a fixed order (PostgreSQL)."""
        lines = []
        for table in sorted(tables(self._db) - {"searcher_states"}):
            for row in self._db.execute(f"SELECT * FROM {table} ORDER BY 1"):
                if table != "meta" or (row[0] != "content_stamp" and not row[0].endswith(_RUN_KEYS)):
                    lines.append(f'INSERT INTO "{table}" VALUES({",".join(map(_literal, row))});')
        return "\n".join(lines)

    def _require_sqlite(self, what: str) -> None:
        if self.backend != "sqlite":
            raise StoreError(f"{what} copies a SQLite file; the index {self.path} is in PostgreSQL: copy it "
                             "with pg_dump --schema instead")

    def state(self) -> dict[str, Any]:
        """What the index holds, without bookkeeping that depends on when or how it was written.

        Chunks (every column), dense vectors, term counts (as term -> count per chunk) and
        document frequencies (by term), pages (without ``read_at``), models and watermarks; the
        ``sync_runs`` log, the staging area and the term ids (numbered as terms first appeared)
        are left out. Two indexes built from the same content by different runs (one
        interrupted and resumed, one under heavy faults, one synced edit by edit) compare equal.
        """
        chunks = self._db.execute("SELECT * FROM chunks ORDER BY id").fetchall()
        vectors = self._db.execute("SELECT * FROM vectors ORDER BY id, model").fetchall()
        term_of = dict(self._db.execute("SELECT term_id, term FROM terms"))
        counts = [(chunk_id, sorted(zip(map(term_of.__getitem__, np.frombuffer(terms, dtype=np.int32).tolist()),
                                        np.frombuffer(numbers, dtype=np.int32).tolist())))
                  for chunk_id, terms, numbers in self._db.execute("SELECT * FROM term_counts ORDER BY id")]
        frequencies = self._db.execute("SELECT term, df FROM terms ORDER BY term").fetchall()
        pages = self._db.execute("SELECT page_id, title, type, edited, url, parent_id, child_pages, audience, version "
                                 "FROM pages ORDER BY page_id").fetchall()
        models = self._db.execute("SELECT model, kind, analyzer FROM models ORDER BY model").fetchall()
        return {"chunks": chunks, "vectors": vectors, "term_counts": counts, "document_frequencies": frequencies,
                "pages": pages, "models": (self.models(), models),
                "sync_state": self._db.execute("SELECT * FROM sync_state ORDER BY source").fetchall()}

    def table_counts(self) -> dict[str, int]:
        names = sorted(name for name in tables(self._db) if not name.startswith("sqlite_"))
        return {n: self._db.execute(f"SELECT COUNT(*) FROM {n}").fetchone()[0] for n in names}

    def vector_bytes(self, model: str | None = None) -> int:
        """Bytes the vectors take: dense BLOBs, and for a term count model its per-chunk term ids
        and counts (the terms themselves, stored once, are not counted)."""
        dense = "SELECT COALESCE(SUM(LENGTH(vector)), 0) FROM vectors"
        sparse = "SELECT COALESCE(SUM(LENGTH(terms) + LENGTH(counts)), 0) FROM term_counts"
        if model is None:
            return self._db.execute(dense).fetchone()[0] + self._db.execute(sparse).fetchone()[0]
        if self._kind(model) == "counts":
            return self._db.execute(sparse).fetchone()[0]
        return self._db.execute(dense + " WHERE model = ?", (model,)).fetchone()[0]
