"""Cursor pagination: every child exactly once, in order, whatever the page size; each cursor is the
id of the first item of the next page, as Notion forms it, and is accepted only by its listing."""

from __future__ import annotations

import pytest

from lab.simulator import LimitsConfig, NotionSimulator, Workspace
from lab.simulator.simulator import QUERY_RESULT_LIMIT
from lab.clock import SimulatedClock
from tests.notion_fixtures import call, data_source_id, make_simulator


def collect_children(sim, block_id: str, page_size: int) -> tuple[list[str], int]:
    ids, cursor, requests = [], None, 0
    while True:
        query = {"page_size": str(page_size)}
        if cursor:
            query["start_cursor"] = cursor
        body = call(sim, "GET", f"/v1/blocks/{block_id}/children", query=query).body
        requests += 1
        ids += [b["id"] for b in body["results"]]
        assert body["object"] == "list" and body["type"] == "block" and body["block"] == {}
        if not body["has_more"]:
            assert body["next_cursor"] is None
            return ids, requests
        cursor = body["next_cursor"]


@pytest.mark.parametrize("page_size, expected_requests", [(100, 3), (7, 38), (1, 260)])
def test_children_pages_have_no_duplicates_and_no_gaps(page_size: int, expected_requests: int) -> None:
    sim = make_simulator(limits=LimitsConfig(plan="business"))  # 260 requests fit one window
    page = sim.workspace.page_id("faq-larga")
    ids, requests = collect_children(sim, page, page_size)
    assert ids == sim.workspace.pages[page].children
    assert len(ids) == 260 and len(set(ids)) == 260
    assert requests == expected_requests


UNLIMITED = LimitsConfig(plan="enterprise", connection_budget=100_000, workspace_budget=100_000)


def test_every_page_size_from_1_to_100_returns_every_child_once_in_order_and_each_cursor_is_the_next_block() -> None:
    sim = make_simulator(limits=UNLIMITED)
    page = sim.workspace.page_id("faq-larga")
    children = sim.workspace.pages[page].children
    for page_size in range(1, 101):
        ids, _ = collect_children(sim, page, page_size)
        assert ids == children, page_size
    first = call(sim, "GET", f"/v1/blocks/{page}/children", query={"page_size": "7"}).body
    assert first["next_cursor"] == children[7]


def test_a_block_id_of_the_listing_is_a_cursor_and_the_listing_resumes_at_that_block() -> None:
    sim = make_simulator()
    page = sim.workspace.page_id("faq-larga")
    children = sim.workspace.pages[page].children
    for cursor in (children[42], children[42].replace("-", "").upper()):  # Notion reads ids either way
        body = call(sim, "GET", f"/v1/blocks/{page}/children", query={"start_cursor": cursor, "page_size": "3"}).body
        assert [b["id"] for b in body["results"]] == children[42:45] and body["next_cursor"] == children[45]


def test_a_cursor_resumes_at_its_block_after_an_earlier_block_is_trashed_and_is_refused_once_its_own_is() -> None:
    sim = make_simulator()
    page = sim.workspace.page_id("faq-larga")
    children = list(sim.workspace.pages[page].children)
    first = call(sim, "GET", f"/v1/blocks/{page}/children", query={"page_size": "10"}).body
    sim.workspace.blocks[children[3]].in_trash = True  # on the page already read: nothing is skipped
    second = call(sim, "GET", f"/v1/blocks/{page}/children", query={"start_cursor": first["next_cursor"]}).body
    assert second["results"][0]["id"] == children[10]
    sim.workspace.blocks[children[10]].in_trash = True  # the block the cursor names
    refused = call(sim, "GET", f"/v1/blocks/{page}/children", query={"start_cursor": first["next_cursor"]})
    assert refused.status == 400 and refused.body["message"].startswith("The start_cursor provided is invalid: ")


def test_default_page_size_is_100() -> None:
    sim = make_simulator()
    body = call(sim, "GET", f"/v1/blocks/{sim.workspace.page_id('faq-larga')}/children").body
    assert len(body["results"]) == 100 and body["has_more"] is True


