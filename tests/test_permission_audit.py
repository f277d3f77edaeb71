"""The permission audit reads a sub-page inside a block (a toggle, a column) as the indexer does:
under the page that holds the block, found with one ``blocks.retrieve`` per block on the way."""

from __future__ import annotations

from lab.ingest.permission_audit import (audit_integration, audit_integrations, audit_summary, integration_roots,
                                           roots_table)
from lab.simulator import NotionSimulator
from sync_histories import INTEGRATION, _client, small_workspace, sub_page_in_toggle


def audited(ws):
    """The audit's rows by title, and the endpoints it called."""
    client = _client(NotionSimulator(ws, seed=1), None)
    rows = {row.title: row for row in audit_integration(client, "Indexer")}
    return rows, list(client.log.frame()["endpoint"])


def test_a_sub_page_inside_a_toggle_of_a_publishable_row_is_not_flagged() -> None:
    ws = small_workspace()
    sub_page_in_toggle(ws, "delivery")
    rows, _ = audited(ws)
    assert (rows["Zonas"].parent, rows["Zonas"].flag, rows["Zonas"].reason) == \
        ("block_id", "", "a sub-page of a publishable row")


def test_a_sub_page_inside_a_toggle_of_an_unpublished_row_is_flagged_private() -> None:
    ws = small_workspace()
    sub_page_in_toggle(ws, "draft")
    rows, _ = audited(ws)
    assert (rows["Zonas"].flag, rows["Zonas"].reason) == ("private", "a sub-page of an unpublished row")


def test_the_audit_reads_blocks_only_for_pages_inside_blocks_and_each_block_once() -> None:
    ws = small_workspace()
    _, endpoints = audited(ws)
    assert endpoints == ["search"]
    sub_page_in_toggle(ws, "delivery")
    sub_page_in_toggle(ws, "delivery", "more", "Más zonas")
    sub_page_in_toggle(ws, "hours", "extra", "Festivos")
    _, endpoints = audited(ws)
    assert endpoints == ["search", "blocks.retrieve", "blocks.retrieve"]  # one per toggle


def test_a_sub_page_shared_alone_inside_a_toggle_of_a_hidden_page_is_flagged_private() -> None:
    ws = small_workspace()
    zones = sub_page_in_toggle(ws, "delivery")
    ws.share(INTEGRATION, zones)
    ws.unshare(INTEGRATION, ws.page_id("delivery"))
    rows, _ = audited(ws)
    assert (rows["Zonas"].flag, rows["Zonas"].reason) == ("private", "a sub-page whose parent is not visible")
    assert "Entregas" not in rows


def roots_of(ws) -> list[tuple[str, str]]:
    client = _client(NotionSimulator(ws, seed=1), None)
    return [(root.kind, root.title) for root in integration_roots(client, "Indexer")]


def test_an_integration_shared_with_a_data_source_has_that_one_root_whatever_hangs_below() -> None:
    ws = small_workspace()
    sub_page_in_toggle(ws, "delivery")  # a sub-page below a row: below the root, not another one
    assert roots_of(ws) == [("data_source", "KB")]


def test_a_page_shared_apart_becomes_a_root_and_stops_being_one_once_its_parent_is_shared() -> None:
    ws = small_workspace()
    ws.share(INTEGRATION, ws.page_id("secret"))
    assert roots_of(ws) == [("data_source", "KB"), ("page", "Recetas")]
    zones = sub_page_in_toggle(ws, "delivery")
    ws.share(INTEGRATION, zones)
    ws.unshare(INTEGRATION, ws.page_id("delivery"))  # its parent row hidden: the sub-page is a root of its own
    assert ("page", "Zonas") in roots_of(ws)


def test_the_summary_names_each_integrations_roots_beside_its_counts() -> None:
    ws = small_workspace()
    ws.share(INTEGRATION, ws.page_id("secret"))
    clients = {"Indexer": _client(NotionSimulator(ws, seed=1), None)}
    summary = audit_summary(audit_integrations(clients), roots_table(clients))
    row = summary.iloc[0]
    assert row["roots"] == "KB (data source); Recetas" and row["private"] == 2  # Recetas, and Notas under a draft
    assert list(summary.columns) == ["integration", "roots", "visible", "publishable", "drafts", "private"]
