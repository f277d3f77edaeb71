"""Lesson 09's seed, fault rates and the checkers of its exercises (expected values computed,
never typed)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from lab.client import FixedRate, NoPacing, NotionAPIError, NotionClient, collect_paginated_api
from lab.course.exercises import Exercises
from lab.ingest.reading import read_knowledge_base, request_breakdown
from lab.simulator import LimitsConfig, NotionSimulator, in_process_session
from lab.simulator.server import ServedSimulator, serve_in_background
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator

__all__ = ["SEED", "FAULTS", "POLICY", "OTHER_PAGE", "lesson_server", "exercise", "key_figures"]

SEED = 9  # seeds latency, injected faults, request ids and the cursor key
FAULTS = LimitsConfig(p_workspace=0.03, p_overload=0.01)  # lesson 02's declared fault rates
POLICY = "politica-cancelaciones"  # the page whose top-level blocks the exercises list
OTHER_PAGE = "faq-cambios-y-cancelaciones"  # a second listing, for a borrowed cursor


#: The checkers of the exercises at the end of lesson 09: ``exercise(1).check(...)``.
exercise = Exercises("lesson09")


@lru_cache(maxsize=1)
def lesson_server() -> ServedSimulator:
    """The lesson's one server on a free loopback port, started on first use; a cell run again
    gets the same server and address (a new kernel starts a new one)."""
    return ServedSimulator(bakery_simulator(seed=SEED))


def _client(sim: NotionSimulator, **kwargs: Any) -> NotionClient:
    return NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                        **kwargs)


@exercise.define(1)
def _breakdown_over_http() -> dict:
    local = bakery_simulator(seed=SEED, limits=FAULTS)
    local_client = _client(local, pacer=FixedRate(3.0))
    in_process = read_knowledge_base(local_client)
    served = bakery_simulator(seed=SEED, limits=FAULTS)
    with serve_in_background(served) as server:
        http_client = NotionClient(served.token_for(KB_INTEGRATION), base_url=server.base_url,
                                   clock=served.clock, pacer=FixedRate(3.0))
        over_http = read_knowledge_base(http_client)
    http_parts, local_parts = (request_breakdown(client.log.frame(), {p.id for p in read.pages})
                               for client, read in ((http_client, over_http), (local_client, in_process)))
    return {"page_reads": http_parts["page reads"], "nested_reads": http_parts["nested reads"],
            "retries": http_parts["retries"], "same_as_in_process": http_parts == local_parts}


def _refusal(call: Callable[[], Any]) -> NotionAPIError | None:
    try:
        call()
    except NotionAPIError as error:
        return error
    return None


@exercise.define(2)
def _cursors() -> dict:
    sim = bakery_simulator(seed=SEED)
    client = _client(sim, pacer=NoPacing())
    policy, other = sim.workspace.page_id(POLICY), sim.workspace.page_id(OTHER_PAGE)
    first = client.blocks.children.list(policy, page_size=5)
    forged = _refusal(lambda: client.blocks.children.list(policy, start_cursor=first["results"][1]["id"]))
    borrowed = _refusal(lambda: client.blocks.children.list(other, start_cursor=first["next_cursor"]))
    if forged is None:
        raise AssertionError("the simulator accepted a block id as a cursor")
    return {"status": forged.status, "code": forged.code, "borrowed_cursor_accepted": borrowed is None}


def _requests_per_listing(page_size: int) -> int:
    sim = bakery_simulator(seed=SEED)
    client = _client(sim, pacer=NoPacing())
    collect_paginated_api(client.blocks.children.list, page_size=page_size,
                          block_id=sim.workspace.page_id(POLICY))
    return len(client.log)


@exercise.define(3)
def _paged_listing() -> dict:
    return {"requests_page_size_5": _requests_per_listing(5), "requests_page_size_8": _requests_per_listing(8)}


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    compared = pd.read_csv(tables / "09_in_process_vs_http.csv")
    sdk = pd.read_csv(tables / "09_sdk_vs_lab_on_529.csv")
    raised = int(sdk["outcome"].str.startswith("raised").sum())
    return (f"HTTP vs in process: {int(compared['chunks'].iloc[1])} chunks, identical "
            f"{bool(compared['identical_chunks'].all())}; official SDK raised on {raised} of 6 calls (529)")
