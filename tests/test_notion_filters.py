"""Data-source query filters and sorts select and order exactly the right pages."""

from __future__ import annotations

import pytest

from tests.notion_fixtures import call, data_source_id, make_simulator


def titles(sim, body) -> list[str]:
    response = call(sim, "POST", f"/v1/data_sources/{data_source_id(sim)}/query", body)
    assert response.status == 200, response.body
    return [p["properties"]["Nombre"]["title"][0]["plain_text"] for p in response.body["results"]]


@pytest.fixture(scope="module")
def sim():
    return make_simulator()


def test_no_filter_lists_every_row_not_in_the_trash_oldest_first(sim) -> None:
    assert titles(sim, {}) == ["Ficha: Rol de canela", "Política de cancelaciones", "Preguntas frecuentes: larga",
                               "Borrador: propinas"]


def test_checkbox_equals_and_does_not_equal(sim) -> None:
    publishable = {"filter": {"property": "Publicable", "checkbox": {"equals": True}}}
    drafts = {"filter": {"property": "Publicable", "checkbox": {"does_not_equal": True}}}
    assert "Borrador: propinas" not in titles(sim, publishable)
    assert titles(sim, drafts) == ["Borrador: propinas"]


def test_select_equals(sim) -> None:
    assert titles(sim, {"filter": {"property": "Tipo", "select": {"equals": "politica"}}}) == [
        "Política de cancelaciones", "Borrador: propinas"]


def test_title_contains_is_case_insensitive(sim) -> None:
    assert titles(sim, {"filter": {"property": "Nombre", "title": {"contains": "ROL"}}}) == ["Ficha: Rol de canela"]


@pytest.mark.parametrize("op, value, expected", [
    ("on_or_after", "2026-03-05T08:00:00.000Z", {"Política de cancelaciones", "Preguntas frecuentes: larga",
                                                 "Borrador: propinas"}),
    ("after", "2026-03-05T08:00:00.000Z", {"Política de cancelaciones", "Borrador: propinas"}),
    ("before", "2026-03-05T08:00:00.000Z", {"Ficha: Rol de canela"}),
    ("on_or_before", "2026-03-05T08:00:00.000Z", {"Ficha: Rol de canela", "Preguntas frecuentes: larga"}),
    ("equals", "2026-03-20T17:42:00.000Z", {"Política de cancelaciones"}),
    ("equals", "2026-03-20", {"Política de cancelaciones"}),
])
def test_last_edited_time_filters(sim, op, value, expected) -> None:
    body = {"filter": {"timestamp": "last_edited_time", "last_edited_time": {op: value}}}
    assert set(titles(sim, body)) == expected


def test_created_time_filter(sim) -> None:
    body = {"filter": {"timestamp": "created_time", "created_time": {"after": "2026-02-03"}}}
    assert titles(sim, body) == ["Borrador: propinas"]


def test_and_or_nested_two_levels(sim) -> None:
    body = {"filter": {"and": [
        {"property": "Publicable", "checkbox": {"equals": True}},
        {"or": [{"property": "Tipo", "select": {"equals": "ficha"}},
                {"property": "Tipo", "select": {"equals": "faq"}}]}]}}
    assert titles(sim, body) == ["Ficha: Rol de canela", "Preguntas frecuentes: larga"]


def test_sorts_by_property_and_timestamp(sim) -> None:
    by_title = titles(sim, {"sorts": [{"property": "Nombre", "direction": "descending"}]})
    assert by_title == sorted(by_title, reverse=True)
    by_edit = titles(sim, {"sorts": [{"timestamp": "last_edited_time", "direction": "descending"}]})
    assert by_edit[0] == "Política de cancelaciones"


def test_a_property_is_named_by_its_name_or_by_its_id_as_notion_allows(sim) -> None:
    """Notion's filter and sort objects take "the name or ID of the property"; the ids are those the
    data source's schema gives (the title's is always `title`)."""
    schema = call(sim, "GET", f"/v1/data_sources/{data_source_id(sim)}").body["properties"]
    kind = schema["Tipo"]["id"]
    by_name = titles(sim, {"filter": {"property": "Tipo", "select": {"equals": "politica"}},
                           "sorts": [{"property": "Nombre", "direction": "descending"}]})
    by_id = titles(sim, {"filter": {"property": kind, "select": {"equals": "politica"}},
                         "sorts": [{"property": "title", "direction": "descending"}]})
    assert by_id == by_name == ["Política de cancelaciones", "Borrador: propinas"]
    assert titles(sim, {"filter": {"property": "title", "title": {"contains": "ROL"}}}) == ["Ficha: Rol de canela"]


def test_the_official_sdks_optional_query_parameters_are_accepted(sim) -> None:
    """@notionhq/client 5.26 and notion-client 3.1 send `in_trash`, `archived` and `result_type` in a
    data source query's body when asked: false (the default) lists what no parameter lists, true the
    rows in the trash; `result_type` "page" keeps the rows, "data_source" keeps none (a data source here
    holds pages only)."""
    everything = titles(sim, {})
    assert titles(sim, {"in_trash": False}) == titles(sim, {"archived": False}) == everything
    assert titles(sim, {"in_trash": True}) == titles(sim, {"archived": True}) == ["Aviso: viejo"]
    assert titles(sim, {"result_type": "page"}) == everything and titles(sim, {"result_type": "data_source"}) == []
    path = f"/v1/data_sources/{data_source_id(sim)}/query"
    for body, fragment in (({"in_trash": "no"}, "body.in_trash should be a boolean"),
                           ({"result_type": "database"}, "body.result_type should be")):
        answer = call(sim, "POST", path, body)
        assert answer.status == 400 and fragment in answer.body["message"], answer.body
