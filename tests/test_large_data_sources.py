"""Past 10,000 rows: a data source is read whole in creation-time windows, each row once."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from lab.client import IncompleteListError, NoPacing, NotionClient, query_every_row
from lab.clock import SimulatedClock
from lab.simulator import LimitsConfig, NotionSimulator, Workspace, in_process_session
from lab.simulator import simulator as simulator_module
from lab.simulator.simulator import QUERY_RESULT_LIMIT

START = datetime(2026, 1, 1, tzinfo=timezone.utc)


def _minute(n: int) -> str:
    return (START + timedelta(minutes=n)).strftime("%Y-%m-%dT%H:%M:00.000Z")


def _spec(minutes: list[int], publishable_every: int = 1) -> dict[str, Any]:
    """A data source whose row ``i`` was created at minute ``minutes[i]`` (many rows may share one)."""
    return {"name": "Grande", "users": [],
            "data_sources": [{"key": "kb", "title": "KB", "created": _minute(0),
                              "properties": {"Nombre": {"type": "title"}, "Publicable": {"type": "checkbox"}}}],
            "pages": [{"key": f"p{i}", "title": f"P {i}", "parent": {"type": "data_source", "key": "kb"},
                       "created": _minute(m), "publishable": i % publishable_every == 0, "blocks": []}
                      for i, m in enumerate(minutes)],
            "integrations": [{"key": "indexador", "name": "I", "shares": [{"type": "data_source", "key": "kb"}]}]}


def _reader(spec: dict[str, Any]) -> tuple[NotionSimulator, NotionClient, str]:
    clock = SimulatedClock(start=START + timedelta(days=60))
    sim = NotionSimulator(Workspace.from_spec(spec, clock), clock=clock, limits=LimitsConfig(plan="enterprise"))
    client = NotionClient(sim.token_for("indexador"), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    return sim, client, next(iter(sim.workspace.data_sources))


@pytest.fixture(scope="module")
def big() -> tuple[NotionSimulator, NotionClient, str]:
    """25,000 rows, created 7 to a minute: every window boundary falls inside a minute of ties."""
    return _reader(_spec([i // 7 for i in range(25_000)]))


@pytest.mark.slow
def test_every_row_of_25000_is_read_once_in_three_windows(big) -> None:
    sim, client, ds = big
    before = len(client.log)
    read = query_every_row(client.data_sources.query, ds)
    ids = [row["id"] for row in read.rows]
    assert len(ids) == 25_000 and len(set(ids)) == 25_000
    assert read.windows == 3  # 10,000 + 10,000 + the rest, each window restarting in a minute of ties
    assert [row["created_time"] for row in read.rows] == sorted(row["created_time"] for row in read.rows)
    assert len(client.log) - before == 100 + 100 + 51  # each window re-reads at most the ties of its first minute


@pytest.mark.slow
def test_a_filter_is_kept_in_every_window(big) -> None:
    _, client, ds = big
    read = query_every_row(client.data_sources.query, ds,
                           filter={"property": "Nombre", "title": {"does_not_contain": "5"}})
    expected = sum("5" not in f"P {i}" for i in range(25_000))
    assert len(read.rows) == expected == len({row["id"] for row in read.rows}) and read.windows == 2


def test_a_query_that_fits_costs_what_a_plain_one_does(big) -> None:
    _, client, ds = big
    before = len(client.log)
    read = query_every_row(client.data_sources.query, ds, filter={"property": "Nombre", "title": {"equals": "P 7"}})
    assert [row["properties"]["Nombre"]["title"][0]["plain_text"] for row in read.rows] == ["P 7"]
    assert read.windows == 1 and len(client.log) - before == 1


@pytest.mark.slow
def test_more_rows_created_in_one_minute_than_a_query_returns_is_refused_naming_the_minute() -> None:
    _, client, ds = _reader(_spec([3] * (QUERY_RESULT_LIMIT + 5)))
    with pytest.raises(IncompleteListError, match=f"created at {_minute(3)}.*narrow the query"):
        query_every_row(client.data_sources.query, ds)


@settings(max_examples=40, deadline=None)
@given(limit=st.integers(5, 40), minutes=st.lists(st.integers(0, 30), min_size=1, max_size=120),
       page_size=st.integers(1, 25))
def test_any_cut_inside_any_run_of_ties_loses_and_repeats_nothing(limit, minutes, page_size) -> None:
    if max(minutes.count(m) for m in set(minutes)) >= limit:  # a minute no window can hold: refused, tested above
        return
    _, client, ds = _reader(_spec(minutes))
    original = simulator_module.QUERY_RESULT_LIMIT
    simulator_module.QUERY_RESULT_LIMIT = limit
    try:
        read = query_every_row(client.data_sources.query, ds, page_size=page_size)
    finally:
        simulator_module.QUERY_RESULT_LIMIT = original
    assert sorted(row["id"] for row in read.rows) == sorted({row["id"] for row in read.rows})
    assert len(read.rows) == len(minutes)


def test_rows_created_or_edited_during_the_read_are_all_there(monkeypatch) -> None:
    sim, client, ds = _reader(_spec([i // 3 for i in range(300)]))
    monkeypatch.setattr(simulator_module, "QUERY_RESULT_LIMIT", 50)
    workspace, calls = sim.workspace, 0

    def query_while_people_work(**body: Any) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        if calls % 4 == 0:  # someone renames an early row and another adds a row
            workspace.rename(workspace.page_id(f"p{calls}"), f"P {calls} (renamed)")
            workspace.add_page({"key": f"new{calls}", "title": f"New {calls}",
                                "parent": {"type": "data_source", "key": "kb"}, "blocks": []})
            sim.clock.advance(60)
        return client.data_sources.query(**body)

    read = query_every_row(query_while_people_work, ds, page_size=20)
    ids = [row["id"] for row in read.rows]
    assert len(ids) == len(set(ids)) == len([p for p in workspace.pages.values() if p.parent_type == "data_source_id"])
    assert read.windows > 6


@pytest.mark.slow
def test_a_shaped_read_keeps_only_what_the_shape_returns_and_still_reads_every_row(big) -> None:
    _, client, ds = big
    read = query_every_row(client.data_sources.query, ds, shape=lambda row: {"id": row["id"],
                                                                            "created_time": row["created_time"]})
    assert len(read.rows) == 25_000 == len({row["id"] for row in read.rows}) and read.windows == 3
    assert all(set(row) == {"id", "created_time"} for row in read.rows)


def test_the_fields_a_listing_keeps_give_every_page_the_metadata_of_its_whole_object() -> None:
    from lab.ingest.page_reads import PageRead, page_essentials
    from lab.ingest.reading import find_data_source, publishable_pages
    from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator

    sim = bakery_simulator(seed=0)
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    rows = publishable_pages(client, find_data_source(client)["id"]).rows
    assert len(rows) == 40
    for row in rows:
        kept = page_essentials(row)
        assert PageRead(kept, []).info == PageRead(row, []).info
        assert len(str(kept)) < len(str(row)) / 2
