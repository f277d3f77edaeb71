"""The indexer's read run against the simulated workspace under different pacing strategies.

Lesson 02 compares a paced client, a burst client and a budget-aware client on the same
workspace and the same injected faults; this module runs them and measures each run the way
Table 1 reports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from lab.client import NotionClient, Pacer, RetryPolicy
from lab.client.schedule import minimum_duration
from lab.notion import window_index
from lab.simulator import LimitsConfig, in_process_session
from lab.ingest.reading import KnowledgeBaseRead, find_data_source, publishable_pages, read_knowledge_base
from lab.simulator.timeline import run_together
from lab.simulator.workspaces import BATCH_INTEGRATION as BATCH_JOB
from lab.simulator.workspaces import KB_INTEGRATION as INDEXER
from lab.simulator.workspaces import bakery_simulator

__all__ = ["IndexerRun", "schedule_comparison", "run_indexer", "summarise_run", "ContentionResult", "run_contention"]



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


def run_indexer(name: str, pacer: Pacer, passes: int = 1, seed: int = 0, limits: LimitsConfig | None = None,
                spec: dict[str, Any] | None = None, max_attempts: int = 10) -> IndexerRun:
    """Read the whole knowledge base ``passes`` times in a row with one client on a fresh simulator."""
    limits = limits or LimitsConfig()
    sim = bakery_simulator(seed, limits, spec)
    client = NotionClient(sim.token_for(INDEXER), session=in_process_session(sim), clock=sim.clock, pacer=pacer,
                          retry=RetryPolicy(max_attempts=max_attempts, seed=seed))
    read = None
    for _ in range(passes):
        read = read_knowledge_base(client)
    assert read is not None
    return IndexerRun(name, client.log.frame(), sim.served_frame(), read, sim.clock.now(), limits.budget,
                      limits.window_seconds)


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


@dataclass
class ContentionResult:
    """Two connections in one workspace: the indexer's log and the batch job's log."""

    indexer: pd.DataFrame
    batch: pd.DataFrame
    served: pd.DataFrame


def run_contention(indexer_pacer: Pacer, batch_pacer: Pacer, passes: int = 1, batch_requests: int = 60,
                   seed: int = 0, limits: LimitsConfig | None = None,
                   spec: dict[str, Any] | None = None) -> ContentionResult:
    """The indexer reads the knowledge base while a nightly batch job re-reads pages, concurrently.

    Both connections belong to the same workspace, so they share its budget: what one spends,
    the other may be refused.
    """
    sim = bakery_simulator(seed, limits, spec)

    def indexer(session, clock) -> pd.DataFrame:
        client = NotionClient(sim.token_for(INDEXER), session=session, clock=clock, pacer=indexer_pacer,
                              retry=RetryPolicy(max_attempts=20, seed=seed))
        for _ in range(passes):
            read_knowledge_base(client)
        return client.log.frame()

    def batch(session, clock) -> pd.DataFrame:
        client = NotionClient(sim.token_for(BATCH_JOB), session=session, clock=clock, pacer=batch_pacer,
                              retry=RetryPolicy(max_attempts=20, seed=seed + 1))
        rows = [page["id"] for page in publishable_pages(client, find_data_source(client)["id"]).rows]
        for i in range(batch_requests):
            client.pages.retrieve(rows[i % len(rows)])
        return client.log.frame()

    indexer_log, batch_log = run_together(sim, [indexer, batch])
    return ContentionResult(indexer_log, batch_log, sim.served_frame())


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
