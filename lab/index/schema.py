"""The index's tables, and the version that says which lab can read them.

A file holds the version of its schema in ``meta``; a lab opens only its own version, and a
file without ``meta`` is not a lab index at all. A change to any table below is a new version.
An index of the version before is brought up to date when it is opened
(:mod:`lab.index.migrations`); older ones are refused with the command that builds a new one,
never read with wrong assumptions.

Schema 8 added each chunk's ``version`` (the version of the documentation it belongs to) and
each page's; both come last in their tables, where a migrated index's added columns land too, so
that a row written without column names fits either.
"""

from __future__ import annotations

import re
import sqlite3
from functools import lru_cache
from typing import Any

from lab.index.errors import IndexOpenError, SchemaVersionError

__all__ = ["SCHEMA_VERSION", "CHUNK_FIELDS", "SCHEMA_STATEMENTS", "CONTENT_TABLES", "create_tables", "check_schema",
           "schema_version", "tables", "columns"]

SCHEMA_VERSION = 8
CHUNK_FIELDS = ("id", "page_id", "title", "type", "section", "order", "text", "tokens", "fingerprint", "edited",
                "version")

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE models (
    model TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('dense', 'counts')),
    dimension INTEGER NOT NULL CHECK (dimension >= 0),
    analyzer TEXT
);
CREATE TABLE chunks (
    id TEXT PRIMARY KEY,
    page_id TEXT NOT NULL,
    title TEXT NOT NULL,
    type TEXT NOT NULL,
    section TEXT,
    ord INTEGER NOT NULL,
    text TEXT NOT NULL,
    tokens INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    edited TEXT NOT NULL,
    version TEXT
);
CREATE INDEX chunks_by_page ON chunks (page_id);
CREATE TABLE vectors (
    id TEXT NOT NULL,
    model TEXT NOT NULL REFERENCES models (model),
    vector BLOB NOT NULL,
    PRIMARY KEY (id, model)
);
CREATE INDEX vectors_by_model ON vectors (model);
CREATE TABLE term_counts (
    id TEXT PRIMARY KEY,
    terms BLOB NOT NULL,
    counts BLOB NOT NULL
);
CREATE TABLE terms (
    term_id INTEGER PRIMARY KEY,
    term TEXT NOT NULL UNIQUE,
    df INTEGER NOT NULL CHECK (df >= 0)
);
CREATE TABLE pages (
    page_id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    type TEXT NOT NULL,
    edited TEXT NOT NULL,
    url TEXT NOT NULL DEFAULT '',
    read_at TEXT NOT NULL DEFAULT '',
    parent_id TEXT,
    child_pages INTEGER NOT NULL DEFAULT 0,
    shown_originals TEXT NOT NULL DEFAULT '{}',
    held_originals TEXT NOT NULL DEFAULT '[]',
    audience TEXT,
    version TEXT
);
CREATE TABLE staged_pages (
    page_id TEXT PRIMARY KEY,
    data_source_id TEXT NOT NULL,
    parent_id TEXT,
    read_at TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE TABLE staged_vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL);
