"""The run summary's key figures: each lesson's module reads them back from the tables it wrote.

The figures a maintainer checks after a run live beside the lesson's other code
(``lab.course.lessonNN.key_figures``), so the names of the rows and columns they read are
defined in one place with the lesson, not guessed here.
"""

from __future__ import annotations

import importlib
from pathlib import Path

__all__ = ["key_figures"]


def key_figures(lesson: str, tables: Path) -> str:
    """A one-line summary of lesson ``lesson`` ("02_...") from ``tables``, or why it cannot be read."""
    try:
        module = importlib.import_module(f"lab.course.lesson{lesson[:2]}")
    except ModuleNotFoundError:
        return ""
    reader = getattr(module, "key_figures", None)
    if reader is None:
        return ""
    try:
        return reader(tables)
    except (OSError, KeyError, ValueError, IndexError) as exc:
        return f"(tables unreadable: {exc})"
