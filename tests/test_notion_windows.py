"""The rate-limit window a moment falls in, counted the same way by the simulator and the client."""

from __future__ import annotations

from lab.client.pacing import BudgetAware
from lab.notion import window_index


def test_a_float_sum_that_lands_on_a_boundary_opens_the_next_window() -> None:
    t = 0.0
    for _ in range(10):  # a clock advanced ten times by 0.1 s: 0.9999999999999999 (sum() rounds it to 1.0 from 3.12)
        t += 0.1
    assert t < 1 and window_index(t, 1.0) == 1
    assert window_index(59.9, 60.0) == 0 and window_index(120.0, 60.0) == 2


def test_windows_can_start_at_an_origin() -> None:
    assert window_index(10.0, 60.0, origin=15.0) == -1 and window_index(75.0, 60.0, origin=15.0) == 1


def test_the_budget_aware_pacer_opens_a_window_when_the_simulator_does() -> None:
    pacer, t = BudgetAware(budget=10, window_seconds=1.0), 0.0
    for _ in range(10):
        pacer.sent(t)
        t += 0.1
    assert window_index(t, 1.0) == 1 and pacer.delay(t) == 0.0  # a spent window would make it wait
