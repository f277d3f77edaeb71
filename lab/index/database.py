"""Opening the index file (or PostgreSQL database), its transactions, and the two numbers every run
reads: the schema version and the generation.

Several processes may open one file. Every write transaction starts with ``BEGIN IMMEDIATE``
(one writer at a time; the others wait), the schema is created under that lock, and each
published change of the index increments a generation number, so that a sync can tell whether
the index it planned against is still the one it is about to write. On PostgreSQL
(:mod:`lab.index.postgres`) the workspace's advisory lock plays the part of ``BEGIN IMMEDIATE``.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lab.index.errors import IndexOpenError, StoreError, is_damaged, open_failure
from lab.index.migrations import migrate
from lab.index.postgres import PostgresConnection, PostgresTarget, is_postgres_url
from lab.index.schema import SCHEMA_VERSION, check_schema, create_tables, schema_version, tables

__all__ = ["IndexDatabase", "BUSY_TIMEOUT_S", "check_index_file", "header_problem"]

BUSY_TIMEOUT_S = 60.0  # how long a writer waits for another process's transaction to end


class _ClosedIndex:
    """Stands in for the connection of a closed store, so that using it names the mistake."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __getattr__(self, name: str) -> Any:
        raise StoreError(f"the index {self.path} was closed; open it again with IndexStore({self.path!r})")


class IndexDatabase:
    """The index file itself: opened, checked, and written in transactions (the base of ``IndexStore``).

    An existing file is checked before anything writes to it, the journal mode included: a file
    that is not SQLite, is cut short, or is not an index of a schema version this lab reads is refused
    byte for byte as it was. An index of the version before is migrated when it is opened
    (:mod:`lab.index.migrations`), in one write transaction.
    """

    def __init__(self, path: str | Path) -> None:
        if is_postgres_url(path):
            self._open_postgres(str(path))
            return
        self.backend = "sqlite"
        self.path = str(path)
        if self.path not in ("", ":memory:"):
            check_index_file(self.path)
        try:
            # transactions are explicit; a writer waits for another process's transaction to end
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT_S)
        except sqlite3.DatabaseError as error:  # a missing folder, say
            raise IndexOpenError(self.path, open_failure(self.path, error)) from None
        try:
            self._db.execute("PRAGMA foreign_keys = ON")
            if self._db.execute("PRAGMA page_count").fetchone()[0] == 0:
                # only on a new file, before anything is written to it (on an existing one the pragma
                # changes nothing but the file's bytes): the space of deleted rows can then be given
                # back to the file system (see release_free_space)
                self._db.execute("PRAGMA auto_vacuum = INCREMENTAL")
            self._use_write_ahead_log()
        except sqlite3.DatabaseError as error:  # not SQLite, damaged, read-only
            self._db.close()
            raise IndexOpenError(self.path, open_failure(self.path, error), is_damaged(error)) from None
        try:
            self._check_or_create_schema()
        except BaseException:
            self._db.close()
            raise

    def _open_postgres(self, url: str) -> None:
        """Connect to the workspace the URL names, creating its schema on first use (under its lock)."""
        self.backend = "postgresql"
        target = PostgresTarget(url)
        self.path = target.display
        self._db = PostgresConnection(target)  # type: ignore[assignment]
        try:
            if not tables(self._db):
                with self.transaction():
                    if not tables(self._db):
                        self._db.create_schema()  # type: ignore[attr-defined]
                        create_tables(self._db)
            check_schema(self._db, self.path)
            self._migrate()
        except BaseException:
            self._db.close()
            raise

    def _use_write_ahead_log(self) -> None:
        """Write-ahead log, synced at checkpoints: a commit (one per page a first index reads) costs
        no fsync, a killed process loses nothing committed, and a power cut can roll back the last
        commits (the index and its watermark together) but never corrupts the file."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:  # switching a new file needs it alone, and SQLite does not wait for that itself
                self._db.execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
        self._db.execute("PRAGMA synchronous = NORMAL")
        # a deleted row's bytes are overwritten, not left in the file's free space (builds differ in the default)
        self._db.execute("PRAGMA secure_delete = ON")

    def _check_or_create_schema(self) -> None:
        if not tables(self._db):
            with self.transaction():  # under the write lock: two processes opening a new file create it once
                if not tables(self._db):
                    create_tables(self._db)
        check_schema(self._db, self.path)
        try:
            self._migrate()
        except sqlite3.DatabaseError as error:  # a read-only file of the version before, say
            raise IndexOpenError(self.path, open_failure(self.path, error), is_damaged(error)) from None

    def _migrate(self) -> list[int]:
        """Bring an index of an earlier schema version up to date, under the write lock (another process
        may have done it first); the versions it migrated from."""
        if schema_version(self._db, self.path) == str(SCHEMA_VERSION):
            return []
        with self.transaction():
            return migrate(self._db, self.path)

    def close(self) -> None:
        """Close the file; any later use of this store raises :class:`StoreError` (closing twice is fine)."""
        if not isinstance(self._db, _ClosedIndex):
            self._db.close()
            self._db = _ClosedIndex(self.path)  # type: ignore[assignment]

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"IndexStore({self.path!r})"

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All writes inside the block land together or not at all (one writer at a time)."""
        with self._transaction(write=True):
            yield

    @contextmanager
    def read_transaction(self) -> Iterator[None]:
        """Every read inside the block sees one state of the index, whatever other processes commit."""
        with self._transaction(write=False):
            yield

    @contextmanager
    def _transaction(self, write: bool) -> Iterator[None]:
        if self._db.in_transaction:
            yield
            return
        if self.backend == "sqlite":
            self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        else:
            self._db.begin(write)  # type: ignore[attr-defined]
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def integrity_problems(self) -> list[str]:
        """What SQLite's integrity check finds wrong with the file, every page of it read (none: it is sound).
        A damaged page may also raise ``sqlite3.DatabaseError``; PostgreSQL checks its own pages."""
        if self.backend != "sqlite":
            return []
        found = [str(row[0]) for row in self._db.execute("PRAGMA integrity_check").fetchall()]
        return [] if found == ["ok"] else found

    def generation(self) -> int:
        """How many times a sync or full index has published into this index."""
        return int(self.get_meta("generation") or 0)

    def bump_generation(self) -> int:
        """Count one more publication (inside the publishing transaction); the new generation."""
        with self.transaction():
            generation = self.generation() + 1
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('generation', ?)", (str(generation),))
            return generation

    def get_meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        if key == "schema_version":
            raise StoreError("the schema version is written once, when the index is created")
        with self.transaction():
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def delete_meta(self, key: str) -> None:
        """Remove ``key`` from the index's meta (nothing if it is not there)."""
        if key == "schema_version":
            raise StoreError("the schema version is written once, when the index is created")
        with self.transaction():
            self._db.execute("DELETE FROM meta WHERE key = ?", (key,))


