"""The context-growth chart of the memory lesson: a rising line, a saw-tooth and a flat line."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import StrMethodFormatter

__all__ = ["context_growth_chart"]

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
