"""Run every code cell of a lesson twice in a row, in one kernel, and report what changed.

A learner goes back: re-runs a cell, re-runs from the top, runs everything twice. Each code cell
must give the same outputs the second time (or one clear line saying which earlier cell to
run). ``python -m lab.course.pipeline rerun 06`` prints the cells that do not.
"""

from __future__ import annotations

import copy
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import nbformat

from lab.course.paths import NOTEBOOKS_DIR, OUTPUT_ENV

__all__ = ["CellChange", "rerun_each_cell"]


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


def _comparable(outputs: list) -> list:
    """Outputs without execution counts, with streams merged and tracebacks reduced to their error."""
    kept: list = []
    for output in copy.deepcopy(outputs):
        output.pop("execution_count", None)
        if output.get("output_type") == "error":
            output = {"output_type": "error", "ename": output.get("ename"), "evalue": output.get("evalue")}
        if (output.get("output_type") == "stream" and kept and kept[-1].get("output_type") == "stream"
                and kept[-1].get("name") == output.get("name")):
            kept[-1]["text"] += output["text"]
        else:
            kept.append(output)
    return kept


def _summary(outputs: list) -> str:
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


def rerun_each_cell(path: Path, cwd: Path = NOTEBOOKS_DIR, timeout: int = 600) -> list[CellChange]:
    """Execute ``path`` top to bottom in a fresh kernel, each code cell twice in a row; return the
    cells whose two runs gave different outputs (an error in either run counts as different).
    What the lesson writes goes to a temporary folder, never to ``data/``."""
    from nbclient import NotebookClient  # slow to import; only this function needs it

    from lab.course.pipeline import QuietKernelManager

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, kernel_name="python3", timeout=timeout, allow_errors=True,
                            kernel_manager_class=QuietKernelManager, resources={"metadata": {"path": str(cwd)}})
    changes = []
    # the kernel writes its tables, figures and samples to a scratch folder, not to data/
    with tempfile.TemporaryDirectory(prefix="lab-rerun-") as scratch, \
            client.setup_kernel(env=os.environ | {OUTPUT_ENV: scratch}):
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            client.execute_cell(cell, index)
            first = _comparable(cell.outputs)
            client.execute_cell(cell, index)
            second = _comparable(cell.outputs)
            failed = any(o.get("output_type") == "error" for o in first + second)
            if failed or first != second:
                line = cell.source.strip().splitlines()[0] if cell.source.strip() else ""
                changes.append(CellChange(index, line, _summary(first), _summary(second)))
    return changes
