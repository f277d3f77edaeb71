"""A learner goes back: every code cell of every lesson, run twice in a row, gives the same output;
and every worked solution, which running a lesson never executes, still passes its checker."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.course.pipeline import lesson_paths
from lab.course.rerun import rerun_lesson


@pytest.mark.parametrize("lesson", lesson_paths(), ids=lambda path: path.stem[:2])
def test_each_cell_run_twice_gives_the_same_output_and_each_solution_passes_its_checker(lesson: Path) -> None:
    report = rerun_lesson(lesson)
    assert not report.changes, f"{lesson.name}: cells that change when run again:\n" + "\n".join(map(str, report.changes))
    assert not report.failures, f"{lesson.name}: solutions that fail:\n" + "\n".join(map(str, report.failures))
    assert report.solutions_run >= 2, f"{lesson.name}: {report.solutions_run} worked solutions found"
