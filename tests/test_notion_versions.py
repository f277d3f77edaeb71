"""Each served ``Notion-Version`` answers in its own shapes: 2022-06-28's databases with their properties,
the data sources of 2025-09-03 and later, and Notion's own errors for a route or value a version lacks."""

from __future__ import annotations

import pytest

from lab.simulator.spec import WorkspaceSpecError, check_workspace_spec
from lab.simulator.versions import API_VERSIONS, SERVED_VERSIONS
from tests.notion_fixtures import call, data_source_id, make_simulator, small_spec

OLD, MIDDLE, NEW = "2022-06-28", "2025-09-03", "2026-03-11"


@pytest.fixture
def sim():
    return make_simulator()


def database_id(sim) -> str:
    return sim.workspace.data_sources[data_source_id(sim)].database_id


def assert_error(response, status: int, code: str, message: str) -> None:
    assert response.status == status, response.body
    body = response.body
    assert (body["object"], body["status"], body["code"], body["message"]) == ("error", status, code, message)


def test_the_table_names_every_served_version_oldest_first() -> None:
    assert SERVED_VERSIONS == (OLD, MIDDLE, NEW)
    assert [API_VERSIONS[v].row_parent for v in SERVED_VERSIONS] == ["database_id", "data_source_id",
                                                                      "data_source_id"]


def test_an_unserved_version_is_refused_naming_all_three(sim) -> None:
    response = call(sim, "GET", "/v1/users/me", version="2021-05-13")
    assert response.status == 400 and f"use one of {OLD}, {MIDDLE}, {NEW}." in response.body["message"]
    assert call(sim, "GET", "/v1/users/me", version=OLD).status == 200


def test_old_version_retrieves_a_database_with_its_properties(sim) -> None:
    body = call(sim, "GET", f"/v1/databases/{database_id(sim)}", version=OLD).body
    assert body["object"] == "database" and body["id"] == database_id(sim)
    assert set(body["properties"]) == {"Nombre", "Tipo", "Publicable"}
    assert body["archived"] is body["in_trash"] is False and "data_sources" not in body


@pytest.mark.parametrize("version", [MIDDLE, NEW])
def test_newer_versions_retrieve_the_database_as_a_container_of_data_sources(sim, version: str) -> None:
    body = call(sim, "GET", f"/v1/databases/{database_id(sim)}", version=version).body
    assert body["object"] == "database" and "properties" not in body
    assert body["data_sources"] == [{"id": data_source_id(sim), "name": "Base de conocimiento"}]


def test_old_version_queries_the_database_and_rows_name_it_as_parent(sim) -> None:
    old = call(sim, "POST", f"/v1/databases/{database_id(sim)}/query", {}, version=OLD).body
    new = call(sim, "POST", f"/v1/data_sources/{data_source_id(sim)}/query", {}, version=NEW).body
    assert [r["id"] for r in old["results"]] == [r["id"] for r in new["results"]] and old["results"]
    assert old["type"] == "page_or_database" and "page_or_database" in old
    row = old["results"][0]
    assert row["parent"] == {"type": "database_id", "database_id": database_id(sim)}
    assert row["archived"] is row["in_trash"] is False


def test_old_version_query_filters_and_sorts_as_the_data_source_query(sim) -> None:
    body = {"filter": {"property": "Publicable", "checkbox": {"equals": True}},
            "sorts": [{"timestamp": "last_edited_time", "direction": "descending"}]}
    old = call(sim, "POST", f"/v1/databases/{database_id(sim)}/query", body, version=OLD).body
    new = call(sim, "POST", f"/v1/data_sources/{data_source_id(sim)}/query", body, version=NEW).body
    assert [r["id"] for r in old["results"]] == [r["id"] for r in new["results"]]


def test_old_version_has_no_data_source_routes(sim) -> None:
    for method, path in (("GET", f"/v1/data_sources/{data_source_id(sim)}"),
                         ("POST", f"/v1/data_sources/{data_source_id(sim)}/query")):
        assert_error(call(sim, method, path, {} if method == "POST" else None, version=OLD),
                     400, "invalid_request_url", "Invalid request URL.")


@pytest.mark.parametrize("version", [MIDDLE, NEW])
def test_only_the_old_version_has_the_database_query_route(sim, version: str) -> None:
    path = f"/v1/databases/{database_id(sim)}/query"
    assert call(sim, "POST", path, {}, version=OLD).status == 200
    assert_error(call(sim, "POST", path, {}, version=version), 400, "invalid_request_url", "Invalid request URL.")


