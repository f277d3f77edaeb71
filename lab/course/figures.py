"""Charts as bytes that depend only on the data: saved to ``data/figures/`` and shown inline.

The PNG a lesson shows and the file it saves are the same bytes (Agg, fixed dpi, no software
or date metadata), so a re-run that draws the same chart changes neither the notebook nor the
file.
"""

from __future__ import annotations

import io

from matplotlib.figure import Figure

from lab.course.paths import figures_dir

__all__ = ["png_bytes", "save_figure", "describe_figure"]

DPI = 100


def png_bytes(fig: Figure) -> bytes:
    """The figure rendered as PNG, identical for identical data on a pinned matplotlib."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()


def save_figure(fig: Figure, name: str) -> Figure:
    """Write ``fig`` to ``data/figures/<name>`` and return it, so a cell can end with this call
    and show the chart it saved (as ``save_table`` does for tables)."""
    if not name.endswith(".png"):
        raise ValueError(f"figures are saved as .png, got {name!r}")
    (figures_dir() / name).write_bytes(png_bytes(fig))
    return fig


def describe_figure(fig: Figure) -> str:
    """A one-line text stand-in for the picture: its size and the titles of its panels."""
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    suptitle = fig.get_suptitle()
    named = "; ".join(([suptitle] if suptitle else []) + titles) or "untitled"
    width, height = (round(v * DPI) for v in fig.get_size_inches())
    return f"[chart {width}x{height}: {named}]"
