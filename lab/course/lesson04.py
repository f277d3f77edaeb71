"""The figures lesson 04's run summary reports.

The lesson draws nothing at random, so it has no seed.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["key_figures"]


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    summary = pd.read_csv(tables / "04_strategy_summary.csv").set_index("strategy")
    return "; ".join(f"{name} {int(row['chunks'])} chunks (+{row['overlap_cost_pct']} %)"
                     for name, row in summary.iterrows())
