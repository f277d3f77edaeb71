"""What a learner relies on in every lesson: short lessons, readable lines, charts as pictures,
and exercises with a place to answer, a checker, and a folded worked solution that asserts and
that running the lesson never executes."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from lab.course.pipeline import lesson_paths
from lab.course.solutions import solution_number, solutions

MAX_STEPS = 40       # "about 40": a lesson longer than this teaches two things and wants splitting
MAX_LINE = 100       # characters in a code line, so no cell needs a horizontal scroll
MAX_MARKDOWN = 1500  # characters in a markdown cell: about a screen of prose, read without scrolling
LESSONS = lesson_paths()


def _cells(path: Path) -> list:
    return nbformat.read(path, as_version=4).cells


def _steps(cells: list) -> int:
    """What a learner steps through: each code cell, and each run of markdown cells between two of
    them (prose cut into screens is still one stretch of reading)."""
    return sum(1 for i, cell in enumerate(cells)
               if cell.cell_type == "code" or i == 0 or cells[i - 1].cell_type == "code")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem[:2])
def test_a_lesson_has_at_most_about_forty_steps(lesson: Path) -> None:
    assert _steps(_cells(lesson)) <= MAX_STEPS, f"{lesson.name} has {_steps(_cells(lesson))} steps"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem[:2])
def test_no_markdown_cell_is_longer_than_about_a_screen(lesson: Path) -> None:
    long = [(i, len(cell.source)) for i, cell in enumerate(_cells(lesson))
            if cell.cell_type == "markdown" and len(cell.source) > MAX_MARKDOWN]
    assert not long, f"{lesson.name}: " + "; ".join(f"cell {i}: {n} characters (at most {MAX_MARKDOWN})"
                                                    for i, n in long)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem[:2])
def test_no_code_line_is_longer_than_a_hundred_characters(lesson: Path) -> None:
    long = [(i, line) for i, cell in enumerate(_cells(lesson)) if cell.cell_type == "code"
            for line in cell.source.splitlines() if len(line) > MAX_LINE]
    assert not long, f"{lesson.name}: " + "; ".join(f"cell {i}: {len(line)} chars" for i, line in long)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem[:2])
def test_every_chart_is_shown_as_a_picture(lesson: Path) -> None:
    for i, cell in enumerate(_cells(lesson)):
        for output in cell.get("outputs", []):
            text = "".join(output.get("data", {}).get("text/plain", ""))
            assert "<Figure size" not in text, f"{lesson.name} cell {i} shows a chart as text"
            if text.startswith("[chart "):
                assert "image/png" in output["data"], f"{lesson.name} cell {i}: chart without its picture"


def _exercises(cells: list) -> list[tuple[int, int]]:
    """(exercise number, index of its prompt cell) for every '### Exercise n' heading."""
    found = []
    for i, cell in enumerate(cells):
        if cell.cell_type == "markdown":
            found += [(int(n), i) for n in re.findall(r"^### Exercise (\d+)", cell.source, re.M)]
    return found


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem[:2])
def test_each_exercise_has_an_answer_cell_a_checker_and_a_folded_solution_that_asserts(lesson: Path) -> None:
    cells = _cells(lesson)
    exercises = _exercises(cells)
    assert len(exercises) >= 2, f"{lesson.name}: {len(exercises)} exercises"
    assert [n for n, _ in exercises] == list(range(1, len(exercises) + 1))
    worked = solutions(cells)
    assert sorted(worked) == [n for n, _ in exercises], f"{lesson.name}: solutions {sorted(worked)}"
    for n, i in exercises:
        answer, solution = cells[i + 1], cells[i + 2]
        where = f"{lesson.name}, exercise {n}"
        assert answer.cell_type == "code" and re.search(r"=\s*\.\.\.", answer.source), f"{where}: no '...' to fill in"
        assert f"exercise({n}).check(" in answer.source, f"{where}: the answer cell does not call the checker"
        shown = "".join(o.get("text", "") + "".join(o.get("data", {}).get("text/plain", "")) for o in answer.outputs)
        assert "not answered yet" in shown, f"{where}: the untouched answer cell should say 'not answered yet'"
        # markdown, so that running the notebook (Run All, Shift-Enter down the page) never runs it
        assert solution.cell_type == "markdown" and solution_number(solution.source) == n, f"{where}: no folded solution"
        assert f"exercise({n}).assert_solved(" in worked[n], f"{where}: the solution does not assert"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem[:2])
def test_no_code_cell_runs_a_solution_or_shows_a_correct_answer(lesson: Path) -> None:
    for i, cell in enumerate(_cells(lesson)):
        if cell.cell_type != "code":
            continue
        assert "assert_solved(" not in cell.source, f"{lesson.name} cell {i}: a solution in a code cell"
        shown = "".join(o.get("text", "") + "".join(o.get("data", {}).get("text/plain", "")) for o in cell.outputs)
        assert "· correct" not in shown, f"{lesson.name} cell {i} shows a solved exercise"
