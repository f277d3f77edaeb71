"""Execute the lessons in order and regenerate everything they write.

``python -m lab.pipeline run`` (what ``make run`` calls) runs every ``notebooks/NN_*.ipynb``
with papermill in a fresh ``python3`` kernel, working directory ``notebooks/``, and writes each
executed notebook back in place with papermill's timing metadata removed, so that a run on
unchanged code leaves ``git status`` clean. It ends with a one-screen summary.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import nbformat

from lab.paths import NOTEBOOKS_DIR, tables_dir
from lab.summary import key_figures

__all__ = ["lesson_paths", "execute_lesson", "normalise_notebook", "main"]


@dataclass(frozen=True)
class LessonResult:
    """Outcome of one executed lesson."""

    name: str
    ok: bool
    seconds: float
    error: str = ""


def lesson_paths(notebooks_dir: Path = NOTEBOOKS_DIR) -> list[Path]:
    """The lessons in the order a learner follows them (``01_...`` to ``09_...``)."""
    return sorted(notebooks_dir.glob("[0-9][0-9]_*.ipynb"))


def _coalesce_streams(outputs: list) -> list:
    """Merge consecutive stdout (or stderr) outputs: how the kernel happened to flush must not show."""
    merged: list = []
    for output in outputs:
        if (output.get("output_type") == "stream" and merged and merged[-1].get("output_type") == "stream"
                and merged[-1].get("name") == output.get("name")):
            merged[-1]["text"] = merged[-1]["text"] + output["text"]
        else:
            merged.append(output)
    return merged


def normalise_notebook(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Drop what varies between runs (papermill timings, interpreter patch version, stream
    flushing), keep execution counts."""
    nb.metadata.pop("papermill", None)
    nb.metadata.get("language_info", {}).pop("version", None)
    for cell in nb.cells:
        cell.metadata.pop("papermill", None)
        cell.metadata.pop("execution", None)
        if "tags" in cell.metadata and not cell.metadata["tags"]:
            del cell.metadata["tags"]
        if cell.cell_type == "code":
            cell.outputs = _coalesce_streams(cell.outputs)
    return nb


def execute_lesson(path: Path, output: Path | None = None, cwd: Path = NOTEBOOKS_DIR) -> None:
    """Run one notebook top to bottom with papermill and write it, normalised, to ``output``."""
    import papermill  # imported here: it is slow to import and only this function needs it

    output = output or path
    with tempfile.TemporaryDirectory() as tmp:
        executed = Path(tmp) / path.name
        papermill.execute_notebook(
            str(path),
            str(executed),
            kernel_name="python3",
            cwd=str(cwd),
            progress_bar=False,
            request_save_on_cell_execute=False,
        )
        nb = normalise_notebook(nbformat.read(executed, as_version=4))
    nbformat.write(nb, output)


def run_all(paths: list[Path]) -> list[LessonResult]:
    """Execute each lesson; a failing lesson is reported and left untouched, the others still run."""
    results = []
    for path in paths:
        started = time.monotonic()
        print(f"running {path.name} ...", flush=True)
        try:
            execute_lesson(path)
        except Exception as exc:  # papermill raises PapermillExecutionError with the failing cell
            results.append(LessonResult(path.stem, False, time.monotonic() - started, _describe_failure(exc)))
        else:
            results.append(LessonResult(path.stem, True, time.monotonic() - started))
    return results


def _describe_failure(exc: Exception) -> str:
    """One line naming the failing cell and the error, from papermill's exception when possible."""
    ename, evalue = getattr(exc, "ename", None), getattr(exc, "evalue", None)
    if ename:
        return f"cell {getattr(exc, 'exec_count', '?')}: {ename}: {str(evalue).splitlines()[0] if evalue else ''}"
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0] if text else ''}"


def print_summary(results: list[LessonResult]) -> None:
    """One line per lesson: name, status, wall seconds for this run, and its key figures."""
    print()
    print(f"{'lesson':<34} {'status':<7} {'secs':>5}  key figures")
    print("-" * 100)
    tables = tables_dir()
    for r in results:
        status = "ok" if r.ok else "FAILED"
        figures = key_figures(r.name, tables) if r.ok else r.error
        print(f"{r.name:<34} {status:<7} {r.seconds:5.1f}  {figures}")
    failed = [r.name for r in results if not r.ok]
    print("-" * 100)
    print(f"{len(results) - len(failed)} of {len(results)} lessons ran; tables in {tables}")
    if failed:
        print("failed: " + ", ".join(failed))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.pipeline", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="execute every lesson in order and print a summary")
    run.add_argument("lessons", nargs="*", help="lesson prefixes to run (e.g. 01 03); all by default")
    args = parser.parse_args(argv)

    paths = lesson_paths()
    if args.lessons:
        paths = [p for p in paths if any(p.name.startswith(prefix) for prefix in args.lessons)]
    results = run_all(paths)
    print_summary(results)
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