_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_BYTES = 100


def check_index_file(path: str) -> None:
    """Refuse an existing file that is not an index this lab can open, reading it only.

    Nothing is written before this check passes, so a refused file keeps every byte (SQLite would
    otherwise switch it to write-ahead logging first, and read a 1-byte file as an empty database
    to fill). A missing or empty file passes: it becomes a new index. So does a SQLite file without a
    single table, which is what another process opening the same new path at the same moment has made so
    far: both then meet at the write lock, and the first creates the index the second opens.
    """
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            header = file.read(_HEADER_BYTES)
    except FileNotFoundError:
        return
    except OSError as error:
        raise IndexOpenError(path, open_failure(path, error)) from None
    if size == 0:
        return
    problem = header_problem(header, size)
    if problem is not None:
        raise IndexOpenError(path, problem, damaged=problem.startswith("is damaged"))
    reader = sqlite3.connect(f"{Path(path).absolute().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)
    try:
        if tables(reader):  # none yet: another process is creating this index (under its write lock), or
            check_schema(reader, path)  # an empty database holds nothing to lose; either way it becomes one
    except sqlite3.DatabaseError as error:
        raise IndexOpenError(path, open_failure(path, error), is_damaged(error)) from None
    finally:
        reader.close()


def header_problem(header: bytes, size: int) -> str | None:
    """What is wrong with a SQLite file whose first bytes are ``header`` and whose length is ``size``
    (None if nothing SQLite would not also catch): not SQLite at all, or not a whole number of pages.

    A SQLite file is always whole pages (a checkpoint in another process writes whole pages too),
    so a size that is not is a file cut short, even inside its last page, which SQLite's own
    check (the page count in the header against the pages in the file) rounds away.
    """
    if len(header) < _HEADER_BYTES:
        if _SQLITE_MAGIC.startswith(header[:len(_SQLITE_MAGIC)]):
            return (f"is damaged (cut short: {size} bytes, less than a SQLite header); move it aside or delete it, "
                    "then build the index again")
        return "is not a SQLite file (too short to be one); point it at a new file or at an index this lab wrote"
    if not header.startswith(_SQLITE_MAGIC):
        return "is not a SQLite file (file is not a database); point it at a new file or at an index this lab wrote"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return (f"is damaged (its header gives a page size of {page_size}); move it aside or delete it, then build "
                "the index again")
    if size % page_size:
        return (f"is damaged (cut short: {size} bytes, not a whole number of its {page_size}-byte pages); move it "
                "aside or delete it, then build the index again")
    return None
