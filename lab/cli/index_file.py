"""Opening the index file a command names, with one line that says what is wrong and the fix."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from lab.cli.exits import CommandFailure, ExitCode

if TYPE_CHECKING:
    from lab.index import IndexStore

__all__ = ["open_index", "open_existing_index", "index_file_exists", "database_problem", "rebuild_hint"]


def index_file_exists(path: str) -> bool:
    """Whether a file (not a folder) is at ``path``; a path the command may not look into ends it
    with the database exit code, as any other problem with ``--db`` does."""
    if _is_url(path):  # a workspace in PostgreSQL is created where it is missing, never removed
        return True
    if path.strip() in ("", ":memory:"):  # names no file (open_index says why it cannot hold an index)
        return False
    try:
        where = Path(path)
        if where.is_dir():
            raise CommandFailure(ExitCode.DATABASE, f"--db {path} is a folder, not a file; give a file path such as "
                                                    f"{where / 'kb.sqlite'}")
        return where.is_file()
    except OSError as exc:  # a folder on the path it may not enter, a name too long, ...
        raise CommandFailure(ExitCode.DATABASE, database_problem(path, exc)) from None


def open_index(path: str) -> "IndexStore":
    """The index at ``path``, opened and proved writable before any request is sent."""
    if _is_url(path):
        return _open_postgres(path)
    if path.strip() in ("", ":memory:"):
        raise CommandFailure(ExitCode.DATABASE, f"--db {path!r} would keep the index in memory and lose it when the "
                                          "command ends; give a file path such as kb.sqlite")
    where = Path(path)
    index_file_exists(path)
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandFailure(ExitCode.DATABASE, database_problem(path, exc)) from None
    store = _sqlite_store(where, path)  # after the checks that need no index code
    try:
        _prove_writable(where)
    except (sqlite3.Error, OSError) as exc:
        store.close()
        raise CommandFailure(ExitCode.DATABASE, database_problem(path, exc)) from None
    return store


def _is_url(path: str) -> bool:
    return path.startswith(("postgresql://", "postgres://"))


def _open_postgres(url: str) -> "IndexStore":
    """The workspace's index in PostgreSQL (created on first use, which proves the database writable)."""
    from lab.index import IndexOpenError, IndexStore, StoreError, database_errors

    try:
        return IndexStore(url)
    except IndexOpenError as exc:
        raise CommandFailure(ExitCode.DATABASE, f"--db {exc.path} {exc.reason}") from None
    except StoreError as exc:
        raise CommandFailure(ExitCode.DATABASE, str(exc)) from None
    except database_errors() as exc:
        raise CommandFailure(ExitCode.DATABASE, database_problem(url, exc)) from None


def _is_empty(path: Path) -> bool:
    try:
        return path.stat().st_size == 0
    except OSError as exc:
        raise CommandFailure(ExitCode.DATABASE, database_problem(str(path), exc)) from None


def _prove_writable(path: Path) -> None:
    """Write inside a transaction and roll it back: a read-only file or folder fails here, not
    after every page has been read."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        db.execute("CREATE TABLE lab_cli_write_check (x)")
        db.execute("ROLLBACK")
    finally:
        db.close()


def database_problem(path: str, exc: BaseException) -> str:
    from lab.index import is_damaged, open_failure

    return rebuild_hint(f"--db {path} {open_failure(path, exc)}", path, is_damaged(exc))


def rebuild_hint(problem: str, path: str, damaged: bool) -> str:
    """A damaged index is rebuilt with ``index``: say the exact command."""
    return problem + (f" with python -m lab index --db {path}" if damaged else "")


def open_existing_index(path: str) -> "IndexStore":
    """The index at ``path`` for reading: it must exist (a search never creates an empty index)."""
    if _is_url(path):
        return _open_postgres(path)
    where = Path(path)
    if not index_file_exists(path):
        raise CommandFailure(ExitCode.DATABASE, f"--db {path}: no index there; build one first with "
                                                f"python -m lab index --db {path}")
    if _is_empty(where):  # SQLite would make an empty index of it, and a search never creates one
        raise CommandFailure(ExitCode.DATABASE, f"--db {path} is an empty file (0 bytes), not an index; build one "
                                                f"there with python -m lab index --db {path}")
    return _sqlite_store(where, path)


def _sqlite_store(where: Path, path: str) -> "IndexStore":
    """The SQLite index at ``where``, or the one line that says why it cannot be opened (``path`` as given)."""
    from lab.index import IndexOpenError, IndexStore, StoreError

    try:
        return IndexStore(where)
    except IndexOpenError as exc:
        raise CommandFailure(ExitCode.DATABASE, rebuild_hint(f"--db {path} {exc.reason}", path, exc.damaged)) from None
    except StoreError as exc:
        raise CommandFailure(ExitCode.DATABASE, str(exc)) from None
    except (sqlite3.Error, OSError) as exc:
        raise CommandFailure(ExitCode.DATABASE, database_problem(path, exc)) from None
