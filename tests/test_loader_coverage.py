"""The coverage of a loader's text, and its recording, without the loaders themselves (they come with the
dev extra only: tests/test_reference_loaders.py runs them and holds the recording to a fresh run)."""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat

from lab.course.lesson09 import LOADER_RECORDING
from lab.course.pipeline import lesson_paths
from lab.testing.loader_coverage import LoaderRecording, coverage_table, missed_lines, read_recording, write_recording

LINES = {"p1": [("paragraph", "Abrimos a las 8:00."), ("table_row", "Pastel | 48 h"), ("divider", "")],
         "p2": [("paragraph", "Lleva **nuez**."), ("image", "Foto del pastel")]}


def test_a_line_is_kept_when_its_letters_are_in_the_loaders_text_of_its_own_page() -> None:
    texts = {"p1": "Abrimos a las\n8:00.", "p2": "Lleva\n**nuez**.\nAbrimos a las 8:00."}
    assert missed_lines(LINES, texts) == {"table_row": 1, "image": 1}
    assert missed_lines(LINES, {}) == {"paragraph": 2, "table_row": 1, "image": 1}  # a page it never returned


def test_the_table_counts_the_lab_lines_with_text_and_what_each_loader_kept() -> None:
    recording = LoaderRecording("A loader", "a 1.0", "2022-06-28", "load()", 2, {"table_row": 1, "image": 1})
    table = coverage_table(LINES, [recording]).set_index("block")
    assert table["lab_lines"].to_dict() == {"image": 1, "paragraph": 2, "table_row": 1, "all": 4}
    assert table["A loader"].to_dict() == {"image": 0, "paragraph": 2, "table_row": 0, "all": 2}


def test_a_recording_reads_back_as_written(tmp_path: Path) -> None:
    recordings = [LoaderRecording("A loader", "a 1.0", "2022-06-28", "load()", 2, {"image": 1})]
    write_recording(tmp_path / "r.json", recordings)
    assert read_recording(tmp_path / "r.json") == recordings


def test_the_committed_recording_names_what_each_loader_sends() -> None:
    recorded = read_recording(LOADER_RECORDING)
    assert [r.loader for r in recorded] == ["LangChain NotionDBLoader", "LlamaIndex NotionPageReader"]
    assert {r.notion_version for r in recorded} == {"2022-06-28"}


def test_no_lesson_imports_a_loader_that_only_the_dev_extra_installs() -> None:
    for path in lesson_paths():
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            for node in ast.walk(ast.parse(cell.source)):
                names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                assert not any(n.split(".")[0] in {"langchain_community", "llama_index"} for n in names), path.name
