"""Saving charts so that the same data always gives the same bytes."""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure

from lab.paths import figures_dir

__all__ = ["save_figure"]


def save_figure(fig: Figure, name: str) -> Path:
    """Write ``fig`` to ``data/figures/<name>`` (PNG) with no software or date metadata."""
    if not name.endswith(".png"):
        raise ValueError(f"figures are saved as .png, got {name!r}")
    path = figures_dir() / name
    fig.savefig(path, format="png", dpi=100, metadata={"Software": None})
    return path
