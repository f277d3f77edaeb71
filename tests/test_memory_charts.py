"""The context-growth chart: three lines from the table, end labels, axis labels, no global state."""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
import pytest
from matplotlib.figure import Figure

from lab.course.plots import context_growth_chart
from lab.memory import ContextParams, context_table


def test_chart_draws_history_summary_and_retrieval_from_the_table() -> None:
    table = context_table(30)
    fig = context_growth_chart(table)
    assert isinstance(fig, Figure)
    [ax] = fig.axes
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert list(lines) == ["Full history", "Rolling summary", "Retrieval"]
    for label, column in [("Full history", "history"), ("Rolling summary", "summary"), ("Retrieval", "retrieval")]:
        assert list(lines[label].get_xdata()) == table["turn"].tolist()
        assert list(lines[label].get_ydata()) == table[column].tolist()
    assert lines["Retrieval"].get_linestyle() == "--"


def test_each_line_carries_its_last_value_next_to_its_end() -> None:
    fig = context_growth_chart(context_table(30))
    [ax] = fig.axes
    labels = {text.get_text(): text.xy for text in ax.texts}
    assert labels == {"11,950": (30, 11_950), "2,750": (30, 2_750), "1,250": (30, 1_250)}


def test_axes_are_labelled_and_the_title_carries_no_date() -> None:
    [ax] = context_growth_chart(context_table(30)).axes
    assert ax.get_xlabel() == "Turn of the conversation"
    assert ax.get_ylabel() == "Input tokens sent in the turn"
    assert not any(ch.isdigit() for ch in ax.get_title())


def test_end_labels_follow_other_params_and_lengths() -> None:
    table = context_table(12, ContextParams(k=5))
    [ax] = context_growth_chart(table).axes
    assert sorted(text.get_text() for text in ax.texts) == sorted(f"{int(table[c].iloc[-1]):,}"
                                                                  for c in ("history", "summary", "retrieval"))


def test_the_chart_leaves_no_figure_open_in_pyplot_and_renders_to_png() -> None:
    before = plt.get_fignums()
    fig = context_growth_chart(context_table(30))
    assert plt.get_fignums() == before
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", metadata={"Software": None})
    assert buffer.getvalue().startswith(b"\x89PNG")


def test_a_table_without_the_strategy_columns_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="lacks column\\(s\\) summary, retrieval"):
        context_growth_chart(context_table(30)[["turn", "history"]])
    with pytest.raises(ValueError, match="no turns"):
        context_growth_chart(context_table(30).iloc[0:0])
