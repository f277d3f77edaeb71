"""The checkers of lesson 01's exercises (expected values computed, never typed)."""

from __future__ import annotations

from lab.client import NoPacing, NotionClient, collect_paginated_api
from lab.course.lesson01 import SEED
from lab.exercises.checking import Exercises
from lab.ingest.reading import find_data_source, publishable_filter
from lab.notion import NOTION_API_URL
from lab.simulator import in_process_session
from lab.simulator.inventory import page_inventory
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator

__all__ = ["exercise"]

POLICY = "politica-cancelaciones"


#: The checkers of the exercises at the end of lesson 01: ``exercise(1).check(...)``.
exercise = Exercises("lesson01")


@exercise.define(1)
def _faq_pages_since_april() -> dict:
    inventory = page_inventory(bakery_simulator(seed=SEED).workspace, KB_INTEGRATION)
    recent_faq = inventory[(inventory["type"] == "faq") & (inventory["edited"] >= "2026-04-01")]
    return {"faq_pages": int((recent_faq["status"] == "publishable").sum()),
            "without_publicable_filter": int((recent_faq["status"] != "private").sum())}


@exercise.define(2)
def _policy_read_seven_at_a_time() -> dict:
    sim = bakery_simulator(seed=SEED)
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    policy = sim.workspace.page_id(POLICY)
    top_level = collect_paginated_api(client.blocks.children.list, page_size=7, block_id=policy)
    inventory = page_inventory(sim.workspace, KB_INTEGRATION).set_index("page_id")
    return {"top_level_blocks": len(top_level), "requests": len(client.log),
            "nested_blocks": int(inventory.loc[policy, "blocks"]) - len(top_level)}


@exercise.define(3)
def _unshared_page() -> dict:
    sim = bakery_simulator(seed=SEED)
    ws, session = sim.workspace, in_process_session(sim)
    headers = {"Authorization": f"Bearer {sim.token_for(KB_INTEGRATION)}", "Notion-Version": "2026-03-11"}
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=session, clock=sim.clock, pacer=NoPacing())
    data_source = find_data_source(client)["id"]
    nuts = next(p for p in ws.pages.values() if p.type == "alergenos" and "nuez" in p.title.lower())

    def listed() -> bool:
        rows = collect_paginated_api(client.data_sources.query, data_source_id=data_source,
                                     filter=publishable_filter())
        return any(row["id"] == nuts.id for row in rows)

    ws.unshare(KB_INTEGRATION, nuts.id)
    hidden = listed(), session.get(f"{NOTION_API_URL}/v1/blocks/{nuts.id}/children", headers=headers).status_code
    ws.share(KB_INTEGRATION, nuts.id)
    return {"listed_when_unshared": hidden[0], "children_status_when_unshared": hidden[1],
            "listed_when_shared_again": listed()}