def test_old_version_search_finds_databases_not_data_sources(sim) -> None:
    found = call(sim, "POST", "/v1/search", {"filter": {"property": "object", "value": "database"}}, version=OLD)
    assert found.body["type"] == "page_or_database"
    assert [(r["object"], r["id"]) for r in found.body["results"]] == [("database", database_id(sim))]
    refused = call(sim, "POST", "/v1/search", {"filter": {"property": "object", "value": "data_source"}},
                   version=OLD)
    assert refused.status == 400 and '"database"' in refused.body["message"]
    everything = call(sim, "POST", "/v1/search", {}, version=OLD).body["results"]
    assert {r["object"] for r in everything} == {"page", "database"}


@pytest.mark.parametrize("version", [MIDDLE, NEW])
def test_only_the_old_version_takes_the_database_search_filter(sim, version: str) -> None:
    body = {"filter": {"property": "object", "value": "database"}}
    assert call(sim, "POST", "/v1/search", body, version=OLD).status == 200
    response = call(sim, "POST", "/v1/search", body, version=version)
    assert response.status == 400 and response.body["code"] == "validation_error"


def test_a_trashed_page_says_so_under_both_names_until_2026_03_11(sim) -> None:
    """Notion added ``in_trash`` to every version in April 2024, ``archived`` kept beside it until 2026-03-11
    (responses recorded with 2022-06-28 in December 2024 carry both)."""
    page = sim.workspace.page_id("politica-cancel")
    sim.workspace.move_to_trash(page)
    trash = {v: {k: body[k] for k in ("archived", "in_trash") if k in body}
             for v in SERVED_VERSIONS for body in [call(sim, "GET", f"/v1/pages/{page}", version=v).body]}
    assert trash == {OLD: {"archived": True, "in_trash": True}, MIDDLE: {"archived": True, "in_trash": True},
                     NEW: {"in_trash": True}}
    assert [API_VERSIONS[v].trash_fields for v in SERVED_VERSIONS] == [("archived", "in_trash"),
                                                                        ("archived", "in_trash"), ("in_trash",)]


def test_meeting_notes_keep_their_old_block_type_before_2026(sim) -> None:
    draft = sim.workspace.page_id("borrador")
    kinds = {v: call(sim, "GET", f"/v1/blocks/{draft}/children", version=v).body["results"][0]["type"]
             for v in SERVED_VERSIONS}
    assert kinds == {OLD: "transcription", MIDDLE: "transcription", NEW: "meeting_notes"}


def test_an_unknown_database_is_not_found(sim) -> None:
    missing = "00000000-0000-4000-8000-000000000000"
    response = call(sim, "POST", f"/v1/databases/{missing}/query", {}, version=OLD)
    assert response.status == 404 and response.body["message"].startswith(f"Could not find database with ID: {missing}.")


def multi_source_simulator():
    spec = small_spec(long_children=3)
    kb = spec["data_sources"][0]
    kb["database"] = "catalogo"
    spec["data_sources"].append({**kb, "key": "kb-2", "title": "Catálogo de temporada"})
    spec["integrations"][0]["shares"].append({"type": "data_source", "key": "kb-2"})
    return make_simulator(spec=spec)


@pytest.mark.parametrize("method, suffix", [("GET", ""), ("POST", "/query")])
def test_a_database_with_several_data_sources_is_refused_by_the_old_version(method: str, suffix: str) -> None:
    sim = multi_source_simulator()
    database = database_id(sim)
    response = call(sim, method, f"/v1/databases/{database}{suffix}", {} if method == "POST" else None, version=OLD)
    assert_error(response, 400, "validation_error",
                 "Databases with multiple data sources are not supported in this API version.")
    assert response.body["additional_data"] == {
        "error_type": "multiple_data_sources_for_database", "database_id": database,
        "child_data_source_ids": list(sim.workspace.data_sources), "minimum_api_version": MIDDLE}
    container = call(sim, "GET", f"/v1/databases/{database}", version=NEW).body
    assert [d["id"] for d in container["data_sources"]] == list(sim.workspace.data_sources)


def test_a_spec_names_a_shared_database_with_text() -> None:
    spec = small_spec(long_children=3)
    spec["data_sources"][0]["database"] = 7
    with pytest.raises(WorkspaceSpecError, match=r"data_sources\[0\]\.database: should be a non-empty string"):
        check_workspace_spec(spec)
    spec["data_sources"][0]["database"] = "catalogo"
    check_workspace_spec(spec)
