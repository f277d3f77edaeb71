"""The drift check's report, and the outputs it covers: each lesson's run is compared with the committed
``data/`` file by file right after the lesson's last cell (``tests/lesson_items.py``)."""

from __future__ import annotations

from pathlib import Path

from lab.course.drift import OUTPUT_KINDS, compare_tables
from lab.course.paths import DATA_DIR
from lab.course.pipeline import lesson_paths


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


def test_one_lessons_check_expects_only_its_own_committed_files_and_every_file_it_wrote(tmp_path: Path) -> None:
    committed, regenerated = tmp_path / "a", tmp_path / "b"
    committed.mkdir()
    regenerated.mkdir()
    for name in ("06_sync.csv", "06_gone.csv", "07_other.csv"):
        (committed / name).write_text("x\n1\n")
    (regenerated / "06_sync.csv").write_text("x\n1\n")
    (regenerated / "06_new.csv").write_text("x\n")
    drifts = {d.file: str(d) for d in compare_tables(committed, regenerated, committed_prefix="06_")}
    assert set(drifts) == {"06_gone.csv", "06_new.csv"}  # 07's table belongs to another lesson's check
    assert "not regenerated" in drifts["06_gone.csv"] and "not committed" in drifts["06_new.csv"]


def test_every_committed_output_belongs_to_a_lesson_so_some_lessons_check_compares_it() -> None:
    prefixes = {path.name[:3] for path in lesson_paths()}
    orphans = [f"{kind}/{path.name}" for kind, pattern in OUTPUT_KINDS for path in (DATA_DIR / kind).glob(pattern)
               if path.name[:3] not in prefixes]
    assert not orphans, f"committed outputs no lesson writes: {orphans}"
