"""The charts of lessons 10 and 11: what each rung of the tuning ladder gains, with its interval, and
what an abstention threshold trades away, threshold by threshold."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from lab.course.plots import COLORS

__all__ = ["ladder_gains_chart", "threshold_tradeoff_chart"]

_LADDER_METRICS = (("recall@8", COLORS["blue"]), ("MRR", COLORS["orange"]), ("nDCG@10", COLORS["green"]))


def ladder_gains_chart(table: pd.DataFrame, labels: Sequence[str], title: str = "") -> Figure:
    """Each rung's gain over the recipe kept so far, with its 95% interval, around a line at zero.

    ``table`` is :attr:`lab.retrieval.Ladder.table` (one row per rung, ``start`` first, with the
    columns ``gain <metric>``, ``low <metric>`` and ``high <metric>`` for recall@8, MRR and nDCG@10,
    and ``kept``);
    ``labels`` names each rung, ``start`` first. A rung whose interval crosses zero is one the
    questions cannot tell from the recipe before it; a rejected rung is drawn hollow and pale, since
    the next rung starts from the last kept one, not from it. A rung skipped for want of an API key
    (``skipped`` names the key) has no point, only its label.
    """
    missing = {"kept", *(f"gain {name}" for name, _ in _LADDER_METRICS)} - set(table.columns)
    if missing or len(labels) != len(table):
        raise ValueError(f"the table needs the columns {sorted(missing) or 'it has'} and one label per row "
                         f"({len(labels)} labels for {len(table)} rows); pass climb(...).table")
    rungs = table.iloc[1:]  # the start has no gain
    kept = rungs["kept"].map(lambda value: value in (True, "yes")).to_numpy()
    skipped = (rungs["skipped"].fillna("").astype(str).str.len() > 0).to_numpy() if "skipped" in rungs else kept & False
    fig = Figure(figsize=(max(12.0, 0.8 * len(rungs)), 4.8))
    ax = fig.add_subplot()
    x = np.arange(len(rungs))
    ax.axhline(0, color=COLORS["grey"], linewidth=1)
    for i, (name, color) in enumerate(_LADDER_METRICS):
        gain = rungs[f"gain {name}"].to_numpy(dtype=float)
        low, high = rungs[f"low {name}"].to_numpy(dtype=float), rungs[f"high {name}"].to_numpy(dtype=float)
        at = x + (i - 1) * 0.22
        for keep in (True, False):
            chosen = kept == keep
            ax.errorbar(at[chosen], gain[chosen], yerr=[gain[chosen] - low[chosen], high[chosen] - gain[chosen]],
                        fmt="o", color=color, ecolor=color, elinewidth=1.6, capsize=3, markersize=5,
                        markerfacecolor=color if keep else "white", alpha=1.0 if keep else 0.45,
                        label=name if keep else None)
    ticks = [label if keep else f"{label}\n({'no key' if skip else 'rejected'})"
             for label, keep, skip in zip(labels[1:], kept, skipped)]
    ax.set_xticks(x, labels=[_tick_label(tick) for tick in ticks], fontsize=8)
    for tick, keep in zip(ax.get_xticklabels(), kept):
        tick.set_color("black" if keep else COLORS["grey"])
    ax.set_xlim(-0.6, len(rungs) - 0.4)
    ax.set_xlabel("rung (each applied to the recipe kept so far)")
    ax.set_ylabel("gain in the measure (mean over questions)\nwith its 95% bootstrap interval")
    ax.set_title(title or "The tuning ladder: what each rung gains")
    handles, names = ax.get_legend_handles_labels()
    handles.append(Line2D([], [], marker="o", linestyle="", color=COLORS["grey"], markerfacecolor="white"))
    names.append("hollow: rejected rung")
    ax.legend(handles, names, frameon=False, fontsize=8, ncols=4, loc="upper right")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def _tick_label(label: str) -> str:
    """A rung's label on narrow lines: its number, then its name wrapped at about ten characters."""
    number, _, rest = label.partition(" ")
    name, _, note = rest.partition("\n")
    return "\n".join([number, *textwrap.wrap(name, 10), *([note] if note else [])])


def threshold_tradeoff_chart(tradeoff: pd.DataFrame, chosen: float, title: str = "",
                             chosen_label: str = "calibrated") -> Figure:
    """Coverage, precision and unanswerable questions abstained on against the threshold, the
    chosen threshold marked with each curve's value there.

    ``tradeoff`` is what :func:`lab.answering.tradeoff_table` returns. The curves are steps: a
    share changes only at an observed confidence, and a row's value holds from the previous row's
    threshold up to its own (a question counts as answered when its confidence reaches the
    threshold). Give it every observed confidence among the thresholds to draw each step where
    it happens; ``chosen`` must be one of its thresholds, and ``chosen_label`` says what it is.
    Precision is a share of the answers given, the other two of the questions they name.
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
    series = (("precision", "precision: share of the answers given that cite a gold section", COLORS["blue"], "-"),
              ("coverage", "coverage: share of the answerable questions answered", COLORS["orange"], "-"),
              ("unanswerable abstained", "share of the unanswerable questions abstained on", COLORS["green"],
               "--"))
    for column, label, color, style in series:
        ax.plot(tradeoff["threshold"], tradeoff[column], style, color=color, linewidth=2, label=label,
                drawstyle="steps-pre")
        value = float(at_chosen[column].iloc[0])
        ax.plot([chosen], [value], "o", color=color, markersize=5)
        ax.annotate(f"{value:.3f}", (chosen, value), xytext=(-6, 4), textcoords="offset points", ha="right",
                    fontsize=8, color=color, bbox={"boxstyle": "square,pad=0.1", "facecolor": "white",
                                                   "edgecolor": "none"})
    ax.axvline(chosen, color=COLORS["grey"], linestyle=":", linewidth=1.5)
    ax.annotate(f"{chosen_label}: {chosen:.3f}", (chosen, 0.03), xytext=(4, 0), textcoords="offset points",
                fontsize=8, color=COLORS["grey"])
    ax.set_ylim(0, 1.05)
    ax.set_xlim(float(tradeoff["threshold"].min()), float(tradeoff["threshold"].max()))
    ax.set_xlabel("abstention threshold on the answer's confidence")
    ax.set_ylabel("share, from 0 to 1 (each curve says of what)")
    ax.set_title(title or "What the abstention threshold trades")
    ax.legend(frameon=False, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncols=2)
    fig.tight_layout()
    return fig
