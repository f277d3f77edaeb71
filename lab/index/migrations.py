"""Bringing an index an earlier lab wrote up to this schema version, when it is opened.

:data:`MIGRATIONS` holds, for each version the lab can still open, the statements that turn an index
of that version into one of the next (in SQLite's SQL; PostgreSQL's column types are said again by
:func:`lab.index.postgres_sql.column_types`). :func:`migrate` applies them one version after another
inside the caller's write transaction, which holds the index's write lock: two processes opening one
old index migrate it once, and a failure leaves it exactly as it was. Older versions are refused with
the command that builds a new index (:func:`lab.index.schema.check_schema`).

7 to 8: each chunk and each page gain a ``version``, ``NULL`` in every row already there (the older lab
did not keep it). A file's version is written in the file itself, so the migration also forgets each
file's content hash: the next ``ingest_folder`` cuts every file again, finds every chunk's text
unchanged (nothing is embedded) and writes the versions into the rows. A page's version comes from the
version property a sync is given (``SyncConfig.version_property``): a sync with one reads again every
page whose stored version differs, as it does for a new audience property.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from lab.index.schema import SCHEMA_VERSION, schema_version

__all__ = ["MIGRATIONS", "migrate"]

#: Schema version -> the statements that make an index of that version one of the next.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    7: ("ALTER TABLE chunks ADD COLUMN version TEXT",
        "ALTER TABLE pages ADD COLUMN version TEXT",
        "UPDATE ingested_files SET content_hash = ''"),
}


def migrate(db: Any, path: str) -> list[int]:
    """Bring the index in ``db`` up to :data:`~lab.index.schema.SCHEMA_VERSION` (call inside a write
    transaction); the versions it migrated from, in order (none if it was up to date already, or another
    process migrated it first)."""
    from lab.index.postgres_sql import column_types

    found = schema_version(db, path)
    steps: list[int] = []
    while found != str(SCHEMA_VERSION):
        version = int(found)  # check_schema let through only SCHEMA_VERSION and the keys of MIGRATIONS
        for statement in MIGRATIONS[version]:
            db.execute(statement if isinstance(db, sqlite3.Connection) else column_types(statement))
        found = str(version + 1)
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (found,))
        steps.append(version)
    return steps
