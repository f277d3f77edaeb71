"""Every committed table is exactly what the lessons regenerate today."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import without_postgres_lesson
from lab.course.drift import compare_tables
from lab.course.paths import DATA_DIR


@pytest.mark.after_notebooks
def test_every_committed_table_regenerates_identically(regenerated_outputs: Path) -> None:
    drifts = without_postgres_lesson(compare_tables(DATA_DIR / "tables", regenerated_outputs / "tables"))
    assert not drifts, "tables moved:\n" + "\n".join(str(d) for d in drifts)


@pytest.mark.after_notebooks
def test_every_saved_sample_regenerates_identically(regenerated_outputs: Path) -> None:
    drifts = compare_tables(DATA_DIR / "samples", regenerated_outputs / "samples", pattern="*.json")
    assert not drifts, "saved samples moved:\n" + "\n".join(str(d) for d in drifts)


def test_drift_report_names_the_file_and_first_differing_row(tmp_path: Path) -> None:
    committed, regenerated = tmp_path / "a", tmp_path / "b"
    committed.mkdir()
    regenerated.mkdir()
    (committed / "t.csv").write_text("x,y\n1,2\n3,4\n")
    (regenerated / "t.csv").write_text("x,y\n1,2\n3,5\n")
    (committed / "gone.csv").write_text("x\n")
    drifts = {d.file: d for d in compare_tables(committed, regenerated)}
    assert drifts["t.csv"].row == 2
    assert "3,4" in str(drifts["t.csv"]) and "3,5" in str(drifts["t.csv"])
    assert drifts["gone.csv"].row is None and "not regenerated" in str(drifts["gone.csv"])


@pytest.mark.after_notebooks
def test_every_chart_redraws_to_the_same_bytes(regenerated_outputs: Path) -> None:
    drifts = without_postgres_lesson(compare_tables(DATA_DIR / "figures", regenerated_outputs / "figures",
                                                    pattern="*.png"))
    assert not drifts, "charts moved:\n" + "\n".join(str(d) for d in drifts)
