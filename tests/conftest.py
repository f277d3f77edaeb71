"""Test-session wiring: lessons executed by nbval write their tables to a temporary folder.

The drift check (``tests/test_table_drift.py``) runs last and compares that folder with the
committed ``data/tables/``. If this session did not execute some lesson through nbval (for
example ``pytest tests/``), the drift check executes it itself with papermill.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

OUTPUT_ENV = "LAB_OUTPUT_DIR"
MISSES_ENV = "LAB_EMBEDDING_MISSES"  # lab.embedders.MISSES_ENV, named here without importing the lab


def pytest_configure(config: pytest.Config) -> None:
    out = Path(tempfile.mkdtemp(prefix="lab-regenerated-"))
    config.stash[_OUTPUT_KEY] = out
    os.environ[OUTPUT_ENV] = str(out)  # inherited by every kernel nbval starts


def pytest_unconfigure(config: pytest.Config) -> None:
    out = config.stash.get(_OUTPUT_KEY, None)
    if out is not None:
        shutil.rmtree(out, ignore_errors=True)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A lesson runs without calling the embedding model: every vector it needs is kept with the lab
    (lab.embedders.KNOWN_DIR), and a lesson that would embed a new text fails instead of slowing down.
    Set before nbval starts a lesson's kernel, which inherits it; other tests may embed."""
    if str(item.fspath).endswith(".ipynb"):
        os.environ[MISSES_ENV] = "error"
    else:
        os.environ.pop(MISSES_ENV, None)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the drift check after every notebook, whatever order collection produced; where PostgreSQL cannot
    run, the lessons that need it are skipped with one line saying why (failed instead in CI)."""
    reason = postgres_missing()
    if reason:
        for item in items:
            if needs_postgres(item):
                item.add_marker(pytest.mark.skip(reason=f"PostgreSQL lesson did not run: {reason}"))
    last = [item for item in items if item.get_closest_marker("after_notebooks")]
    items[:] = [item for item in items if not item.get_closest_marker("after_notebooks")] + last
    config.stash[_NOTEBOOKS_KEY] = sorted({Path(str(item.fspath)).name for item in items
                                           if str(item.fspath).endswith(".ipynb")})


_OUTPUT_KEY = pytest.StashKey[Path]()
_NOTEBOOKS_KEY = pytest.StashKey[list]()


@pytest.fixture(scope="session")
def regenerated_outputs(request: pytest.FixtureRequest) -> Path:
    """The folder where this session's lesson runs wrote their tables, every lesson included."""
    from lab.course.pipeline import execute_lesson, lesson_paths

    out = request.config.stash[_OUTPUT_KEY]
    executed = set(request.config.stash.get(_NOTEBOOKS_KEY, []))
    os.environ[MISSES_ENV] = "error"  # as for the lessons nbval runs
    try:
        for path in lesson_paths():
            if path.stem == POSTGRES_LESSON and postgres_missing():
                continue  # its outputs are left out of the drift check (without_postgres_lesson)
            if path.name not in executed:
                with tempfile.TemporaryDirectory() as tmp:
                    execute_lesson(path, output=Path(tmp) / path.name)
    finally:
        os.environ.pop(MISSES_ENV, None)
    return out


# The store contract runs against both backends: SQLite (a file in the test's folder) and PostgreSQL (a
# fresh database in a throwaway cluster this session starts, lab.testing.postgres_cluster).
REQUIRE_POSTGRES_ENV = "LAB_REQUIRE_POSTGRES"  # "1" in CI: a cluster that cannot start fails instead of skipping
POSTGRES_LESSON = "13_the_index_in_postgresql"  # the lesson that starts a cluster of its own


def needs_postgres(item: pytest.Item) -> bool:
    """Whether a collected test executes the PostgreSQL lesson (strict nbval on it, or its cell-by-cell rerun)."""
    return POSTGRES_LESSON in item.nodeid or (item.path.name == "test_lessons_rerun.py"
                                               and item.nodeid.endswith("[13]"))


def without_postgres_lesson(drifts: list) -> list:
    """The drifts of outputs other than the PostgreSQL lesson's, where that lesson cannot run here."""
    if postgres_missing() is None:
        return drifts
    return [drift for drift in drifts if not str(drift.file).startswith(POSTGRES_LESSON[:3])]


def postgres_missing() -> str | None:
    """Why PostgreSQL cannot run here, or ``None`` (also ``None`` when CI requires it: then it must run)."""
    if os.environ.get(REQUIRE_POSTGRES_ENV) == "1":
        return None
    from lab.testing.postgres_cluster import unavailable_reason
    return unavailable_reason()


@pytest.fixture(scope="session")
def postgres_cluster():
    """A PostgreSQL cluster for this test session, stopped and deleted at its end; skips (one line saying why)
    where the server or psycopg is missing, unless LAB_REQUIRE_POSTGRES=1."""
    try:
        import psycopg  # noqa: F401
        from lab.testing.postgres_cluster import PostgresCluster, PostgresUnavailable
    except ImportError:
        reason = "psycopg is not installed (pip install 'lab[postgres]')"
    else:
        try:
            cluster = PostgresCluster.start()
        except PostgresUnavailable as exc:
            reason = str(exc)
        else:
            yield cluster
            cluster.stop()
            return
    if os.environ.get(REQUIRE_POSTGRES_ENV) == "1":
        pytest.fail(f"PostgreSQL is required here ({REQUIRE_POSTGRES_ENV}=1) but {reason}")
    pytest.skip(f"PostgreSQL tests did not run: {reason}")


@pytest.fixture
def postgres_url(postgres_cluster) -> str:
    """The URL of a new empty database on the session's cluster."""
    return postgres_cluster.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's index lives, once per backend: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "kb.sqlite")
    return request.getfixturevalue("postgres_url")
