"""Lesson 01's seed and the figures its run summary reports."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["SEED", "key_figures"]

SEED = 1  # seeds latency draws and request ids


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    pages = pd.read_csv(tables / "01_pages_by_status.csv")
    blocks = pd.read_csv(tables / "01_blocks_by_type.csv")
    counts = dict(zip(pages["status"], pages["pages"]))
    return (f"{int(pages['pages'].sum())} pages ({counts.get('publishable', 0)} publishable, "
            f"{counts.get('draft', 0)} drafts, {counts.get('private', 0)} private), "
            f"{int(blocks['blocks'].sum())} blocks")
