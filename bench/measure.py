"""Measuring a call: its wall time, its peak Python-visible memory, and one table row per result.

Time and memory are measured in separate runs, because tracing allocations slows down code that
allocates many small objects (tokenisers do) and would distort the time.
"""

from __future__ import annotations

import gc
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Row", "paired_seconds", "alternating_seconds", "peak_bytes", "format_table"]


@dataclass(frozen=True)
class Row:
    """One comparison: what was measured, at which size, for the lab and for the reference."""

    benchmark: str
    size: int
    unit: str  # "s", "MB" or "q/s"
    lab: float
    reference: float
    reference_name: str
    check: str = ""

    @property
    def ratio(self) -> float:
        """lab / reference: below 1 is better for time and memory, above 1 for queries per second."""
        return self.lab / self.reference if self.reference else float("nan")


def _seconds(call: Callable[[], Any]) -> float:
    gc.collect()
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def paired_seconds(lab: Callable[[], Any], reference: Callable[[], Any], repeat: int = 3) -> tuple[float, float]:
    """Best wall time of ``repeat`` runs of each call, in seconds, running them in turn.

    Alternating lab, reference, lab, ... spreads any slow spell of a shared machine over both.
    """
    lab_seconds, reference_seconds = alternating_seconds([lab, reference], repeat)
    return lab_seconds, reference_seconds


def alternating_seconds(calls: Sequence[Callable[[], Any]], repeat: int = 3) -> list[float]:
    """Best wall time of ``repeat`` runs of each call, in seconds, running the calls in turn (as
    :func:`paired_seconds`, for any number of contenders)."""
    times: list[list[float]] = [[] for _ in calls]
    for _ in range(repeat):
        for call, taken in zip(calls, times):
            taken.append(_seconds(call))
    return [min(taken) for taken in times]


def peak_bytes(call: Callable[[], Any]) -> int:
    """Peak memory allocated while ``call`` runs (numpy buffers included), above what was there before."""
    gc.collect()
    tracemalloc.start()
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        result = call()
        peak = tracemalloc.get_traced_memory()[1]
        del result
    finally:
        tracemalloc.stop()
    return peak - baseline


def _value(value: float, unit: str) -> str:
    if unit == "MB":
        return f"{value / 1e6:,.1f} MB"
    if unit == "q/s":
        return f"{value:,.0f} q/s"
    return f"{value:.3f} s"


def format_table(rows: Sequence[Row]) -> str:
    """A plain-text table, one line per row, with the lab/reference ratio."""
    header = ("benchmark", "size", "lab", "reference", "ratio lab/ref", "check")
    lines = [
        (row.benchmark, f"{row.size:,}", _value(row.lab, row.unit),
         f"{_value(row.reference, row.unit)} ({row.reference_name})", f"{row.ratio:.2f}", row.check)
        for row in rows
    ]
    widths = [max(len(cells[i]) for cells in [header, *lines]) for i in range(len(header))]
    rule = "  ".join("-" * width for width in widths)
    out = ["  ".join(cell.ljust(width) for cell, width in zip(header, widths)).rstrip(), rule]
    out += ["  ".join(cell.ljust(width) for cell, width in zip(cells, widths)).rstrip() for cells in lines]
    out.append("ratio below 1: the lab takes less time or memory; for q/s, above 1: the lab answers more queries per second")
    return "\n".join(out)
