"""The least time a run can take under a window budget: the yardstick for pacing strategies."""

from __future__ import annotations

from collections.abc import Sequence

from lab.notion.windows import window_index

__all__ = ["minimum_duration"]


def minimum_duration(latencies: Sequence[float], budget: int, window_seconds: float = 60.0,
                     start: float = 0.0) -> float:
    """Seconds one connection needs to make these requests one after another.

    Each request takes its latency; at most ``budget`` may start in any window
    ``[k·window, (k+1)·window)``. Sending as soon as possible and, when a window's budget is
    spent, waiting for the next one is optimal, so this greedy schedule is the minimum.
    """
    t = start
    window, count = window_index(start, window_seconds), 0
    for latency in latencies:
        current = window_index(t, window_seconds)
        if current != window:
            window, count = current, 0
        if count >= budget:
            window, count = window + 1, 0
            t = window * window_seconds
        count += 1
        t += latency
    return t - start
