"""The lesson runner's normalisation: what varies between runs never reaches a committed notebook."""

from __future__ import annotations

import nbformat
from nbformat.v4 import new_code_cell, new_notebook, new_output

from lab.course.pipeline import lesson_paths, normalise_notebook


def test_papermill_metadata_goes_and_execution_counts_stay() -> None:
    cell = new_code_cell("print(1)", execution_count=3)
    cell.metadata.update({"papermill": {"duration": 0.1}, "execution": {"iopub.status.busy": "2026"}, "tags": []})
    nb = new_notebook(cells=[cell], metadata={"papermill": {"start_time": "x"}, "language_info": {"name": "python",
                                                                                                   "version": "3.11.7"}})
    out = normalise_notebook(nb)
    assert "papermill" not in out.metadata and "version" not in out.metadata["language_info"]
    assert out.cells[0].metadata == {} and out.cells[0].execution_count == 3


def test_consecutive_stream_outputs_are_merged_whatever_the_flushing() -> None:
    cell = new_code_cell("...", outputs=[new_output("stream", name="stdout", text="a\n"),
                                         new_output("stream", name="stdout", text="b\n"),
                                         new_output("stream", name="stderr", text="warn\n"),
                                         new_output("stream", name="stdout", text="c\n")])
    out = normalise_notebook(new_notebook(cells=[cell])).cells[0].outputs
    assert [(o["name"], o["text"]) for o in out] == [("stdout", "a\nb\n"), ("stderr", "warn\n"), ("stdout", "c\n")]


def test_committed_lessons_are_already_normalised() -> None:
    for path in lesson_paths():
        nb = nbformat.read(path, as_version=4)
        assert nbformat.writes(normalise_notebook(nbformat.read(path, as_version=4))) == nbformat.writes(nb), path.name


def test_the_run_summary_fits_its_width_and_wraps_long_key_figures(tmp_path, monkeypatch) -> None:
    from lab.course import pipeline
    from lab.course.pipeline import LessonResult, summary_lines

    monkeypatch.setattr(pipeline, "key_figures", lambda name, tables: "figure " * 30)
    results = [LessonResult("02_a_client_that_respects_rate_limits", True, 18.8),
               LessonResult("03_x", False, 1.0, "cell 4: ValueError: bad")]
    lines = summary_lines(results, width=90)
    assert all(len(line) <= 90 for line in lines)
    assert any(line.startswith("02_a_client_that_respects_rate_limits  ok") for line in lines)
    assert any("FAILED" in line and "cell 4: ValueError" in line for line in lines)
    assert sum("figure" in line for line in lines) > 2  # wrapped, not cut


def test_every_lesson_states_its_key_figures_from_the_tables_it_wrote() -> None:
    from lab.course.paths import DATA_DIR
    from lab.course.summary import key_figures

    for path in lesson_paths():
        figures = key_figures(path.stem, DATA_DIR / "tables")
        assert figures and "unreadable" not in figures, f"{path.stem}: {figures!r}"
