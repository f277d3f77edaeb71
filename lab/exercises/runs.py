"""The reads the checkers repeat: lesson 02's indexer run, and the pages a paced read returns.

The lessons show these calls in their cells; a checker makes them again to compute the answer it
expects.
"""

from __future__ import annotations

from functools import lru_cache

from lab.client import FixedRate, NotionClient, Pacer, RetryPolicy
from lab.course.indexing_runs import IndexerRun
from lab.ingest import read_knowledge_base
from lab.ingest.page_reads import PageRead
from lab.simulator import KB_INTEGRATION, LimitsConfig, bakery_simulator, in_process_session

__all__ = ["run_indexer", "read_pages"]


def run_indexer(name: str, pacer: Pacer, passes: int = 1, seed: int = 0, limits: LimitsConfig | None = None,
                max_attempts: int = 10) -> IndexerRun:
    """Read the whole knowledge base ``passes`` times in a row with one client on a fresh simulator."""
    limits = limits or LimitsConfig()
    sim = bakery_simulator(seed, limits)
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock, pacer=pacer,
                          retry=RetryPolicy(max_attempts=max_attempts, seed=seed))
    for _ in range(passes):
        read = read_knowledge_base(client)
    return IndexerRun(name, client.log.frame(), sim.served_frame(), read, sim.clock.now(), limits.budget,
                      limits.window_seconds)


@lru_cache(maxsize=None)
def read_pages(seed: int) -> tuple[PageRead, ...]:
    """The publishable pages as one paced pass reads them (the pages do not depend on the seed)."""
    return tuple(run_indexer("paced", FixedRate(3.0), seed=seed).read.pages)