CREATE TABLE sync_state (source TEXT PRIMARY KEY, watermark TEXT NOT NULL);
CREATE TABLE sync_runs (
    run INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL,
    kind TEXT NOT NULL,
    watermark_before TEXT,
    watermark TEXT NOT NULL,
    ran_at TEXT NOT NULL,
    requests INTEGER NOT NULL,
    pages_reread INTEGER NOT NULL,
    pages_removed INTEGER NOT NULL,
    chunks_new INTEGER NOT NULL,
    chunks_updated INTEGER NOT NULL,
    chunks_unchanged INTEGER NOT NULL,
    chunks_deleted INTEGER NOT NULL,
    chunks_total INTEGER NOT NULL,
    tokens_embedded INTEGER NOT NULL
);
"""

# Tables of ingestion runs over folders of files and of model switches (lab.ingest.files,
# lab.ingest.serving); they refer to chunks by id and leave the chunks table's layout alone.
_FILE_RUN_SCHEMA = """;
CREATE TABLE ingested_files (
    source TEXT NOT NULL,
    path TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    chunker TEXT NOT NULL,
    chunker_params TEXT NOT NULL,
    chunker_version TEXT NOT NULL,
    PRIMARY KEY (source, path)
);
CREATE TABLE file_chunks (
    chunk_id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    path TEXT NOT NULL
);
CREATE INDEX file_chunks_by_file ON file_chunks (source, path);
CREATE TABLE model_switches (
    model TEXT PRIMARY KEY,
    replaces TEXT NOT NULL
);
"""

# What a search learned from the chunks (lab.retrieval.index_search), one row per recipe. Any write
# to the rows a search reads (the pages' too: they hold who may see each chunk) deletes every state
# and draws a new content stamp, in the writing
# transaction itself: a state in the file always describes the chunks beside it, no text of a page
# that left the index survives in one, and a searcher that kept a stamp knows the chunks moved. The
# stamp is random, not a counter, so that an index restored from an older image never repeats one.
_SEARCHER_SCHEMA = """;
CREATE TABLE searcher_states (
    recipe TEXT PRIMARY KEY,
    content_stamp TEXT NOT NULL,
    state BLOB NOT NULL
);
"""
CONTENT_TABLES = ("chunks", "vectors", "term_counts", "pages")
_CONTENT_TRIGGERS = [
    f"CREATE TRIGGER {table}_{event.lower()}_moves_content AFTER {event} ON {table} BEGIN "
    "UPDATE meta SET value = lower(hex(randomblob(8))) WHERE key = 'content_stamp'; "
    "DELETE FROM searcher_states; END"
    for table in CONTENT_TABLES for event in ("INSERT", "UPDATE", "DELETE")]
#: Every CREATE TABLE and CREATE INDEX of a new index, in order (PostgreSQL's are made from these).
SCHEMA_STATEMENTS = tuple(statement.strip() for statement in (_SCHEMA + _FILE_RUN_SCHEMA + _SEARCHER_SCHEMA).split(";")
                          if statement.strip())


def tables(db: Any) -> set[str]:
    """The names of the tables in the file, or in the workspace's schema on PostgreSQL (none in a new one)."""
    if not isinstance(db, sqlite3.Connection):
        return db.tables()
    return {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def columns(db: Any) -> dict[str, set[str]]:
    """The columns of each table in the file (or the workspace's schema on PostgreSQL)."""
    if not isinstance(db, sqlite3.Connection):
        return db.columns()
    return {table: {row[1] for row in db.execute(f'PRAGMA table_info("{table}")')} for table in tables(db)}


@lru_cache(maxsize=None)
def _expected_columns(version: int) -> dict[str, frozenset[str]]:
    """The tables an index of schema ``version`` holds and their columns: this version's, less the tables and
    columns the migrations from ``version`` on create or add."""
    reference = sqlite3.connect(":memory:")
    try:
        for statement in SCHEMA_STATEMENTS:
            reference.execute(statement)
        expected = {table: set(found) for table, found in columns(reference).items() if not table.startswith("sqlite_")}
    finally:
        reference.close()
    from lab.index.migrations import MIGRATIONS

    for step in range(version, SCHEMA_VERSION):
        for statement in MIGRATIONS.get(step, ()):
            added = re.match(r"ALTER TABLE (\w+) ADD COLUMN (\w+)", statement)
            if added:
                expected.get(added[1], set()).discard(added[2])  # a table a later step creates is gone
            created = re.match(r"CREATE TABLE (?:IF NOT EXISTS )?(\w+)", statement)
            if created:
                expected.pop(created[1], None)
    return {table: frozenset(found) for table, found in expected.items()}


def _missing_parts(db: Any, version: int) -> list[str]:
    """The tables and columns an index of schema ``version`` must hold that ``db`` lacks."""
    found = columns(db)
    missing = []
    for table, expected in _expected_columns(version).items():
        if table not in found:
            missing.append(f"table {table}")
        else:
            missing.extend(f"column {table}.{column}" for column in sorted(expected - found[table]))
    return missing


def create_tables(db: Any) -> None:
    """Create every table of a new index and record its schema version and generation 0 (inside the
    caller's write transaction, so that two processes opening one new file create it once)."""
    if not isinstance(db, sqlite3.Connection):
        from lab.index.postgres_sql import create_statements
        for statement in create_statements():
            db.execute(statement)
    else:
        for statement in SCHEMA_STATEMENTS:
            db.execute(statement)
        for trigger in _CONTENT_TRIGGERS:
            db.execute(trigger)
    db.executemany("INSERT INTO meta VALUES (?, ?)", [("schema_version", str(SCHEMA_VERSION)), ("generation", "0"),
                                                     ("content_stamp", "new")])


def schema_version(db: Any, path: str) -> str:
    """The schema version the index records (``"unknown"`` if none); refused if it is not a lab index at all."""
    if "meta" not in tables(db):
        what = "a SQLite file" if isinstance(db, sqlite3.Connection) else "a PostgreSQL schema with tables"
        raise SchemaVersionError(f"{path} is {what} but not a lab index (no meta table); refusing to touch it")
    row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return row[0] if row else "unknown"


def check_schema(db: Any, path: str) -> None:
    """Refuse a file that is not a lab index, that a schema version this lab neither reads nor
    brings up to date wrote (an index of a version :data:`~lab.index.migrations.MIGRATIONS` starts
    from passes: opening it migrates it), or that lacks a table or a column its version holds (a hand
    edit, another tool): such an index fails deep inside a search or a sync, or a sync would report
    success over it, so it is refused as damaged when it is opened, before anything writes to it."""
    from lab.index.migrations import MIGRATIONS

    found = schema_version(db, path)
    if found != str(SCHEMA_VERSION) and not (found.isdigit() and int(found) in MIGRATIONS):
        oldest = min(MIGRATIONS, default=SCHEMA_VERSION)
        raise SchemaVersionError(f"{path} was written by index schema version {found}; this lab reads version "
                                 f"{SCHEMA_VERSION}. Rebuild the index (python -m lab index) into a new file rather "
                                 f"than opening this one (an index of version {oldest} or later is brought up to "
                                 "date when opened).")
    missing = _missing_parts(db, int(found))
    if missing:
        shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
        raise IndexOpenError(path, f"is damaged (a lab index without its {shown}); move it aside or delete it, "
                                   "then build the index again", damaged=True)
