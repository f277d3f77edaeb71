"""Lesson 07's charts: the query x document heatmap, precision@k against its ceiling, methods side by side."""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from lab.course.plots import method_comparison_chart, precision_at_k_chart, similarity_heatmap

MATRIX = np.array([[0.5, 0.0, 0.1], [0.0, 0.2, 0.0]])


def _outlines(fig: Figure) -> list[tuple[float, float]]:
    ax = fig.axes[0]
    return sorted(p.get_xy() for p in ax.patches if isinstance(p, Rectangle) and not p.get_fill())


def test_the_heatmap_shows_the_matrix_and_outlines_exactly_the_relevant_cells() -> None:
    fig = similarity_heatmap(MATRIX, ["q1", "q2"], ["d1", "d2", "d3"], relevant=[(0, 0), (1, 2), (0, 0)])
    ax = fig.axes[0]
    np.testing.assert_array_equal(ax.images[0].get_array(), MATRIX)
    assert _outlines(fig) == [(-0.5, -0.5), (1.5, 0.5)]  # (column - 0.5, row - 0.5), the repeat drawn once
    assert [t.get_text() for t in ax.get_yticklabels()] == ["q1", "q2"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["d1", "d2", "d3"]


def test_the_heatmap_refuses_labels_that_do_not_fit_the_matrix_and_cells_outside_it() -> None:
    with pytest.raises(ValueError, match=r"must be \(2, 2\)"):
        similarity_heatmap(MATRIX, ["q1", "q2"], ["d1", "d2"])
    with pytest.raises(ValueError, match=r"\(2, 0\)"):
        similarity_heatmap(MATRIX, ["q1", "q2"], ["d1", "d2", "d3"], relevant=[(2, 0)])


def test_the_precision_chart_draws_the_measured_line_and_the_ceiling() -> None:
    fig = precision_at_k_chart([1, 2, 3], [0.5, 0.5, 0.375], [0.875, 0.5625, 0.4167])
    lines = {line.get_label(): list(line.get_ydata()) for line in fig.axes[0].get_lines()}
    assert lines == {"ideal ceiling: min(k, |R|) / k": [0.875, 0.5625, 0.4167],
                     "measured precision@k": [0.5, 0.5, 0.375]}
    with pytest.raises(ValueError, match="same length"):
        precision_at_k_chart([1, 2], [0.5], [1.0, 0.5])


def test_the_comparison_chart_has_one_bar_per_method_and_metric_labelled_with_its_value() -> None:
    table = pd.DataFrame({"method": ["A", "B"], "recall@8": [0.6, 0.7], "MRR": [0.5, 0.55]})
    ax = method_comparison_chart(table).axes[0]
    heights = sorted(round(p.get_height(), 3) for p in ax.patches)
    assert heights == [0.5, 0.55, 0.6, 0.7]
    assert sorted(t.get_text() for t in ax.texts) == ["0.500", "0.550", "0.600", "0.700"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["A", "B"]
    with pytest.raises(ValueError, match="no 'name' column"):
        method_comparison_chart(table, method="name")


def test_charts_leave_no_pyplot_figure_open_and_render_to_png() -> None:
    before = plt.get_fignums()
    figures = [similarity_heatmap(MATRIX, ["q1", "q2"], ["d1", "d2", "d3"]),
               precision_at_k_chart([1, 2], [0.5, 0.25], [1.0, 0.5]),
               method_comparison_chart(pd.DataFrame({"method": ["A"], "MRR": [0.4]}))]
    assert plt.get_fignums() == before
    for fig in figures:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", metadata={"Software": None})
        assert buffer.getvalue().startswith(b"\x89PNG")
