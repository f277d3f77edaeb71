"""Cursor pagination: every child exactly once, in order, whatever the page size."""

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


def test_default_page_size_is_100() -> None:
    sim = make_simulator()
    body = call(sim, "GET", f"/v1/blocks/{sim.workspace.page_id('faq-larga')}/children").body
    assert len(body["results"]) == 100 and body["has_more"] is True


def test_query_pages_carry_the_filter_so_a_cursor_cannot_change_listing() -> None:
    sim = make_simulator()
    ds = data_source_id(sim)
    first = call(sim, "POST", f"/v1/data_sources/{ds}/query", {"page_size": 1}).body
    assert first["has_more"]
    other_filter = {"page_size": 1, "start_cursor": first["next_cursor"],
                    "filter": {"property": "Publicable", "checkbox": {"equals": False}}}
    response = call(sim, "POST", f"/v1/data_sources/{ds}/query", other_filter)
    assert response.status == 400 and response.body["code"] == "validation_error"


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
