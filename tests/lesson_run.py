"""The lessons' test wiring, registered for notebooks/ and tests/ alike by the repository's ``conftest.py``:
each lesson executed once, by strict nbval, and every check a lesson needs made on that run.

nbval executes a lesson cell by cell in one kernel and compares each cell's outputs with the committed ones.
Around that run, the same kernel also:

- runs each cell a second time right after the first, as a learner who goes back does: the second run
  must match the committed outputs too, and the first run's exactly (pictures included, which nbval
  itself leaves out of its comparison);
- after the last cell, compares the tables, charts and samples this run wrote with the committed
  ``data/`` (:class:`LessonOutputs`, the drift check, lesson by lesson);
- then runs every worked solution, which running the lesson never executes, against its checker
  (:class:`LessonSolutions`).

A lesson's kernel writes to this session's temporary folder (one folder per lesson), never to ``data/``.
``make test`` runs the suite on every core with pytest-xdist, file by file (``--dist loadfile``): a lesson's
items stay on one worker, in order, with its kernel, and so do the browser tests with their JupyterLab.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from lab.testing.postgres_cluster import skip_reason

# lab.course (pandas, matplotlib, nbformat) is imported where a lesson is checked, so that a run of the
# tests alone (make check) starts without it

SOLUTION_TIMEOUT_S = 600
OUTPUT_ENV = "LAB_OUTPUT_DIR"  # lab.course.paths.OUTPUT_ENV
MISSES_ENV = "LAB_EMBEDDING_MISSES"  # lab.embedders.MISSES_ENV, named here without importing the model
POSTGRES_LESSON = "13_the_index_in_postgresql"  # starts a cluster of its own
_OUTPUT_KEY = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    out = Path(tempfile.mkdtemp(prefix="lab-regenerated-"))
    config.stash[_OUTPUT_KEY] = out
    os.environ[OUTPUT_ENV] = str(out)  # what tests of the lessons' machinery write goes here, not to data/


def pytest_unconfigure(config: pytest.Config) -> None:
    out = config.stash.get(_OUTPUT_KEY, None)
    if out is not None:
        shutil.rmtree(out, ignore_errors=True)


def _is_lesson_item(item: pytest.Item) -> bool:
    return str(item.fspath).endswith(".ipynb")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A lesson runs without calling the embedding model: every vector it needs is kept with the lab
    (lab.embedders.KNOWN_DIR), and a lesson that would embed a new text fails instead of slowing down.
    Its kernel, which nbval starts during its first cell's setup, inherits both settings: that variable,
    and the lesson's own output folder."""
    out = item.config.stash[_OUTPUT_KEY]
    if _is_lesson_item(item):
        os.environ[MISSES_ENV] = "error"
        os.environ[OUTPUT_ENV] = str(lesson_output_dir(out, Path(str(item.fspath))))
    else:
        os.environ.pop(MISSES_ENV, None)
        os.environ[OUTPUT_ENV] = str(out)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """A lesson's cell, once nbval has run it and found the committed outputs, runs again at once."""
    result = yield
    if _is_nbval_cell(item) and not item.options["skip"]:
        run_cell_again(item)
    return result


def _is_nbval_cell(item: pytest.Item) -> bool:
    return type(item).__name__ == "IPyNbCell" and _is_lesson_item(item)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """After each lesson's last cell, its outputs check and its solutions; the longest files first; where
    PostgreSQL cannot run, the lesson that needs it is skipped with one line saying why (failed instead in CI)."""
    out = config.stash[_OUTPUT_KEY]
    arranged: list[pytest.Item] = []
    for index, item in enumerate(items):
        arranged.append(item)
        following = items[index + 1] if index + 1 < len(items) else None
        if _is_nbval_cell(item) and (following is None or following.parent is not item.parent):
            arranged.append(LessonOutputs.from_parent(item.parent, name="saved outputs", output_root=out))
            arranged.append(LessonSolutions.from_parent(item.parent, name="worked solutions"))
    # the longest files first (make test keeps this order, --no-loadscope-reorder): the browser test, the
    # lessons, then the files with slow tests, so that no worker is left running one of them while the other
    # has nothing more to do
    slow_files = {item.path for item in arranged if item.get_closest_marker("slow")}
    items[:] = sorted(arranged, key=lambda item: _start_order(item, slow_files))
    postgres_missing = skip_reason()
    for item in items:
        if _is_lesson_item(item) and POSTGRES_LESSON in item.nodeid:
            item.add_marker(pytest.mark.postgres)
            if postgres_missing:
                item.add_marker(pytest.mark.skip(reason=f"PostgreSQL lesson did not run: {postgres_missing}"))


