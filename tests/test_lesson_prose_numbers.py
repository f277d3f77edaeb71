"""Every figure a lesson's prose quotes is one the lesson shows (an output, a saved table, a setting
in its code) or a constant it declares with its reason (lab.course.prose_numbers). Reads the
committed notebooks and tables only: nothing is executed."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from lab.course.paths import DATA_DIR
from lab.course.pipeline import lesson_paths
from lab.course.prose_numbers import CONSTANTS, check_lesson, prose_figures

LESSONS = lesson_paths()


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem[:2])
def test_every_figure_in_a_lessons_prose_is_shown_by_the_lesson_or_declared(lesson: Path) -> None:
    checked = check_lesson(lesson)
    assert checked.figures > 0, f"{lesson.name}: no figure found in its prose"
    assert not checked.findings, f"{len(checked.findings)} figures of {lesson.name} are not shown:\n" + "\n".join(
        str(finding) for finding in checked.findings)


def test_every_declared_constant_gives_its_reason_and_belongs_to_a_lesson() -> None:
    numbers = {path.name[:2] for path in LESSONS}
    for lesson, constants in CONSTANTS.items():
        assert lesson in numbers
        for constant in constants:
            assert constant.reason.strip(), (lesson, constant)
            assert constant.shown_in in numbers | {""}, (lesson, constant)


def _copy_of_the_lessons(tmp_path: Path) -> tuple[Path, Path]:
    notebooks, tables = tmp_path / "notebooks", tmp_path / "tables"
    notebooks.mkdir()
    for path in LESSONS:
        shutil.copy(path, notebooks / path.name)
    shutil.copytree(DATA_DIR / "tables", tables)
    return notebooks, tables


def _replace_in_outputs(notebook: Path, old: str, new: str) -> None:
    """Replace a number in every code cell's outputs, as a re-run that moved it would."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        for output in cell.get("outputs", []):
            if "text" in output:
                output["text"] = [line.replace(old, new) for line in output["text"]]
            for kind, text in output.get("data", {}).items():
                if kind.startswith("text/"):
                    output["data"][kind] = [line.replace(old, new) for line in text]
    notebook.write_text(json.dumps(nb, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def test_a_quoted_table_that_moves_fails_the_check_naming_the_cell_and_the_sentence(tmp_path: Path) -> None:
    notebooks, tables = _copy_of_the_lessons(tmp_path)
    lesson = next(notebooks.glob("10_*.ipynb"))
    assert not check_lesson(lesson, tables).findings
    # the held-out recall@8 the prose quotes (0.876) moves to 0.871 in every table and cell that shows it
    for table in tables.glob("10_*.csv"):
        rows = list(csv.reader(table.open(encoding="utf-8")))
        with table.open("w", encoding="utf-8", newline="") as handle:
            csv.writer(handle, lineterminator="\n").writerows([[field.replace("0.876", "0.871") for field in row]
                                                              for row in rows])
    _replace_in_outputs(lesson, "0.876", "0.871")
    findings = check_lesson(lesson, tables).findings
    quoted = [finding for finding in findings if finding.figure.text == "0.876"]
    assert quoted, [str(finding) for finding in findings]
    cells = json.loads(lesson.read_text(encoding="utf-8"))["cells"]
    for finding in quoted:
        assert "0.876" in "".join(cells[finding.cell]["source"])
        assert str(finding).startswith(f"lesson 10, cell {finding.cell}: '0.876'")
        assert "0.876" in finding.figure.sentence and finding.figure.sentence in str(finding)


def test_a_figure_quoted_from_another_lesson_must_still_be_shown_there(tmp_path: Path) -> None:
    notebooks, tables = _copy_of_the_lessons(tmp_path)
    lesson_10 = next(notebooks.glob("10_*.ipynb"))
    assert not check_lesson(lesson_10, tables).findings
    # lesson 10 quotes lesson 07's best recall@8, e5's 0.776; lesson 07's e5 now finds 0.779
    _replace_in_outputs(next(notebooks.glob("07_*.ipynb")), "0.776", "0.779")
    comparison = tables / "07_bakery_comparison.csv"
    comparison.write_text(comparison.read_text(encoding="utf-8").replace("0.776", "0.779"), encoding="utf-8")
    findings = check_lesson(lesson_10, tables).findings
    assert [(finding.figure.text, finding.why) for finding in findings] == [("0.776", "lesson 07 does not show it")]


def _figures(markdown: str) -> list[str]:
    return [figure.text for figure in prose_figures(markdown)]


def test_measurements_are_figures() -> None:
    assert _figures("Recall@8 is 0.830 on the 55 questions, 35 % of 2,000 characters, in 14 requests "
                    "and 3 requests per second, the 14th section.") == ["0.830", "55", "35 %", "2,000", "14", "3", "14"]


def test_numbering_names_dates_times_versions_and_statuses_are_not_figures() -> None:
    assert _figures("Lesson 06's cell 12, rungs 1, 2, 3, 5 and 13, lessons 05 to 07, step 4 of exercise 2.") == []
    assert _figures("recall@8, nDCG@10, e5, BM25, LSA-128, voyage-4, int8 and 10_ladder_heldout.csv") == []
    assert _figures("On 2026-04-09 at 16:00, on 1 May and April 9, in 2026, with Python 3.12 and a 429.") == []
    assert _figures("## 3. Chunking\n\n1. first\n2. second") == []


def test_quoted_words_code_formulas_arithmetic_and_folded_solutions_are_not_figures() -> None:
    assert _figures('The customer wrote "650 pesos" and `k=50` in $k_1 = 1.5$ with ceil(32 / 7) = 5 calls.') == []
    solution = "<details>\n<summary>Solution 1</summary>\n\nIt takes 32 requests.\n\n</details>\n\nThen 41 blocks."
    from lab.course.prose_numbers import lesson_figures

    notebook = {"cells": [{"cell_type": "markdown", "source": solution}]}
    assert [figure.text for _, figure in lesson_figures(notebook)] == ["41"]
    assert [figure.text for _, figure in lesson_figures(notebook, solutions=True)] == ["32"]


def test_a_figure_matches_what_rounds_to_it_in_its_own_unit() -> None:
    exact, percent, approximate, size = prose_figures("0.83, then 35 %, about 2,000, and 1.5 MB.")
    assert exact.matches(0.8304) and exact.matches(0.830) and not exact.matches(0.836)
    assert percent.matches(0.35) and percent.matches(35.0) and not percent.matches(0.36)
    assert approximate.matches(1953) and not approximate.matches(2600)
    assert size.matches(1_507_000) and not size.matches(821_164)
