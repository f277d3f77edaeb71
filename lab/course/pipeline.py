"""Execute the lessons in order and regenerate everything they write.

``python -m lab.course.pipeline run`` (what ``make run`` calls) runs every ``notebooks/NN_*.ipynb``
with papermill in a fresh ``python3`` kernel, working directory ``notebooks/``, and writes each
executed notebook back in place with papermill's timing metadata removed, so that a run on
unchanged code leaves ``git status`` clean. It ends with a one-screen summary.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import textwrap
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import nbformat
from jupyter_client.manager import KernelManager
from traitlets import default

from lab.course.paths import NOTEBOOKS_DIR, tables_dir
from lab.course.summary import key_figures

__all__ = ["lesson_paths", "execute_lesson", "normalise_notebook", "QuietKernelManager", "main"]

PROGRESS_EVERY_S = 5.0  # a lesson running longer than this reports which cell it is on


class QuietKernelManager(KernelManager):
    """Kernels on Unix sockets: nothing listens on a TCP port, so ipykernel has no reason to warn
    that it runs over unencrypted TCP (Windows has no IPC transport and keeps TCP)."""

    @default("transport")
    def _default_transport(self) -> str:
        return "tcp" if os.name == "nt" else "ipc"

    @default("ip")
    def _default_ip(self) -> str:
        if self.transport != "ipc":
            return super()._ip_default()
        # an absolute socket path: the kernel runs in the lesson's folder, the client may not
        return os.path.join(tempfile.gettempdir(), f"lab-kernel-{uuid.uuid4().hex}-ipc")


@dataclass(frozen=True)
class LessonResult:
    """Outcome of one executed lesson."""

    name: str
    ok: bool
    seconds: float
    error: str = ""


def lesson_paths(notebooks_dir: Path = NOTEBOOKS_DIR) -> list[Path]:
    """The lessons in the order a learner follows them (``01_...`` to ``11_...``)."""
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


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def normalise_notebook(nb: dict) -> dict:
    """Drop what varies between runs (papermill timings, interpreter patch version, stream
    flushing, the live controls' widget ids and state), keep execution counts. A control's saved
    output is then the picture of its default values it carries beside the widget
    (:mod:`lab.course.controls`). Works in place on a NotebookNode or the plain dict a Jupyter
    server is about to save, and returns it."""
    nb["metadata"].pop("papermill", None)
    nb["metadata"].pop("widgets", None)
    nb["metadata"].get("language_info", {}).pop("version", None)
    for cell in nb["cells"]:
        cell["metadata"].pop("papermill", None)
        cell["metadata"].pop("execution", None)
        if "tags" in cell["metadata"] and not cell["metadata"]["tags"]:
            del cell["metadata"]["tags"]
        if cell["cell_type"] == "code":
            for output in cell["outputs"]:
                output.get("data", {}).pop(WIDGET_VIEW, None)
            cell["outputs"] = _coalesce_streams(cell["outputs"])
    return nb


class _Progress:
    """Prints, at most every few seconds, which code cell a long lesson has reached."""

    def __init__(self, path: Path, report: Callable[[str], None]) -> None:
        nb = nbformat.read(path, as_version=4)
        self.code_cells = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code"]
        self.report = report
        self.started = self.last = time.monotonic()

    def __call__(self, cell_index: int, **_: object) -> None:
        now = time.monotonic()
        if now - self.last >= PROGRESS_EVERY_S and cell_index in self.code_cells:
            done = self.code_cells.index(cell_index) + 1
            self.report(f"    cell {done} of {len(self.code_cells)} done after {now - self.started:.0f} s")
            self.last = now


def execute_lesson(path: Path, output: Path | None = None, cwd: Path = NOTEBOOKS_DIR,
                   report: Callable[[str], None] | None = None) -> None:
    """Run one notebook top to bottom with papermill and write it, normalised, to ``output``.

    ``report`` receives a progress line every few seconds while the lesson runs.
    """
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
            kernel_manager_class=QuietKernelManager,
            on_cell_executed=_Progress(path, report) if report else None,
        )
        nb = normalise_notebook(nbformat.read(executed, as_version=4))
    nbformat.write(nb, output)


def run_all(paths: list[Path]) -> list[LessonResult]:
    """Execute each lesson; a failing lesson is reported and left untouched, the others still run."""
    results = []
    for number, path in enumerate(paths, start=1):
        started = time.monotonic()
        print(f"[{number}/{len(paths)}] {path.stem}", flush=True)
        try:
            execute_lesson(path, report=lambda line: print(line, flush=True))
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


def summary_lines(results: list[LessonResult], width: int = 0) -> list[str]:
    """The run summary as lines no wider than ``width`` (the terminal's, at least 80): one row per
    lesson with its status, wall seconds and key figures, the figures wrapped in their column."""
    width = width or max(80, shutil.get_terminal_size((120, 24)).columns)
    tables = tables_dir()
    name_width = max([len("lesson")] + [len(r.name) for r in results])
    head = f"{'lesson':<{name_width}}  {'status':<6}  {'secs':>5}  "
    figure_width = max(20, width - len(head))
    lines = [head + "key figures", "-" * min(width, len(head) + figure_width)]
    for r in results:
        figures = key_figures(r.name, tables) if r.ok else r.error
        wrapped = textwrap.wrap(figures, figure_width) or [""]
        lines.append(f"{r.name:<{name_width}}  {'ok' if r.ok else 'FAILED':<6}  {r.seconds:5.1f}  {wrapped[0]}")
        lines.extend(" " * len(head) + more for more in wrapped[1:])
    lines.append(lines[1])
    return lines


def print_summary(results: list[LessonResult]) -> None:
    """Print :func:`summary_lines`, then where the tables are and which lessons failed."""
    print()
    print("\n".join(summary_lines(results)))
    tables = tables_dir()
    failed = [r.name for r in results if not r.ok]
    print(f"{len(results) - len(failed)} of {len(results)} lessons ran; tables in {tables}")
    if failed:
        print("failed: " + ", ".join(failed))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.course.pipeline", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="execute every lesson in order and print a summary")
    run.add_argument("lessons", nargs="*", help="lesson prefixes to run (e.g. 01 03); all by default")
    rerun = sub.add_parser("rerun", help="run each code cell twice in a row, then each worked solution, and list the "
                                            "cells whose output changes and the solutions that fail")
    rerun.add_argument("lessons", nargs="*", help="lesson prefixes (e.g. 06); all by default")
    args = parser.parse_args(argv)

    paths = lesson_paths()
    if args.lessons:
        paths = [p for p in paths if any(p.name.startswith(prefix) for prefix in args.lessons)]
    if args.command == "rerun":
        from lab.course.rerun import rerun_lesson

        reports = {path.stem: rerun_lesson(path) for path in paths}
        for name, report in reports.items():
            ran = f"{report.solutions_run} solutions"
            print(f"{name}: " + (f"every cell re-runs identically, {ran} pass their checkers" if report.ok else
                                 f"{len(report.changes)} cells change, {len(report.failures)} of {ran} fail"))
            for problem in [*report.changes, *report.failures]:
                print(textwrap.indent(str(problem), "  "))
        return 0 if all(report.ok for report in reports.values()) else 1
    results = run_all(paths)
    print_summary(results)
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
