"""Listings are cached between the requests of one pagination, and are never stale.

A data source of 10,000 rows takes 100 requests to list; the simulator keeps the filtered,
sorted rows between them instead of filtering the whole workspace again for each. Whatever
changes in between (an edit, a direct assignment, sharing) is seen by the next request, exactly
as if nothing had been cached.
"""

from __future__ import annotations

import copy

from lab.client import NotionClient, collect_paginated_api
from lab.client.pacing import NoPacing
from lab.datasets.scaled_bakery import scaled_bakery_spec
from lab.ingest.reading import find_data_source
from lab.simulator import KB_INTEGRATION, bakery_simulator, in_process_session

PUBLISHABLE = {"property": "Publicable", "checkbox": {"equals": True}}


def _client(sim):
    return NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                        pacer=NoPacing())


def _query(client, source_id, page_size=50, **params):
    return client.data_sources.query(data_source_id=source_id, filter=PUBLISHABLE, page_size=page_size, **params)


def _ids(results):
    return [page["id"] for page in results]


def _change(ws) -> None:
    """Three kinds of change: an editing method, a direct assignment (as a test fixture does), access."""
    rows = [p for p in ws.pages.values() if p.publishable and p.parent_type == "data_source_id"]
    ws.set_publishable(rows[0].id, False)
    rows[1].in_trash = True
    ws.unshare(KB_INTEGRATION, rows[2].id)


def test_a_listing_read_page_by_page_equals_the_listing_computed_afresh_after_each_change() -> None:
    sim = bakery_simulator(spec=scaled_bakery_spec(160))
    client = _client(sim)
    source_id = find_data_source(client)["id"]
    first = _query(client, source_id)  # caches the 160 rows
    _change(sim.workspace)
    second = _query(client, source_id, start_cursor=first["next_cursor"])
    fresh = bakery_simulator(spec=scaled_bakery_spec(160))
    _change(fresh.workspace)
    expected = _ids(_query(_client(fresh), source_id, page_size=100)["results"])
    resumed_at = expected.index(first["next_cursor"])  # the cursor names the row it resumes at
    assert _ids(second["results"]) == expected[resumed_at:resumed_at + 50]
    everything = collect_paginated_api(client.data_sources.query, data_source_id=source_id, filter=PUBLISHABLE)
    assert len(everything) == 157


def test_search_sees_a_page_edited_between_two_of_its_pages() -> None:
    sim = bakery_simulator(spec=scaled_bakery_spec(120))
    client = _client(sim)
    first = client.search(filter={"property": "object", "value": "page"}, page_size=20)
    oldest = collect_paginated_api(client.search, filter={"property": "object", "value": "page"})[-1]
    sim.clock.advance(3600)
    sim.workspace.rename(oldest["id"], "Un título nuevo")  # now the most recently edited page
    second = client.search(filter={"property": "object", "value": "page"}, page_size=20,
                           start_cursor=first["next_cursor"])
    again = client.search(filter={"property": "object", "value": "page"}, page_size=20)
    # the renamed page moved to the front; the second page still starts at the row its cursor names
    assert _ids(second["results"])[0] == first["next_cursor"]
    assert again["results"][0]["id"] == oldest["id"]


def test_a_copied_simulator_starts_with_an_empty_cache_and_answers_like_the_original() -> None:
    sim = bakery_simulator(spec=scaled_bakery_spec(60))
    client = _client(sim)
    source_id = find_data_source(client)["id"]
    before = collect_paginated_api(client.data_sources.query, data_source_id=source_id, filter=PUBLISHABLE)
    twin = copy.deepcopy(sim)
    twin_page = next(p for p in twin.workspace.pages.values() if p.publishable)
    twin.workspace.set_publishable(twin_page.id, False)
    twin_rows = collect_paginated_api(_client(twin).data_sources.query, data_source_id=source_id,
                                      filter=PUBLISHABLE)
    assert len(twin_rows) == len(before) - 1
    assert collect_paginated_api(client.data_sources.query, data_source_id=source_id,
                                 filter=PUBLISHABLE) == before
