"""The index's errors, and what a failure to open or write its file means for the person running it.

Every error the store raises derives from :class:`StoreError` (itself a :class:`~lab.errors.LabError`);
:func:`open_failure` turns what SQLite or the file system said into one sentence with the fix,
which the store's errors and the command line both use.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

from lab.errors import LabError

__all__ = ["StoreError", "IndexOpenError", "SchemaVersionError", "ModelMismatchError", "open_failure", "is_damaged",
           "database_errors"]


class StoreError(LabError, RuntimeError):
    """Base class of the index's errors."""

class IndexOpenError(StoreError):
    """The index file cannot be opened: ``reason`` says what is wrong with ``path`` and what to do;
    ``damaged`` is true when the file itself is broken, so building the index again is the fix."""

    def __init__(self, path: str, reason: str, damaged: bool = False) -> None:
        super().__init__(f"the index {path} {reason}")
        self.path, self.reason, self.damaged = path, reason, damaged

class SchemaVersionError(StoreError):
    """The file was written by another schema version (or is not a lab index at all)."""

class ModelMismatchError(StoreError):
    """Vectors of one model or dimension were about to be mixed with another's."""

def database_errors() -> tuple[type[BaseException], ...]:
    """The errors a database driver raises: SQLite's, and psycopg's once it is in use (it is imported only
    for an index in PostgreSQL, and none of its errors can be raised before)."""
    psycopg = sys.modules.get("psycopg")
    return (sqlite3.Error,) if psycopg is None else (sqlite3.Error, psycopg.Error)

def _cause(error: BaseException) -> str:
    return str(error.strerror if isinstance(error, OSError) and error.strerror else error)

def is_damaged(error: BaseException) -> bool:
    """Whether SQLite's ``error`` says the file itself is broken (malformed or corrupt pages)."""
    cause = _cause(error)
    return "malformed" in cause or "corrupt" in cause

def open_failure(path: str | Path, error: BaseException) -> str:
    """What is wrong with the index file at ``path``, and what to do, from the error SQLite or the
    file system raised opening or writing it: "is damaged (...); move it aside ...". The store's
    errors and the command line both say it this way."""
    if str(path).startswith(("postgresql://", "postgres://")):
        from lab.index.postgres import connection_failure
        return connection_failure(error)
    cause = _cause(error)
    folder = Path(path).parent
    if isinstance(error, PermissionError):  # before looking at the folder, which may be the one refused
        return (f"cannot be opened ({cause}); give the run read and write access to the file and to every folder "
                "on its path, or choose another path")
    if str(path) != ":memory:" and not os.path.isdir(folder):  # isdir: a folder it may not enter is not one
        return f"cannot be created: the folder {folder} does not exist; create it first or choose another path"
    if "not a database" in cause:
        return f"is not a SQLite file ({cause}); point it at a new file or at an index this lab wrote"
    if is_damaged(error):
        return f"is damaged ({cause}); move it aside or delete it, then build the index again"
    if "locked" in cause:
        return "is locked by another program (another index or sync still running?); wait for it to end"
    if "readonly" in cause or "read-only" in cause or "ermission" in cause:
        return f"cannot be written ({cause}); make the file and its folder writable, or choose another path"
    return f"cannot be opened ({cause}); check that its folder exists and is writable"
