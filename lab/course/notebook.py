"""One call at the top of every lesson: stable display settings, charts shown as pictures."""

from __future__ import annotations

import matplotlib
import pandas as pd
from matplotlib.figure import Figure

from lab.course.figures import describe_figure, png_bytes

__all__ = ["setup"]


def setup() -> None:
    """Fix what would otherwise vary between machines or runs in a lesson's printed output.

    pandas prints wide tables on one line; matplotlib draws with its bundled font at a fixed
    size and resolution. In a notebook, a cell that ends with a chart shows it as a PNG (the
    same bytes :func:`lab.course.figures.save_figure` writes) with a one-line text description for
    readers that cannot show images.
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
    _show_charts_as_pictures()


def _show_charts_as_pictures() -> None:
    """Register display formatters for Figure in the running IPython kernel (if any)."""
    try:
        from IPython import get_ipython
    except ImportError:  # plain Python: nothing to display into
        return
    shell = get_ipython()
    if shell is None:
        return
    formatters = shell.display_formatter.formatters
    formatters["image/png"].for_type(Figure, png_bytes)
    formatters["text/plain"].for_type(Figure, lambda fig, printer, cycle: printer.text(describe_figure(fig)))
