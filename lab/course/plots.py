"""Every chart the lessons draw, as functions that take data and return a matplotlib Figure.

Figures are built with the object API (no pyplot state), so a lesson displays one by leaving
it as the last expression of a cell and saves it with :func:`lab.course.figures.save_figure`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.ticker import StrMethodFormatter

__all__ = ["requests_per_second_chart", "window_fill_chart", "size_histograms", "strategy_size_chart",
           "chunk_map_chart", "similarity_heatmap", "precision_at_k_chart", "method_comparison_chart",
           "context_growth_chart", "COLORS"]

COLORS = {"blue": "#4f81bd", "red": "#c0504d", "green": "#9bbb59", "yellow": "#f2c14e", "purple": "#8064a2",
          "grey": "#7f7f7f", "orange": "#f79646"}


def _finish(fig: Figure, ax, xlabel: str, ylabel: str, title: str, **legend: object) -> Figure:
    """How a one-panel chart ends: axis labels, title, a frameless legend, a tight layout."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(frameon=False, **legend)
    fig.tight_layout()
    return fig


def _shade_waits(ax, log: pd.DataFrame) -> None:
    waits = log[log["wait_s"] > 0]
    for t, wait in zip(waits["t"], waits["wait_s"]):
        ax.axvspan(t, t + wait, color=COLORS["yellow"], alpha=0.35, linewidth=0)


def requests_per_second_chart(log: pd.DataFrame, rate: float = 3.0, title: str = "") -> Figure:
    """Requests started in each simulated second, waits shaded, errors marked, the rate line.

    ``log`` is a client's request log (``client.log.frame()``).
    """
    fig = Figure(figsize=(9, 3.6))
    ax = fig.add_subplot()
    seconds = np.floor(log["t"].to_numpy()).astype(int)
    span = int(seconds.max()) + 1 if len(seconds) else 1
    counts = np.bincount(seconds, minlength=span)
    ax.bar(np.arange(span) + 0.5, counts, width=0.9, color=COLORS["blue"], label="requests started in the second")
    ax.axhline(rate, color=COLORS["red"], linestyle="--", label=f"average allowed: {rate:g} per second")
    _shade_waits(ax, log)
    errors = log[log["status"] != 200]
    top = max(counts.max(initial=0), rate) + 1.2
    ax.plot(errors["t"], np.full(len(errors), top - 0.4), "x", color=COLORS["red"], markersize=7,
            label="429 / 529 / 5xx (then wait, shaded)")
    ax.set_ylim(0, top + 0.8)
    ax.set_xlim(0, span)
    return _finish(fig, ax, "simulated seconds", "requests", title or "Requests per simulated second",
                   fontsize=8, loc="upper right", ncols=3)


