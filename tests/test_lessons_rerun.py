"""A learner goes back: every code cell of every lesson, run twice in a row, gives the same output."""

from __future__ import annotations

from pathlib import Path

import pytest

from lab.course.rerun import rerun_each_cell
from lab.course.pipeline import lesson_paths


@pytest.mark.parametrize("lesson", lesson_paths(), ids=lambda path: path.stem[:2])
def test_each_cell_run_twice_gives_the_same_output_as_once(lesson: Path) -> None:
    changes = rerun_each_cell(lesson)
    assert not changes, f"{lesson.name}: cells that change when run again:\n" + "\n".join(map(str, changes))
