"""The answering lesson's chart: what an abstention threshold trades away, threshold by threshold."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from lab.course.plots import COLORS

__all__ = ["threshold_tradeoff_chart"]


def threshold_tradeoff_chart(tradeoff: pd.DataFrame, chosen: float, title: str = "") -> Figure:
    """Coverage, precision and unanswerable questions abstained on against the threshold, the
    chosen threshold marked. ``tradeoff`` is what :func:`lab.answering.tradeoff_table` returns."""
    missing = {"threshold", "coverage", "precision", "unanswerable abstained"} - set(tradeoff.columns)
    if missing:
        raise ValueError(f"the table lacks {sorted(missing)}; pass the result of tradeoff_table()")
    fig = Figure(figsize=(8, 3.8))
    ax = fig.add_subplot()
    series = (("precision", "precision: answers citing a gold section", COLORS["blue"], "-"),
              ("coverage", "coverage: answerable questions answered", COLORS["orange"], "-"),
              ("unanswerable abstained", "unanswerable questions abstained on", COLORS["green"], "--"))
    for column, label, color, style in series:
        ax.plot(tradeoff["threshold"], tradeoff[column], style, color=color, linewidth=2, label=label)
    ax.axvline(chosen, color=COLORS["grey"], linestyle=":", linewidth=1.5)
    ax.annotate(f"calibrated: {chosen:.2f}", (chosen, 0.03), xytext=(4, 0), textcoords="offset points",
                fontsize=8, color=COLORS["grey"])
    ax.set_ylim(0, 1.05)
    ax.set_xlim(float(tradeoff["threshold"].min()), float(tradeoff["threshold"].max()))
    ax.set_xlabel("abstention threshold on the answer's confidence")
    ax.set_ylabel("share of questions")
    ax.set_title(title or "What the abstention threshold trades")
    ax.legend(frameon=False, fontsize=8, loc="lower left")
    fig.tight_layout()
    return fig
