"""Lesson 05's table of what an exact search costs as an index grows: counts only, the same on every run,
built and searched up to a size and computed past it."""

from __future__ import annotations

import pandas as pd

from lab.course.lesson05 import PGVECTOR_HEADER_BYTES, exhaustive_search_costs


def test_the_costs_are_counts_that_grow_with_the_rows_and_do_not_change_between_runs() -> None:
    costs = exhaustive_search_costs([50, 2_000, 1_000_000], dimension=16, built_up_to=2_000, seed=3)
    again = exhaustive_search_costs([50, 2_000, 1_000_000], dimension=16, built_up_to=2_000, seed=3)
    pd.testing.assert_frame_equal(costs, again)
    assert costs["multiply_adds_per_question"].tolist() == [800, 32_000, 16_000_000]
    assert costs["float32_mb"].tolist() == [0.0, 0.1, 64.0]
    assert costs["pgvector_mb"].iloc[-1] == round(1_000_000 * (4 * 16 + PGVECTOR_HEADER_BYTES) / 1e6, 1)
    assert costs["here"].tolist() == ["built, searched: exact"] * 2 + ["computed"]
