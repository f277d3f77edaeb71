"""The checkers of lesson 09's exercises (expected values computed, never typed)."""

from __future__ import annotations

from typing import Any, Callable

from lab.client import FixedRate, NoPacing, NotionAPIError, NotionClient, collect_paginated_api
from lab.course.lesson09 import FAULTS, OTHER_PAGE, POLICY, SEED
from lab.exercises.checking import Exercises
from lab.ingest.reading import read_knowledge_base, request_breakdown
from lab.simulator import NotionSimulator, in_process_session
from lab.simulator.server import serve_in_background
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator

__all__ = ["exercise"]

#: The checkers of the exercises at the end of lesson 09: ``exercise(1).check(...)``.
exercise = Exercises("lesson09")


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
    cursor = client.blocks.children.list(policy, page_size=5)["next_cursor"]
    borrowed = _refusal(lambda: client.blocks.children.list(other, start_cursor=cursor))
    if borrowed is None:
        raise AssertionError("the simulator accepted a cursor from another page's listing")
    misread = client.blocks.children.list(cursor)  # the cursor taken for a block, as two loaders take it
    return {"cursor_position": sim.workspace.pages[policy].children.index(cursor), "status": borrowed.status,
            "code": borrowed.code, "children_of_cursor": len(misread["results"])}


def _requests_per_listing(page_size: int) -> int:
    sim = bakery_simulator(seed=SEED)
    client = _client(sim, pacer=NoPacing())
    collect_paginated_api(client.blocks.children.list, page_size=page_size,
                          block_id=sim.workspace.page_id(POLICY))
    return len(client.log)


@exercise.define(3)
def _paged_listing() -> dict:
    return {"requests_page_size_5": _requests_per_listing(5), "requests_page_size_8": _requests_per_listing(8)}
