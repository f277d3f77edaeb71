"""The answering lesson's charts: the tuning ladder rung by rung, and what an abstention threshold
trades away, threshold by threshold."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from lab.course.plots import COLORS

__all__ = ["ladder_chart", "threshold_tradeoff_chart"]

_LADDER_METRICS = (("recall@8", COLORS["blue"]), ("MRR", COLORS["orange"]), ("nDCG@10", COLORS["green"]))


def ladder_chart(table: pd.DataFrame, labels: Sequence[str], title: str = "") -> Figure:
    """One group of bars per rung (recall@8, MRR, nDCG@10), a rejected rung's bars pale and hatched.

    ``table`` has those three columns and ``kept`` (``"yes"``/``"no"`` or booleans), one row per
    rung, as :func:`lab.course.lesson10.ladder_table` returns it. Values are written upright above
    the bars, so that neighbouring labels never run into each other.
    """
    missing = {"kept", *(name for name, _ in _LADDER_METRICS)} - set(table.columns)
    if missing or len(labels) != len(table):
        raise ValueError(f"the table needs the columns {sorted(missing) or 'it has'} and one label per row "
                         f"({len(labels)} labels for {len(table)} rows); pass ladder_table(ladder)")
    kept = table["kept"].map(lambda value: value in (True, "yes")).to_numpy()
    fig = Figure(figsize=(12, 4.2))
    ax = fig.add_subplot()
    width = 0.8 / len(_LADDER_METRICS)
    x = np.arange(len(table))
    for i, (name, color) in enumerate(_LADDER_METRICS):
        values = table[name].to_numpy(dtype=float)
        bars = ax.bar(x + (i - 1) * width, values, width, color=color, label=name)
        for bar, is_kept in zip(bars, kept):
            if not is_kept:
                bar.set_alpha(0.35)
                bar.set_hatch("///")
        ax.bar_label(bars, labels=[f"{v:.3f}" for v in values], fontsize=7, padding=2, rotation=90)
    ticks = [label if is_kept else f"{label}\n(rejected)" for label, is_kept in zip(labels, kept)]
    ax.set_xticks(x, labels=ticks, fontsize=8)
    for tick, is_kept in zip(ax.get_xticklabels(), kept):
        tick.set_color("black" if is_kept else COLORS["grey"])
    ax.set_ylim(0, 1.12)
    ax.set_ylabel("mean over the labelled questions")
    ax.set_title(title or "The tuning ladder")
    handles, names = ax.get_legend_handles_labels()
    handles.append(Patch(facecolor="white", edgecolor=COLORS["grey"], hatch="///"))
    names.append("rejected rung: the next rung starts from the last kept one")
    ax.legend(handles, names, frameon=False, fontsize=8, ncols=4, loc="upper left")
    fig.tight_layout()
    return fig


def threshold_tradeoff_chart(tradeoff: pd.DataFrame, chosen: float, title: str = "") -> Figure:
    """Coverage, precision and unanswerable questions abstained on against the threshold, the
    chosen threshold marked with each curve's value there.

    ``tradeoff`` is what :func:`lab.answering.tradeoff_table` returns. The curves are steps: a
    share changes only at an observed confidence, and a row's value holds from the previous row's
    threshold up to its own (a question counts as answered when its confidence reaches the
    threshold). Give it every observed confidence among the thresholds to draw each step where
    it happens; ``chosen`` must be one of its thresholds.
    """
    missing = {"threshold", "coverage", "precision", "unanswerable abstained"} - set(tradeoff.columns)
    if missing:
        raise ValueError(f"the table lacks {sorted(missing)}; pass the result of tradeoff_table()")
    at_chosen = tradeoff[np.isclose(tradeoff["threshold"], chosen)]
    if at_chosen.empty:
        raise ValueError(f"the threshold {chosen} is not a row of the table: add it to the thresholds of "
                         "tradeoff_table() so the chart can mark the curves there")
    fig = Figure(figsize=(8, 4.4))
    ax = fig.add_subplot()
    series = (("precision", "precision: answers citing a gold section", COLORS["blue"], "-"),
              ("coverage", "coverage: answerable questions answered", COLORS["orange"], "-"),
              ("unanswerable abstained", "unanswerable questions abstained on", COLORS["green"], "--"))
    for column, label, color, style in series:
        ax.plot(tradeoff["threshold"], tradeoff[column], style, color=color, linewidth=2, label=label,
                drawstyle="steps-pre")
        value = float(at_chosen[column].iloc[0])
        ax.plot([chosen], [value], "o", color=color, markersize=5)
        ax.annotate(f"{value:.3f}", (chosen, value), xytext=(-6, 4), textcoords="offset points", ha="right",
                    fontsize=8, color=color, bbox={"boxstyle": "square,pad=0.1", "facecolor": "white",
                                                   "edgecolor": "none"})
    ax.axvline(chosen, color=COLORS["grey"], linestyle=":", linewidth=1.5)
    ax.annotate(f"calibrated: {chosen:.3f}", (chosen, 0.03), xytext=(4, 0), textcoords="offset points",
                fontsize=8, color=COLORS["grey"])
    ax.set_ylim(0, 1.05)
    ax.set_xlim(float(tradeoff["threshold"].min()), float(tradeoff["threshold"].max()))
    ax.set_xlabel("abstention threshold on the answer's confidence")
    ax.set_ylabel("share of questions")
    ax.set_title(title or "What the abstention threshold trades")
    ax.legend(frameon=False, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncols=2)
    fig.tight_layout()
    return fig