def window_fill_chart(log: pd.DataFrame, budget: int = 180, window: float = 60.0, title: str = "") -> Figure:
    """Requests the server accepted so far in each window, against the window budget.

    Requests refused by the connection limit do not count against it, so they are left out;
    every wait the server asked for (``Retry-After``, backoff) is shaded, and the axis says so
    only when there was one.
    """
    fig = Figure(figsize=(9, 3.6))
    ax = fig.add_subplot()
    counted = log[log["reason"] != "connection"]
    fill = counted.groupby((counted["t"] // window).astype(int)).cumcount() + 1
    ax.plot(counted["t"], fill, ".", markersize=3, color=COLORS["blue"], label="accepted requests in the window")
    ax.axhline(budget, color=COLORS["red"], linestyle="--", label=f"budget: {budget} per {window:g}-s window")
    for edge in np.arange(window, log["t"].max() + window, window):
        ax.axvline(edge, color=COLORS["grey"], linewidth=0.6, alpha=0.6)
    _shade_waits(ax, log)
    ax.set_ylim(0, budget * 1.35)  # headroom keeps the legend off the budget line
    ax.set_xlim(0, max(float(log["t"].max()) * 1.02, 1.0))
    shaded = "; shaded: waiting as the server asked" if (log["wait_s"] > 0).any() else ""
    return _finish(fig, ax, f"simulated seconds (grey lines: window edges{shaded})",
                   "requests in the window", title or "How the window budget fills", fontsize=8, loc="upper left")


def size_histograms(page_tokens: Sequence[int], chunk_tokens: Sequence[int], limit: int = 300,
                    title: str = "") -> Figure:
    """Tokens per page (before) beside tokens per chunk (after), with the chunk limit marked, under
    ``title`` if one is given."""
    fig = Figure(figsize=(10, 3.8))
    left, right = fig.subplots(1, 2)
    left.hist(page_tokens, bins=12, color=COLORS["purple"], edgecolor="white")
    left.axvline(limit, color=COLORS["red"], linestyle="--", label=f"chunk limit L = {limit}")
    left.set_title(f"Before: {len(page_tokens)} whole pages")
    left.set_xlabel("tokens per page")
    left.set_ylabel("pages")
    left.legend(frameon=False, fontsize=8)
    right.hist(chunk_tokens, bins=np.arange(0, limit + 25, 25), color=COLORS["blue"], edgecolor="white")
    right.axvline(limit, color=COLORS["red"], linestyle="--")
    right.set_title(f"After: {len(chunk_tokens)} chunks")
    right.set_xlabel("tokens per chunk (body, without the header line)")
    right.set_ylabel("chunks")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def strategy_size_chart(sizes: dict[str, Sequence[int]], unit: str = "lab tokens") -> Figure:
    """Chunk-size distributions of several strategies, side by side on one scale."""
    fig = Figure(figsize=(10, 3.6))
    axes = fig.subplots(1, len(sizes), sharey=True, squeeze=False)[0]
    top = max(max(v) for v in sizes.values())
    bins = np.linspace(0, top * 1.02, 16)
    palette = [COLORS["blue"], COLORS["green"], COLORS["orange"], COLORS["purple"]]
    for ax, (name, values), color in zip(axes, sizes.items(), palette):
        ax.hist(values, bins=bins, color=color, edgecolor="white")
        ax.axvline(float(np.mean(values)), color=COLORS["red"], linestyle="--", linewidth=1,
                   label=f"mean {np.mean(values):.0f}")
        ax.set_title(f"{name}: {len(values)} chunks", fontsize=10)
        ax.set_xlabel(f"{unit} per chunk")
        ax.legend(frameon=False, fontsize=8)
    axes[0].set_ylabel("chunks")
    fig.tight_layout()
    return fig


def chunk_map_chart(coords: np.ndarray, labels: Sequence[str], names: dict[str, str], query_xy: np.ndarray | None = None,
                    query_label: str = "", title: str = "", variance: Sequence[float] | None = None) -> Figure:
    """Chunks on the 2-D SVD map, one colour per page type, with the question as a star.

    ``variance`` is each component's share of the variance (``explained_variance_ratio_``), written
    on its axis; the coordinates are the chunks' projections on the components, in the units of
    the vectors projected (a unit-length vector projects within [-1, 1])."""
    fig = Figure(figsize=(8, 5.6))
    ax = fig.add_subplot()
    labels = np.asarray(labels)
    palette = [COLORS["blue"], COLORS["red"], COLORS["green"], COLORS["yellow"], COLORS["purple"], COLORS["orange"]]
    for (key, name), color in zip(names.items(), palette):
        mask = labels == key
        ax.scatter(coords[mask, 0], coords[mask, 1], s=22, color=color, alpha=0.8, label=f"{name} ({mask.sum()})")
    if query_xy is not None:
        ax.scatter([query_xy[0]], [query_xy[1]], marker="*", s=280, color="black", label=query_label)
    axes = [f"component {i}" + (f" ({100 * share:.1f} % of the variance)" if variance is not None else "")
            for i, share in enumerate(variance if variance is not None else (0, 0), start=1)]
    return _finish(fig, ax, axes[0], axes[1], title or "Chunks on the map: TF-IDF projected with SVD",
                   fontsize=8)


def similarity_heatmap(matrix: np.ndarray, row_labels: Sequence[str], column_labels: Sequence[str],
                       relevant: Iterable[tuple[int, int]] = (), title: str = "",
                       value_label: str = "cosine similarity") -> Figure:
    """A query x document matrix as colours, each relevant ``(row, column)`` cell outlined.

    Reading along a row shows what a query is close to; an outlined cell that stays pale is a
    relevant document the query cannot reach. Labels must be in a script the bundled font draws
    (no CJK): a missing glyph prints a warning.
    """
    matrix = np.asarray(matrix, dtype=float)
    if matrix.ndim != 2 or matrix.shape != (len(row_labels), len(column_labels)):
        raise ValueError(f"the matrix has shape {matrix.shape}; with {len(row_labels)} row labels and "
                         f"{len(column_labels)} column labels it must be ({len(row_labels)}, {len(column_labels)})")
    cells = sorted(set(relevant))
    outside = [cell for cell in cells if not (0 <= cell[0] < matrix.shape[0] and 0 <= cell[1] < matrix.shape[1])]
    if outside:
        raise ValueError(f"relevant cells {outside} lie outside the {matrix.shape[0]} x {matrix.shape[1]} matrix")
    fig = Figure(figsize=(1.6 + 0.62 * matrix.shape[1], 1.4 + 0.5 * matrix.shape[0]))
    ax = fig.add_subplot()
    image = ax.imshow(matrix, cmap="Blues", vmin=0.0, vmax=max(float(matrix.max(initial=0.0)), 1e-9), aspect="auto")
    for row, column in cells:
        ax.add_patch(Rectangle((column - 0.5, row - 0.5), 1, 1, fill=False, edgecolor=COLORS["orange"], linewidth=2.2))
    ax.set_xticks(np.arange(len(column_labels)), labels=list(column_labels), rotation=0)
    ax.set_yticks(np.arange(len(row_labels)), labels=list(row_labels))
    ax.set_xlabel("document (orange outline: judged relevant)")
    ax.set_ylabel("query")
    ax.set_title(title or "Queries against documents")
    fig.colorbar(image, ax=ax, label=value_label, shrink=0.85)
    fig.tight_layout()
    return fig


def precision_at_k_chart(ks: Sequence[int], precision: Sequence[float], ideal: Sequence[float],
                         title: str = "") -> Figure:
    """Mean precision@k against its ideal ceiling (a perfect ranking), k on the x axis.

    The gap between the two lines is what the ranking leaves on the table; the fall of the
    ceiling itself is not a fault of the ranking, only of having few relevant documents.
    """
    if not len(ks) == len(precision) == len(ideal):
        raise ValueError(f"ks, precision and ideal need the same length, got {len(ks)}, {len(precision)}, {len(ideal)}")
    fig = Figure(figsize=(7, 3.8))
    ax = fig.add_subplot()
    ax.plot(ks, ideal, "s--", color=COLORS["grey"], label="ideal ceiling: min(k, |R|) / k")
    ax.plot(ks, precision, "o-", color=COLORS["blue"], label="measured precision@k")
    ax.fill_between(ks, precision, ideal, color=COLORS["blue"], alpha=0.12, linewidth=0)
    ax.set_xticks(list(ks))
    ax.set_ylim(0, 1.05)
    return _finish(fig, ax, "k (results kept)", "mean precision@k", title or "Precision@k against its ceiling",
                   fontsize=9)


def method_comparison_chart(table: pd.DataFrame, method: str = "method", title: str = "",
                            width: float = 9.0) -> Figure:
    """One group of bars per retrieval method, one bar per metric column (every column but ``method``),
    on a figure ``width`` inches wide (wider for many methods, so their labels stay apart)."""
    if method not in table.columns:
        raise ValueError(f"the table has no {method!r} column; its columns are {list(table.columns)}")
    metrics = [c for c in table.columns if c != method]
    if not metrics or table.empty:
        raise ValueError("the table needs at least one method row and one metric column")
    fig = Figure(figsize=(width, 3.8))
    ax = fig.add_subplot()
    palette = [COLORS["blue"], COLORS["orange"], COLORS["green"], COLORS["purple"], COLORS["red"]]
    width = 0.8 / len(metrics)
    x = np.arange(len(table))
    for i, (name, color) in enumerate(zip(metrics, palette)):
        values = table[name].to_numpy(dtype=float)
        bars = ax.bar(x + (i - (len(metrics) - 1) / 2) * width, values, width, color=color, label=name)
        ax.bar_label(bars, labels=[f"{v:.3f}" for v in values], fontsize=7, padding=1)
    ax.set_xticks(x, labels=table[method].tolist())
    ax.set_ylim(0, 1.08)
    ax.set_ylabel("mean over the labelled questions")
    ax.set_title(title or "Retrieval methods compared")
    ax.legend(frameon=False, fontsize=8, ncols=len(metrics), loc="upper left")
    fig.tight_layout()
    return fig


_SERIES = (
    ("history", "Full history", "#2a78d6", "-"),
    ("summary", "Rolling summary", "#eb6834", "-"),
    ("retrieval", "Retrieval", "#1baf7a", "--"),
)


def context_growth_chart(table: pd.DataFrame) -> Figure:
    """Input tokens per turn for the three strategies, each line labelled with its last value.

    ``table`` is what :func:`lab.memory.context_table` returns (columns turn, history, summary,
    retrieval). Built on a bare ``Figure``, so nothing is left open in pyplot's global state.
    """
    missing = [column for column in ("turn", "history", "summary", "retrieval") if column not in table.columns]
    if missing:
        raise ValueError(f"the table lacks column(s) {', '.join(missing)}; pass the result of context_table()")
    if table.empty:
        raise ValueError("the table has no turns; pass context_table(T) with T >= 1")

    fig = Figure(figsize=(6.4, 4.8))
    ax = fig.subplots()
    last = table.iloc[-1]
    for column, label, colour, style in _SERIES:
        ax.plot(table["turn"], table[column], color=colour, linestyle=style, linewidth=2, label=label)
        ax.annotate(f"{int(last[column]):,}", (last["turn"], last[column]), xytext=(6, 0),
                    textcoords="offset points", ha="left", va="center", fontsize=9, color=colour)
    ax.set_xlabel("Turn of the conversation")
    ax.set_ylabel("Input tokens sent in the turn")
    ax.set_title("How much context each turn sends")
    ax.set_xlim(table["turn"].iloc[0] - 0.5, table["turn"].iloc[-1] * 1.12 + 0.5)  # room for the end labels
    ax.set_ylim(bottom=0)
    ax.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    ax.legend(frameon=False, loc="upper left")
    ax.grid(alpha=0.3)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig
