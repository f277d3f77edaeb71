"""The charts and summary of lessons 10 and 11: each rung's gains with their intervals around zero,
the rejected rungs set apart; the threshold trade-off drawn as steps and marked where the table
says; and shares shown with their counts."""

from __future__ import annotations

import pandas as pd
import pytest

from lab.answering import tradeoff_table
from lab.course.answer_plots import ladder_gains_chart, threshold_tradeoff_chart
from lab.course.lesson11 import answers_summary

LADDER = pd.DataFrame({"step": ["start", "a", "b"], "kept": [True, True, False],
                       **{f"{kind} {metric}": values for metric in ("recall@8", "MRR", "nDCG@10")
                          for kind, values in (("gain", [None, 0.05, -0.02]), ("low", [None, 0.01, -0.06]),
                                               ("high", [None, 0.09, 0.01]))}})

ANSWERS = pd.DataFrame({"answerable": [True, True, True, True, False, False],
                        "confidence": [0.9, 0.6, 0.4, 0.2, 0.5, 0.1],
                        "cites_gold": [True, True, False, True, False, False]})


def test_the_ladder_chart_draws_each_gain_with_its_interval_around_zero_and_sets_rejected_rungs_apart() -> None:
    ax = ladder_gains_chart(LADDER, ["0 start", "1 a", "2 b"]).axes[0]
    assert any(list(line.get_ydata()) == [0, 0] for line in ax.get_lines())  # the line at zero
    bars = [segment for collection in ax.collections for segment in collection.get_segments()]
    assert sorted({(round(s[0][1], 2), round(s[1][1], 2)) for s in bars}) == [(-0.06, 0.01), (0.01, 0.09)]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1\na", "2\nb\n(rejected)"]
    assert "95%" in ax.get_ylabel()


def test_the_ladder_chart_refuses_a_table_without_the_kept_column_or_a_label_per_rung() -> None:
    with pytest.raises(ValueError, match="kept"):
        ladder_gains_chart(LADDER.drop(columns="kept"), ["a", "b", "c"])
    with pytest.raises(ValueError, match="2 labels for 3 rows"):
        ladder_gains_chart(LADDER, ["a", "b"])


def test_the_threshold_chart_marks_each_curve_at_the_chosen_threshold_with_the_table_value() -> None:
    steps = tradeoff_table(ANSWERS, [0.0, 0.1, 0.2, 0.4, 0.5, 0.6, 0.9])
    fig = threshold_tradeoff_chart(steps, 0.4)
    marks = {round(float(line.get_ydata()[0]), 3) for line in fig.axes[0].get_lines() if line.get_marker() == "o"}
    row = steps.set_index("threshold").loc[0.4]
    assert marks == {round(row["coverage"], 3), round(row["precision"], 3), round(row["unanswerable abstained"], 3)}
    assert any(t.get_text() == "calibrated: 0.400" for t in fig.axes[0].texts)


def test_the_threshold_chart_refuses_a_threshold_that_is_not_a_row_of_the_table() -> None:
    with pytest.raises(ValueError, match="not a row of the table"):
        threshold_tradeoff_chart(tradeoff_table(ANSWERS, [0.0, 0.5]), 0.4)


def test_the_summary_gives_each_share_with_the_counts_it_is_made_of() -> None:
    summary = answers_summary(ANSWERS, 0.4).set_index("figure")
    assert summary.loc["no threshold: answers citing a gold section", "questions"] == "3 of 4"
    assert summary.loc["at the threshold: answerable questions answered", "questions"] == "3 of 4"
    assert summary.loc["at the threshold: answers citing a gold section", "questions"] == "2 of 3"
    assert summary.loc["at the threshold: unanswerable questions abstained on", "questions"] == "1 of 2"
    assert summary.loc["at the threshold: answers citing a gold section", "value"] == pytest.approx(0.667)