def test_a_query_cursor_is_the_next_row_and_only_a_query_whose_results_hold_that_row_accepts_it() -> None:
    sim = make_simulator()
    ds = data_source_id(sim)
    everything = call(sim, "POST", f"/v1/data_sources/{ds}/query", {}).body["results"]
    first = call(sim, "POST", f"/v1/data_sources/{ds}/query", {"page_size": 1}).body
    assert first["has_more"] and first["next_cursor"] == everything[1]["id"]
    drafts = {"property": "Publicable", "checkbox": {"equals": False}}
    draft_ids = [r["id"] for r in call(sim, "POST", f"/v1/data_sources/{ds}/query", {"filter": drafts}).body["results"]]
    published = next(r["id"] for r in everything if r["id"] not in draft_ids)
    refused = call(sim, "POST", f"/v1/data_sources/{ds}/query", {"start_cursor": published, "filter": drafts})
    assert refused.status == 400 and refused.body["code"] == "validation_error"
    accepted = call(sim, "POST", f"/v1/data_sources/{ds}/query", {"start_cursor": draft_ids[0], "filter": drafts})
    assert [r["id"] for r in accepted.body["results"]] == draft_ids


@pytest.mark.parametrize("version", ["2022-06-28", "2025-09-03", "2026-03-11"])
def test_a_search_cursor_is_the_id_the_next_result_is_printed_with_in_every_version(version: str) -> None:
    sim = make_simulator()
    everything = call(sim, "POST", "/v1/search", {}, version=version).body["results"]
    assert {r["object"] for r in everything} == {"page", "database" if version == "2022-06-28" else "data_source"}
    ids, cursor = [], None
    while True:
        body = call(sim, "POST", "/v1/search", {"page_size": 2} | ({"start_cursor": cursor} if cursor else {}),
                    version=version).body
        ids += [r["id"] for r in body["results"]]
        if not body["has_more"]:
            break
        assert body["next_cursor"] == everything[len(ids)]["id"]
        cursor = body["next_cursor"]
    assert ids == [r["id"] for r in everything]
    another_search = {"query": "no such title", "start_cursor": everything[1]["id"]}
    assert call(sim, "POST", "/v1/search", another_search, version=version).status == 400


def test_query_stops_at_ten_thousand_results_and_says_so() -> None:
    spec = {"name": "Grande", "users": [],
            "data_sources": [{"key": "kb", "title": "KB", "created": "2026-01-01T00:00:00.000Z",
                              "properties": {"Nombre": {"type": "title"}}}],
            "pages": [{"key": f"p{i}", "title": f"P {i}", "parent": {"type": "data_source", "key": "kb"},
                       "created": "2026-01-02T00:00:00.000Z", "blocks": []} for i in range(QUERY_RESULT_LIMIT + 50)],
            "integrations": [{"key": "indexador", "name": "I", "shares": [{"type": "data_source", "key": "kb"}]}]}
    sim = NotionSimulator(Workspace.from_spec(spec, SimulatedClock()))
    ds = data_source_id(sim)
    seen, cursor, last = 0, None, None
    while True:
        body = {"page_size": 100} | ({"start_cursor": cursor} if cursor else {})
        last = call(sim, "POST", f"/v1/data_sources/{ds}/query", body).body
        seen += len(last["results"])
        if not last["has_more"]:
            break
        cursor = last["next_cursor"]
    assert seen == QUERY_RESULT_LIMIT
    assert last["request_status"] == {"type": "incomplete", "incomplete_reason": "query_result_limit_reached"}
    past_the_limit = sorted(sim.workspace.pages)[QUERY_RESULT_LIMIT + 10]  # same created time: rows sort by id
    refused = call(sim, "POST", f"/v1/data_sources/{ds}/query", {"start_cursor": past_the_limit})
    assert refused.status == 400 and refused.body["message"].startswith("The start_cursor provided is invalid: ")