def _start_order(item: pytest.Item, slow_files: set[Path]) -> int:
    if item.path.name == "test_browser.py":
        return 0
    if _is_lesson_item(item):
        return 1
    return 2 if item.path in slow_files else 3


def lesson_output_dir(root: Path, notebook: Path) -> Path:
    """Where this session's run of ``notebook`` writes its tables, charts and samples."""
    return root / notebook.stem


def run_cell_again(cell_item: pytest.Item) -> None:
    """Run an nbval cell a second time in its kernel: the outputs must equal the committed ones (nbval's own
    comparison) and the first run's, byte for byte, pictures included."""
    from nbval.plugin import NbCellError

    from lab.course.rerun import comparable_outputs, outputs_summary  # nbformat: only where lessons run

    first = comparable_outputs(cell_item.test_outputs or [])
    try:
        cell_item.runtest()
    except NbCellError as error:
        raise NbCellError(error.cell_num, f"Run again right after its first run: {error}", error.source,
                          error.inner_traceback) from None
    second = comparable_outputs(cell_item.test_outputs or [])
    if first != second:
        cell_item.raise_cell_error("Run again right after its first run, the cell gives other outputs",
                                   f"  first run:  {outputs_summary(first)[:300]!r}\n"
                                   f"  second run: {outputs_summary(second)[:300]!r}")


class LessonOutputs(pytest.Item):
    """The tables, charts and samples the lesson's run just wrote, against the committed ``data/``: a file
    that moved, one the lesson no longer writes, and one it writes that nobody committed."""

    def __init__(self, *, output_root: Path, **kwargs) -> None:
        super().__init__(**kwargs)
        self.output_root = output_root

    def runtest(self) -> None:
        from lab.course.drift import OUTPUT_KINDS, compare_tables
        from lab.course.paths import DATA_DIR

        notebook = Path(str(self.parent.fspath))
        regenerated, prefix = lesson_output_dir(self.output_root, notebook), notebook.stem[:3]
        drifts = []
        for kind, pattern in OUTPUT_KINDS:
            drifts += compare_tables(DATA_DIR / kind, regenerated / kind, pattern=pattern, committed_prefix=prefix)
        assert not drifts, f"{notebook.name}: outputs moved:\n" + "\n".join(str(drift) for drift in drifts)

    def reportinfo(self):
        return self.fspath, 0, f"{self.parent.fspath.basename}::{self.name}"


class LessonSolutions(pytest.Item):
    """Every worked solution of the lesson, run after its cells in the same kernel (as a learner who copied
    it would), passes its checker; what the solutions write goes to a scratch folder, never to the lesson's."""

    def runtest(self) -> None:
        from lab.course.solutions import solutions

        kernel = self.parent.kernel
        if kernel is None or not kernel.is_alive():
            pytest.fail("the lesson's kernel is not running (an earlier cell failed or timed out)")
        worked = solutions(self.parent.nb.cells)
        assert len(worked) >= 2, f"{len(worked)} worked solutions found"
        failures = []
        with tempfile.TemporaryDirectory(prefix="lab-solutions-") as scratch:
            _execute(kernel, f"import os; os.environ[{'LAB_OUTPUT_DIR'!r}] = {scratch!r}")
            for number, code in sorted(worked.items()):
                error = _execute(kernel, code)
                if error:
                    failures.append(f"solution {number}: {error}")
        assert not failures, "solutions that fail:\n" + "\n".join(failures)

    def reportinfo(self):
        return self.fspath, 0, f"{self.parent.fspath.basename}::{self.name}"


def _execute(kernel, code: str) -> str:
    """Run ``code`` in an nbval kernel; its error as ``Name: value``, or "" when it ran."""
    msg_id = kernel.execute_cell_input(code, allow_stdin=False)
    while True:  # nbval's await_reply drops the reply, and the reply says whether the code raised
        reply = kernel.get_message(stream="shell", timeout=SOLUTION_TIMEOUT_S)
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    content = reply["content"]
    if content.get("status") == "ok":
        return ""
    return f"{content.get('ename')}: {content.get('evalue')}"
