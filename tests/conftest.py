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


def pytest_configure(config: pytest.Config) -> None:
    out = Path(tempfile.mkdtemp(prefix="lab-regenerated-"))
    config.stash[_OUTPUT_KEY] = out
    os.environ[OUTPUT_ENV] = str(out)  # inherited by every kernel nbval starts


def pytest_unconfigure(config: pytest.Config) -> None:
    out = config.stash.get(_OUTPUT_KEY, None)
    if out is not None:
        shutil.rmtree(out, ignore_errors=True)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run the drift check after every notebook, whatever order collection produced."""
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
    for path in lesson_paths():
        if path.name not in executed:
            with tempfile.TemporaryDirectory() as tmp:
                execute_lesson(path, output=Path(tmp) / path.name)
    return out
