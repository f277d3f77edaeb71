"""What lesson 02 measures of an indexer's read: one run's record, a row of Table 1, and how its
duration compares with its yardsticks.

Lesson 02 runs a paced client, a burst client and a budget-aware client on the same workspace and
the same injected faults, in its own cells; this module only measures the runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from lab.client.schedule import minimum_duration
from lab.notion import window_index
from lab.ingest.reading import KnowledgeBaseRead

__all__ = ["IndexerRun", "schedule_comparison", "summarise_run"]


@dataclass
class IndexerRun:
    """One indexer run: its request log, the server's view, what it read and how long it took."""

    name: str
    log: pd.DataFrame
    served: pd.DataFrame
    read: KnowledgeBaseRead
    duration: float
    budget: int
    window_seconds: float


def summarise_run(run: IndexerRun) -> dict[str, Any]:
    """A row of Table 1: requests, duration, 429s by limit, 529s, seconds waited, window peak, pages.

    ``waited_s`` is the time spent waiting on the server (``Retry-After`` and backoff), not the
    client's own pacing.
    """
    log = run.log
    counted = log[log["reason"] != "connection"]  # what the server counts against the window
    per_window = counted.groupby(counted["t"].map(lambda t: window_index(t, run.window_seconds))).size()
    return {
        "client": run.name,
        "requests": len(log),
        "duration_s": round(run.duration, 1),
        "connection_429": int((log["reason"] == "connection").sum()),
        "workspace_429": int((log["reason"] == "workspace").sum()),
        "overload_529": int((log["status"] == 529).sum()),
        "server_5xx": int(log["status"].isin([500, 502, 503, 504]).sum()),
        "waited_s": round(float(log["wait_s"].sum()), 1),
        "max_in_window": int(per_window.max()),
        "pages_read": len(run.read.pages),
    }


def schedule_comparison(run: IndexerRun, rate: float = 3.0) -> dict[str, Any]:
    """How a run's duration compares with its two yardsticks: R / r and the minimum schedule.

    The minimum schedule replays the latencies the server drew for this run's requests under
    the window budget alone (see :func:`lab.client.schedule.minimum_duration`).
    """
    latencies = run.served["latency"].tolist()
    floor = minimum_duration(latencies, run.budget, run.window_seconds)
    requests = len(run.log)
    return {"client": run.name, "requests": requests, "duration_s": round(run.duration, 1),
            "R_over_r_s": round(requests / rate, 1), "minimum_s": round(floor, 1),
            "vs_R_over_r": round(run.duration / (requests / rate), 3), "vs_minimum": round(run.duration / floor, 3),
            "connection_429": int((run.log["reason"] == "connection").sum())}
