"""Lesson 03's seed and the figures its run summary reports."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["SEED", "key_figures"]

SEED = 3  # seeds the read's latency draws and injected faults (the pages read do not depend on it)


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    totals = dict(pd.read_csv(tables / "03_chunk_totals.csv").values)
    return (f"{int(totals['chunks'])} chunks from {int(totals['sections with text'])} sections, mean {totals['mean tokens per chunk']} "
            f"tokens, overlap +{totals['overlap overhead %']} %")
