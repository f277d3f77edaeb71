"""Run every code cell of a lesson twice in a row, in one kernel, then every worked solution.

A learner goes back: re-runs a cell, re-runs from the top, runs everything twice. Each code cell
must give the same outputs the second time (or one clear line saying which earlier cell to
run). Then, in the same kernel, each exercise's folded solution (:mod:`lab.course.solutions`),
which running the notebook never executes, is run against its checker. ``python -m
lab.course.pipeline rerun 06`` prints the cells that change and the solutions that fail.
"""

from __future__ import annotations

import copy
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import nbformat

from lab.course.paths import NOTEBOOKS_DIR, OUTPUT_ENV
from lab.course.solutions import solutions

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"  # a live control's random model id

__all__ = ["CellChange", "SolutionFailure", "RerunReport", "rerun_lesson", "comparable_outputs", "outputs_summary"]


@dataclass(frozen=True)
class CellChange:
    """A code cell whose second run differed from its first."""

    index: int
    first_line: str
    first: str
    second: str

    def __str__(self) -> str:
        return (f"cell {self.index} ({self.first_line!r}):\n  first run:  {self.first[:300]!r}\n"
                f"  second run: {self.second[:300]!r}")


@dataclass(frozen=True)
class SolutionFailure:
    """A worked solution that raised: it no longer gives its checker's values, or no longer runs."""

    number: int
    error: str

    def __str__(self) -> str:
        return f"solution {self.number}: {self.error}"


@dataclass(frozen=True)
class RerunReport:
    """The cells that changed when run again, the solutions that failed, and how many ran."""

    changes: list[CellChange]
    failures: list[SolutionFailure]
    solutions_run: int

    @property
    def ok(self) -> bool:
        return not self.changes and not self.failures


def comparable_outputs(outputs: list) -> list:
    """Outputs without execution counts or live controls' model ids, with streams merged and
    tracebacks reduced to their error."""
    kept: list = []
    for output in copy.deepcopy(outputs):
        output.pop("execution_count", None)
        output.get("data", {}).pop(WIDGET_VIEW, None)
        if output.get("output_type") == "error":
            output = {"output_type": "error", "ename": output.get("ename"), "evalue": output.get("evalue")}
        if (output.get("output_type") == "stream" and kept and kept[-1].get("output_type") == "stream"
                and kept[-1].get("name") == output.get("name")):
            kept[-1]["text"] += output["text"]
        else:
            kept.append(output)
    return kept


def outputs_summary(outputs: list) -> str:
    """The outputs in one line each, as a report of a cell that changed shows them."""
    parts = []
    for output in outputs:
        if output["output_type"] == "stream":
            parts.append(output["text"])
        elif output["output_type"] == "error":
            parts.append(f"{output['ename']}: {output['evalue']}")
        else:
            data = output.get("data", {})
            parts.append(str(data.get("text/plain", sorted(data))))
    return " | ".join(parts)


def rerun_lesson(path: Path, cwd: Path = NOTEBOOKS_DIR, timeout: int = 600) -> RerunReport:
    """Execute ``path`` top to bottom in a fresh kernel, each code cell twice in a row, then each
    worked solution once; report the cells whose two runs gave different outputs (an error in
    either run counts as different) and the solutions that raised. What the lesson writes goes to a
    temporary folder, never to ``data/``."""
    from nbclient import NotebookClient  # slow to import; only this function needs it
    from nbformat.v4 import new_code_cell

    from lab.course.pipeline import QuietKernelManager

    nb = nbformat.read(path, as_version=4)
    worked = solutions(nb.cells)
    client = NotebookClient(nb, kernel_name="python3", timeout=timeout, allow_errors=True,
                            kernel_manager_class=QuietKernelManager, resources={"metadata": {"path": str(cwd)}})
    changes, failures = [], []
    # the kernel writes its tables, figures and samples to a scratch folder, not to data/
    with tempfile.TemporaryDirectory(prefix="lab-rerun-") as scratch, \
            client.setup_kernel(env=os.environ | {OUTPUT_ENV: scratch}):
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            client.execute_cell(cell, index)
            first = comparable_outputs(cell.outputs)
            client.execute_cell(cell, index)
            second = comparable_outputs(cell.outputs)
            failed = any(o.get("output_type") == "error" for o in first + second)
            if failed or first != second:
                line = cell.source.strip().splitlines()[0] if cell.source.strip() else ""
                changes.append(CellChange(index, line, outputs_summary(first), outputs_summary(second)))
        for number, code in sorted(worked.items()):
            cell = new_code_cell(code)
            nb.cells.append(cell)  # run after the lesson's cells, as a learner who copied it would
            client.execute_cell(cell, len(nb.cells) - 1)
            errors = [o for o in cell.outputs if o.get("output_type") == "error"]
            if errors:
                failures.append(SolutionFailure(number, f"{errors[0]['ename']}: {errors[0]['evalue']}"))
    return RerunReport(changes, failures, len(worked))
