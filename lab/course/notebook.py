"""One call at the top of every lesson: stable display settings, charts shown as pictures, and
every table and chart a cell shows saved for the drift check, outside the cells."""

from __future__ import annotations

import ast
from typing import Any

import matplotlib
import pandas as pd
from matplotlib.figure import Figure

from lab.course.figures import describe_figure, png_bytes, save_figure
from lab.course.tables import save_table

__all__ = ["setup", "saved_name", "MAX_ROWS"]

#: Rows a table shows before pandas cuts it to its first and last rows with a note of its size
#: (the saved CSV keeps every row).
MAX_ROWS = 40

_hooks: list = []  # the save hook of the last setup(), so that running setup again replaces it


def setup(lesson: str | None = None) -> None:
    """Fix what would otherwise vary between machines or runs in a lesson's printed output, and,
    given the lesson's number (``"02"``), save what its cells show.

    pandas prints wide tables on one line and cuts tables longer than :data:`MAX_ROWS` rows;
    matplotlib draws with its bundled font at a fixed size and resolution. In a notebook, a cell
    that ends with a chart shows it as a PNG (the same bytes
    :func:`lab.course.figures.save_figure` writes) with a one-line text description for readers
    that cannot show images. A cell that ends with a name (``ladder``) whose value is a table or
    a chart saves it as ``data/tables/02_ladder.csv`` or ``data/figures/02_ladder.png``, so that
    the cell ends with the object it shows and the drift check still sees every table.
    """
    pd.set_option("display.width", 120)
    pd.set_option("display.max_columns", 30)
    pd.set_option("display.max_colwidth", 80)
    pd.set_option("display.max_rows", MAX_ROWS)
    pd.set_option("display.min_rows", 20)
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
    if lesson is not None:
        _save_what_cells_show(lesson)


def _shell() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:  # plain Python: nothing to display into
        return None
    return get_ipython()


def _show_charts_as_pictures() -> None:
    """Register display formatters for Figure in the running IPython kernel (if any)."""
    shell = _shell()
    if shell is None:
        return
    formatters = shell.display_formatter.formatters
    formatters["image/png"].for_type(Figure, png_bytes)
    formatters["text/plain"].for_type(Figure, lambda fig, printer, cycle: printer.text(describe_figure(fig)))


def saved_name(source: str) -> str | None:
    """The name a cell ends with (its last statement is a bare name), or None.

    >>> saved_name("ladder = climb(...)\\nladder")
    'ladder'
    """
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return None
    if body and isinstance(body[-1], ast.Expr) and isinstance(body[-1].value, ast.Name):
        return body[-1].value.id
    return None


def save_shown(value: Any, name: str, lesson: str) -> None:
    """Save a table as ``<lesson>_<name>.csv`` (its index only when it labels the rows: it has a
    name, or holds something other than row numbers), a chart, or the default picture of a chart
    with controls, as ``<lesson>_<name>.png``."""
    from lab.course.controls import ChartControl  # imports ipywidgets, which only controls need

    if isinstance(value, pd.DataFrame):
        labelled = any(name is not None for name in value.index.names) or not pd.api.types.is_integer_dtype(value.index)
        save_table(value, f"{lesson}_{name}.csv", index=labelled)
    elif isinstance(value, Figure):
        save_figure(value, f"{lesson}_{name}.png")
    elif isinstance(value, ChartControl):
        save_figure(value.default_figure, f"{lesson}_{name}.png")


def _save_what_cells_show(lesson: str) -> None:
    """After each cell that runs without error, save the table or chart it ends with by name."""
    shell = _shell()
    if shell is None:
        return

    def after_cell(result: Any) -> None:
        if result.error_before_exec or result.error_in_exec or result.result is None:
            return
        name = saved_name(shell.transform_cell(result.info.raw_cell))
        if name is not None:
            save_shown(result.result, name, lesson)

    while _hooks:
        shell.events.unregister("post_run_cell", _hooks.pop())
    shell.events.register("post_run_cell", after_cell)
    _hooks.append(after_cell)
