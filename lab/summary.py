"""Key figures per lesson, read back from the tables the lesson wrote.

The run summary quotes these so a maintainer sees at a glance what a change moved.
Each entry reads only committed-style CSVs under ``data/tables/``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

__all__ = ["key_figures", "FIGURES"]


def _lesson01(tables: Path) -> str:
    pages = pd.read_csv(tables / "01_pages_by_status.csv")
    blocks = pd.read_csv(tables / "01_blocks_by_type.csv")
    counts = dict(zip(pages["status"], pages["pages"]))
    return (f"{int(pages['pages'].sum())} pages ({counts.get('publishable', 0)} publishable, "
            f"{counts.get('draft', 0)} drafts, {counts.get('private', 0)} private), "
            f"{int(blocks['blocks'].sum())} blocks")


FIGURES: dict[str, Callable[[Path], str]] = {
    "01": _lesson01,
}


def key_figures(lesson: str, tables: Path) -> str:
    """A one-line summary of a lesson's results, or why it cannot be read."""
    reader = FIGURES.get(lesson[:2])
    if reader is None:
        return ""
    try:
        return reader(tables)
    except (OSError, KeyError, ValueError) as exc:
        return f"(tables unreadable: {exc})"
