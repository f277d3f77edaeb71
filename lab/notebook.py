"""One call at the top of every lesson: stable display settings, figures without timestamps."""

from __future__ import annotations

import matplotlib
import pandas as pd

__all__ = ["setup"]


def setup() -> None:
    """Fix what would otherwise vary between machines or runs in a lesson's printed output.

    pandas prints wide tables on one line; matplotlib draws with its bundled font at a fixed
    size and resolution, and saves PNG files without the software/date metadata that would make
    every run differ.
    """
    pd.set_option("display.width", 120)
    pd.set_option("display.max_columns", 30)
    pd.set_option("display.max_colwidth", 80)
    matplotlib.rcParams.update({
        "figure.dpi": 100,
        "savefig.dpi": 100,
        "font.family": "DejaVu Sans",
        "font.size": 10,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "svg.hashsalt": "lab",
        "path.simplify": True,
    })
