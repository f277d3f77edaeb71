"""An index file is checked before anything writes to it: a file the store refuses keeps every
byte, and nothing the store is given ends in an error outside the lab's."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lab.errors import LabError
from lab.index import SCHEMA_VERSION, IndexOpenError, IndexStore, SchemaVersionError
from lab.index.database import header_problem
from lab.index.migrations import MIGRATIONS
from lab.index.schema import SCHEMA_STATEMENTS

_TABLES = [statement.split()[2] for statement in SCHEMA_STATEMENTS
           if statement.startswith("CREATE TABLE") and statement.split()[2] != "meta"]  # without meta: not an index


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> bytes:
    """The bytes of a small index with chunks, vectors and a watermark, closed."""
    path = tmp_path_factory.mktemp("built") / "kb.sqlite"
    store = IndexStore(path)
    chunks = [{"id": f"c{i}", "page_id": "p", "title": "T", "section": None, "text": "pan de muerto " * 40,
               "type": "", "order": i, "tokens": 1, "fingerprint": "f", "edited": ""} for i in range(30)]
    store.put_chunks(chunks, np.ones((30, 4), dtype=np.float32), "m-4")
    store.set_watermark("notion", "2026-04-09T16:00:00.000Z")
    store.close()
    return path.read_bytes()


def refused_untouched(path: Path) -> LabError:
    """Open ``path`` as an index, expect a lab error, and check that the file and its folder are as they were."""
    before, beside = path.read_bytes(), sorted(os.listdir(path.parent))
    with pytest.raises(LabError) as raised:
        IndexStore(path)
    assert path.read_bytes() == before
    assert sorted(os.listdir(path.parent)) == beside  # no -wal or -shm left next to it
    return raised.value


def test_a_sqlite_file_of_another_program_is_refused_before_its_journal_mode_is_touched(tmp_path) -> None:
    path = tmp_path / "invoices.sqlite"
    with sqlite3.connect(path) as other:  # another program's file, in SQLite's default rollback journal mode
        other.execute("CREATE TABLE invoices (id INTEGER, total REAL)")
        other.execute("INSERT INTO invoices VALUES (1, 9.5)")
    error = refused_untouched(path)
    assert isinstance(error, SchemaVersionError) and "not a lab index" in str(error)


def test_an_index_of_a_schema_too_old_to_migrate_is_refused_before_its_journal_mode_is_touched(tmp_path) -> None:
    too_old = min(MIGRATIONS) - 1
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as old:  # older labs wrote their index in rollback journal mode
        old.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        old.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(too_old),))
    error = refused_untouched(path)
    assert isinstance(error, SchemaVersionError) and f"schema version {too_old}" in str(error)
    assert f"this lab reads version {SCHEMA_VERSION}" in str(error)


@pytest.mark.parametrize("damage", [*(f"DROP TABLE {table}" for table in _TABLES),
                                    "ALTER TABLE chunks DROP COLUMN text", "ALTER TABLE pages DROP COLUMN url",
                                    "ALTER TABLE sync_state DROP COLUMN watermark"])
def test_an_index_without_one_of_its_tables_or_columns_is_refused_as_damaged_untouched(built, tmp_path, damage) -> None:
    # a sync over it would report success (a cached chunk count) and a search fail deep inside with
    # "no such table"; refused when it is opened, it is one line naming what is missing
    path = _write(tmp_path / "kb.sqlite", built)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode = DELETE")  # so that no -wal file is left beside it by this edit
        for (trigger,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            db.execute(f"DROP TRIGGER {trigger}")  # they name the columns a DROP COLUMN would take away
        db.execute("DROP INDEX IF EXISTS chunks_by_page")
        db.execute(damage)
    db.close()
    error = refused_untouched(path)
    assert isinstance(error, IndexOpenError) and error.damaged
    missing = damage.split()[-1] if damage.startswith("DROP") else f"{damage.split()[2]}.{damage.split()[-1]}"
    assert "is damaged" in str(error) and missing in str(error)


@pytest.mark.parametrize("content", [b"S", b"\x00", b"SQLite format 3\x00" + bytes(40)],
                         ids=["one letter", "one zero byte", "a header cut short"])
def test_a_file_shorter_than_a_sqlite_header_is_refused_rather_than_filled_as_a_new_index(tmp_path, content) -> None:
    path = tmp_path / "kb.sqlite"
    path.write_bytes(content)  # SQLite itself reads a file this short as an empty database, and would fill it
    assert isinstance(refused_untouched(path), IndexOpenError)


def test_an_empty_file_is_a_new_index(tmp_path) -> None:
    path = tmp_path / "kb.sqlite"
    path.touch()
    with IndexStore(path) as store:
        assert store.generation() == 0


def test_every_truncation_of_an_index_is_refused_by_the_header_check_or_by_sqlite(built) -> None:
    # the header check, at every offset (a pure function of the first 100 bytes and the size)
    flagged = [size for size in range(1, len(built)) if header_problem(built[:100], size) is None]
    page = int.from_bytes(built[16:18], "big")
    assert flagged == list(range(page, len(built), page))  # whole pages only: SQLite's own count check takes those


def test_an_index_cut_at_any_page_boundary_or_inside_the_first_page_is_refused_untouched(built, tmp_path) -> None:
    page = int.from_bytes(built[16:18], "big")
    path = tmp_path / "cut.sqlite"
    shutil.copyfile(_write(tmp_path / "whole.sqlite", built), path)
    for size in sorted({*range(len(built) - page, 0, -page), *range(page + 1, 0, -1)}, reverse=True):
        os.truncate(path, size)  # shorter each time, so one copy serves every cut
        with pytest.raises(LabError):
            IndexStore(path)
        assert path.stat().st_size == size
    assert path.read_bytes() == built[:1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(min_value=1, max_value=10**9), prefix=st.booleans(), noise=st.binary(max_size=300))
def test_random_bytes_and_random_cuts_never_end_outside_the_lab_errors_and_are_left_alone(built, tmp_path, cut, prefix,
                                                                                         noise) -> None:
    path = tmp_path / "kb.sqlite"
    for f in tmp_path.glob("kb.sqlite*"):
        f.unlink()
    content = (built[:100] if prefix else b"") + noise + built[: cut % len(built)]
    path.write_bytes(content)
    try:
        IndexStore(path).close()
    except LabError:
        assert path.read_bytes() == content
    else:  # an empty file is a new index; anything else that opens holds a whole index
        assert content == b"" or content.startswith(built[:100])


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_what_the_migrations_add_is_not_asked_of_an_index_they_have_not_run_on(monkeypatch) -> None:
    from lab.index import migrations, schema

    statement = "CREATE TABLE IF NOT EXISTS notes (id TEXT PRIMARY KEY, body TEXT)"
    monkeypatch.setattr(schema, "SCHEMA_STATEMENTS", (*schema.SCHEMA_STATEMENTS, statement))
    monkeypatch.setitem(migrations.MIGRATIONS, 7, (*migrations.MIGRATIONS[7], statement,
                                                   "ALTER TABLE notes ADD COLUMN author TEXT"))
    schema._expected_columns.cache_clear()
    try:
        older, current = schema._expected_columns(7), schema._expected_columns(schema.SCHEMA_VERSION)
    finally:
        schema._expected_columns.cache_clear()
    assert "notes" not in older and "version" not in older["chunks"] and "version" not in older["pages"]
    assert current["notes"] == {"id", "body"} and "version" in current["chunks"]
