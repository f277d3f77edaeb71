"""Fixtures shared by the tests: the store contract's two backends (a SQLite file, a database in a
throwaway PostgreSQL cluster started once per test session, or once per xdist worker).

The lessons' own wiring (strict nbval, each cell run twice, the outputs check, the worked solutions) is
``tests/lesson_run.py``, registered by the repository's ``conftest.py`` so that it reaches ``notebooks/``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lab.testing.postgres_cluster import REQUIRE_ENV

# The store contract runs against both backends: SQLite (a file in the test's folder) and PostgreSQL (a
# fresh database in a throwaway cluster this session starts, lab.testing.postgres_cluster).
REQUIRE_POSTGRES_ENV = REQUIRE_ENV


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests that start PostgreSQL (``-m "not postgres"`` leaves them out, as ``make check`` does)."""
    for item in items:
        params = getattr(item, "callspec", None)
        if ("postgres_cluster" in getattr(item, "fixturenames", ())
                or (params is not None and params.params.get("store_url") == "postgresql")):
            item.add_marker(pytest.mark.postgres)


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
