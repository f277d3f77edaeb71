"""What sharing a page does not give, as Notion answers it: a linked view of a database on a shared
page is listed as a ``child_database`` block, but the database behind it is a 404 until the
integration is connected to the database itself; an integration without the *read content*
capability gets 403 ``restricted_resource`` on every read, whatever is shared; and the reader stops
``DEFAULT_MAX_DEPTH`` levels down, naming what it did not read (lesson 01 shows all three)."""

from __future__ import annotations

import pytest

from lab.client import DEFAULT_MAX_DEPTH, NoPacing, NotionClient, WalkReport, walk_blocks
from lab.course.lesson01 import COUNTER, counter_simulator, deep_page_simulator
from lab.simulator import in_process_session
from tests.notion_fixtures import call


@pytest.fixture
def counter():
    sim = counter_simulator()
    board = sim.workspace.page_id("tablero")
    return sim, board, sim.workspace.pages[board].children[1], next(iter(sim.workspace.data_sources))


def test_the_counter_workspace_has_a_linked_view_and_three_integrations(counter) -> None:
    sim, board, view, orders = counter
    assert sim.workspace.blocks[view].type == "child_database" and view != orders
    assert sorted(sim.workspace.integrations) == sorted(COUNTER)


def test_a_page_shared_lists_its_linked_database_but_the_database_is_a_404(counter) -> None:
    sim, board, view, orders = counter
    assert call(sim, "GET", f"/v1/pages/{board}", integration="asistente").status == 200
    children = call(sim, "GET", f"/v1/blocks/{board}/children", integration="asistente").body["results"]
    assert [(b["type"], b["id"]) for b in children][1] == ("child_database", view)
    assert children[1]["child_database"] == {"title": "Pedidos"}
    for path, kind in ((f"/v1/databases/{view}", "database"), (f"/v1/databases/{orders}", "database")):
        answer = call(sim, "GET", path, integration="asistente")
        assert answer.status == 404 and answer.body["code"] == "object_not_found"
        assert answer.body["message"].startswith(f"Could not find {kind} with ID")
    answer = call(sim, "POST", f"/v1/data_sources/{orders}/query", {}, integration="asistente")
    assert answer.status == 404 and answer.body["code"] == "object_not_found"
    found = call(sim, "POST", "/v1/search", {"query": "Pedidos"}, integration="asistente").body["results"]
    assert found == []


def test_connected_to_the_database_itself_the_rows_answer_and_the_view_still_leads_nowhere(counter) -> None:
    sim, board, view, orders = counter
    rows = call(sim, "POST", f"/v1/data_sources/{orders}/query", {}, integration="asistente-conectado")
    assert rows.status == 200 and len(rows.body["results"]) == 1
    found = call(sim, "POST", "/v1/search", {"query": "Pedidos"}, integration="asistente-conectado").body["results"]
    assert [r["object"] for r in found] == ["data_source"] and found[0]["id"] == orders
    assert call(sim, "GET", f"/v1/databases/{view}", integration="asistente-conectado").status == 404
    sim.workspace.share("asistente", orders)  # connecting the page-only integration to the database
    assert call(sim, "POST", f"/v1/data_sources/{orders}/query", {}, integration="asistente").status == 200


@pytest.mark.parametrize("method, path, body", [
    ("GET", "/v1/pages/{board}", None), ("GET", "/v1/blocks/{board}", None),
    ("GET", "/v1/blocks/{board}/children", None), ("GET", "/v1/databases/{database}", None),
    ("GET", "/v1/data_sources/{orders}", None), ("POST", "/v1/data_sources/{orders}/query", {}),
    ("POST", "/v1/search", {"query": "Pedidos"}),
])
def test_without_read_content_every_read_is_a_403_restricted_resource(counter, method, path, body) -> None:
    sim, board, view, orders = counter
    database = sim.workspace.data_sources[orders].database_id
    answer = call(sim, method, path.format(board=board, orders=orders, database=database), body,
                  integration="sin-lectura")
    assert answer.status == 403 and answer.body["code"] == "restricted_resource"
    assert answer.body["message"].startswith("Insufficient permissions for this endpoint")
    assert call(sim, "GET", "/v1/users/me", integration="sin-lectura").status == 200


@pytest.mark.parametrize("levels, innermost_read, too_deep", [
    (DEFAULT_MAX_DEPTH, True, 0), (DEFAULT_MAX_DEPTH + 1, False, 1), (DEFAULT_MAX_DEPTH + 2, False, 1)])
def test_the_reader_stops_at_its_depth_fuse_and_names_the_block_it_did_not_enter(levels, innermost_read,
                                                                                  too_deep) -> None:
    sim = deep_page_simulator(levels)
    client = NotionClient(sim.token_for("indexador"), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    report = WalkReport()
    read = list(walk_blocks(client, sim.workspace.page_id("anidada"), report=report))
    assert max(depth for depth, _ in read) == DEFAULT_MAX_DEPTH
    assert any(block["type"] == "paragraph" for _, block in read) == innermost_read
    assert len(report.too_deep) == too_deep
    if too_deep:
        assert sim.workspace.blocks[report.too_deep[0]].content["rich_text"][0]["plain_text"] == \
            f"Nivel {DEFAULT_MAX_DEPTH + 1}"
