"""The simulator's edits stamp ``last_edited_time`` where Notion does, and nowhere else."""

from __future__ import annotations

import pytest

from lab.client import NoPacing, NotionClient, ObjectNotFound, collect_paginated_api
from lab.clock import SimulatedClock
from lab.simulator import NotionSimulator, Workspace, in_process_session

STAMP_0 = "2026-04-01T10:00:00.000Z"


def small_workspace() -> Workspace:
    """A data source with one publishable page that holds a sub-page, and an integration that sees it."""
    spec = {
        "name": "Edits",
        "data_sources": [{"key": "kb", "title": "KB", "created": STAMP_0,
                          "properties": {"Nombre": {"type": "title"}, "Publicable": {"type": "checkbox"}}}],
        "pages": [
            {"key": "policy", "title": "Policy", "parent": {"type": "data_source", "key": "kb"},
             "publishable": True, "created": STAMP_0,
             "blocks": [{"type": "heading_2", "text": "Rules"}, {"type": "paragraph", "text": "Rule one."},
                        {"type": "toggle", "text": "Details", "children": [{"type": "paragraph", "text": "Small."}]},
                        {"type": "child_page", "page": "cases", "text": "Cases"}]},
            {"key": "cases", "title": "Cases", "parent": {"type": "page", "key": "policy"}, "created": STAMP_0,
             "blocks": [{"type": "paragraph", "text": "Case one."}]},
        ],
        "integrations": [{"key": "kb", "name": "KB", "shares": [{"type": "data_source", "key": "kb"}]}],
    }
    return Workspace.from_spec(spec, SimulatedClock())


def client_for(ws: Workspace) -> NotionClient:
    sim = NotionSimulator(ws)
    return NotionClient(sim.token_for("kb"), session=in_process_session(sim), clock=sim.clock, pacer=NoPacing())


def test_editing_a_sub_page_stamps_the_sub_page_and_not_its_parent() -> None:
    ws = small_workspace()
    policy, cases = ws.page_id("policy"), ws.page_id("cases")
    ws.clock.set(600)
    ws.edit_block_text(ws.find_block(cases, "Case one").id, "Case one, revised.")
    assert ws.pages[cases].edited == "2026-04-09T16:10:00.000Z"
    assert ws.pages[policy].edited == STAMP_0


def test_adding_a_sub_page_puts_its_block_at_the_end_of_the_parent_and_stamps_both() -> None:
    ws = small_workspace()
    policy = ws.page_id("policy")
    ws.clock.set(120)
    page = ws.add_child_page(policy, {"key": "more", "title": "More cases",
                                      "blocks": [{"type": "paragraph", "text": "Another."}]})
    children = collect_paginated_api(client_for(ws).blocks.children.list, block_id=policy)
    assert children[-1]["type"] == "child_page" and children[-1]["id"] == page.id
    assert children[-1]["child_page"] == {"title": "More cases"}
    assert ws.pages[policy].edited == ws.pages[page.id].edited == "2026-04-09T16:02:00.000Z"


def test_a_deleted_block_leaves_the_children_list_with_everything_under_it_and_its_page_is_edited() -> None:
    ws = small_workspace()
    policy = ws.page_id("policy")
    toggle = ws.find_block(policy, "Details")
    ws.clock.set(180)
    ws.delete_block(toggle.id)
    client = client_for(ws)
    listed = collect_paginated_api(client.blocks.children.list, block_id=policy)
    assert toggle.id not in {block["id"] for block in listed}
    assert client.blocks.retrieve(toggle.id)["in_trash"] is True  # still retrievable, as in Notion
    assert ws.pages[policy].edited == "2026-04-09T16:03:00.000Z"


def test_deleting_a_child_page_block_trashes_the_sub_page_and_restoring_it_brings_the_block_back() -> None:
    ws = small_workspace()
    policy, cases = ws.page_id("policy"), ws.page_id("cases")
    client = client_for(ws)
    ws.clock.set(240)
    ws.delete_block(cases)
    assert ws.pages[cases].in_trash and ws.pages[policy].edited == "2026-04-09T16:04:00.000Z"
    assert cases not in {b["id"] for b in collect_paginated_api(client.blocks.children.list, block_id=policy)}
    assert cases not in {p["id"] for p in collect_paginated_api(client.search, query="Cases")}
    ws.clock.set(300)
    ws.restore(cases)
    assert cases in {b["id"] for b in collect_paginated_api(client.blocks.children.list, block_id=policy)}
    assert ws.pages[policy].edited == ws.pages[cases].edited == "2026-04-09T16:05:00.000Z"


def test_unsharing_a_sub_page_hides_it_without_stamping_anything() -> None:
    ws = small_workspace()
    policy, cases = ws.page_id("policy"), ws.page_id("cases")
    ws.unshare("kb", cases)
    client = client_for(ws)
    with pytest.raises(ObjectNotFound):
        client.pages.retrieve(cases)
    assert ws.pages[policy].edited == ws.pages[cases].edited == STAMP_0
    ws.share("kb", cases)
    assert client.pages.retrieve(cases)["last_edited_time"] == STAMP_0


def test_renaming_a_sub_page_stamps_it_and_its_parent_whose_block_shows_the_new_title() -> None:
    ws = small_workspace()
    policy, cases = ws.page_id("policy"), ws.page_id("cases")
    ws.clock.set(360)
    ws.rename(cases, "Special cases")
    children = collect_paginated_api(client_for(ws).blocks.children.list, block_id=policy)
    assert children[-1]["child_page"] == {"title": "Special cases"}
    assert ws.pages[policy].edited == ws.pages[cases].edited == "2026-04-09T16:06:00.000Z"
