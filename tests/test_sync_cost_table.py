"""Table 3's month: the same edits priced on a daily schedule and on the operators' 15-minute one."""

from __future__ import annotations

import pytest

from lab.ingest import cost_table

RUNS = {"first index": (71, 40_000), "today's sync": (11, 1_200), "a sync with no changes": (2, 0)}


def test_a_daily_month_is_four_changed_syncs_and_twenty_six_quiet_ones() -> None:
    month = cost_table(RUNS).iloc[-1]
    assert month["run"] == "a typical month (30 daily syncs, 4 with changes)"
    assert (month["requests"], month["tokens_embedded"]) == (4 * 11 + 26 * 2, 4 * 1_200)
    assert month["minimum_seconds"] == pytest.approx(round((4 * 11 + 26 * 2) / 3, 1))
    assert month["usd_embeddings"] == pytest.approx(round(4 * 1_200 * 0.06 / 1e6, 5))


def test_every_fifteen_minutes_adds_quiet_syncs_that_cost_requests_and_no_tokens() -> None:
    daily, often = cost_table(RUNS).iloc[-1], cost_table(RUNS, runs_per_day=96).iloc[-1]
    assert often["run"] == "a typical month (2,880 syncs, 96 a day, 4 with changes)"
    assert often["requests"] == 4 * 11 + (2_880 - 4) * 2
    assert often["tokens_embedded"] == daily["tokens_embedded"]  # the same edits, embedded once
    assert often["usd_embeddings"] == daily["usd_embeddings"]
    assert often["minimum_seconds"] > 50 * daily["minimum_seconds"]


@pytest.mark.parametrize("options, message", [
    ({"runs_per_day": 0}, "runs_per_day must be a positive whole number"),
    ({"runs_per_day": 1.5}, "runs_per_day must be a positive whole number"),
    ({"days": True}, "days must be a positive whole number"),
    ({"days_with_changes": 31}, r"days_with_changes must be a whole number from 0 to days \(30\)"),
])
def test_a_schedule_that_cannot_happen_is_refused(options, message) -> None:
    with pytest.raises(ValueError, match=message):
        cost_table(RUNS, **options)
