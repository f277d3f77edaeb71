"""Every row of the contract's error table, answered with a Notion-shaped body."""

from __future__ import annotations

import pytest

from lab.simulator.simulator import MAX_BODY_BYTES
from tests.notion_fixtures import call, data_source_id, make_simulator


def assert_error(response, status: int, code: str, fragment: str = "") -> None:
    assert response.status == status, response.body
    body = response.body
    assert body["object"] == "error" and body["status"] == status and body["code"] == code
    assert isinstance(body["request_id"], str) and body["message"]
    assert fragment in body["message"]


@pytest.fixture
def sim():
    return make_simulator()


def test_body_that_is_not_json_is_invalid_json(sim) -> None:
    assert_error(call(sim, "POST", "/v1/search", raw=b"{not json"), 400, "invalid_json")


def test_body_that_is_json_but_not_an_object_is_a_validation_error(sim) -> None:
    assert_error(call(sim, "POST", "/v1/search", raw=b"[1, 2]"), 400, "validation_error", "should be an object")


def test_unknown_path_is_invalid_request_url(sim) -> None:
    assert_error(call(sim, "GET", "/v1/nowhere"), 400, "invalid_request_url")
    assert_error(call(sim, "GET", "/v2/search"), 400, "invalid_request_url")


def test_known_path_with_unsupported_method_is_invalid_request(sim) -> None:
    assert_error(call(sim, "GET", "/v1/search"), 400, "invalid_request", "POST")
    page = sim.workspace.page_id("ficha-rol")
    assert_error(call(sim, "DELETE", f"/v1/pages/{page}"), 400, "invalid_request")


@pytest.mark.parametrize("method, path", [("POST", "/v1/pages"), ("GET", "/v1/users"), ("GET", "/v1/pages/")])
def test_a_route_the_simulator_serves_no_method_of_says_so_in_a_whole_sentence(sim, method, path) -> None:
    response = call(sim, method, path, {} if method == "POST" else None)
    assert_error(response, 400, "invalid_request", "serves no method of /v1/")
    assert "accepts ." not in response.body["message"]


@pytest.mark.parametrize("body, fragment", [
    ({"query": 42}, "body.query should be a string"),
    ({"filter": "pages"}, "body.filter"),
    ({"filter": {"property": "object", "value": "database"}}, "body.filter"),
    ({"sort": {"timestamp": "created_time"}}, "body.sort"),
    ({"sort": {"timestamp": "last_edited_time", "direction": "ascending", "property": "x"}}, "body.sort"),
    ({"unknown_parameter": 1}, "unknown parameter"),
])
def test_search_with_wrong_types_is_a_validation_error(sim, body, fragment) -> None:
    assert_error(call(sim, "POST", "/v1/search", body), 400, "validation_error", fragment)


@pytest.mark.parametrize("flt, fragment", [
    ({"property": "Publicable", "checkbox": {"equals": "yes"}}, "should be a bool"),
    ({"property": "Publicable", "checkbox": {"is": True}}, "not a checkbox condition"),
    ({"property": "Tipo", "rich_text": {"contains": "x"}}, "should be"),
    ({"property": "No existe", "checkbox": {"equals": True}}, "Could not find property"),
    ({"timestamp": "edited", "edited": {"after": "2026-01-01"}}, "timestamp should be one of"),
    ({"timestamp": "last_edited_time", "last_edited_time": {"since": "2026-01-01"}}, "not a date condition"),
    ({"timestamp": "last_edited_time", "last_edited_time": {"after": "ayer"}}, "ISO 8601"),
    ({"nor": []}, "compound"),
    ({"and": {"property": "Publicable"}}, "should be a list"),
    ({"and": [{"or": [{"and": [{"property": "Publicable", "checkbox": {"equals": True}}]}]}]}, "two levels"),
])
def test_unknown_or_malformed_filter_is_a_validation_error(sim, flt, fragment) -> None:
    response = call(sim, "POST", f"/v1/data_sources/{data_source_id(sim)}/query", {"filter": flt})
    assert_error(response, 400, "validation_error", fragment)


@pytest.mark.parametrize("size", [0, 101, "x", -1, 2.5, True, "5", 100.5])
def test_page_size_out_of_range_or_not_an_integer_in_a_body(sim, size) -> None:
    assert_error(call(sim, "POST", "/v1/search", {"page_size": size}), 400, "validation_error", "page_size")


def test_a_page_size_in_a_body_is_a_json_number_as_notion_reads_it(sim) -> None:
    """Only a query string carries numbers as text; in a body `"5"` is a string (400), and `5.0` is the
    number 5, as JavaScript's JSON.parse, and so Notion, reads it."""
    assert "should be a number" in call(sim, "POST", "/v1/search", {"page_size": "5"}).body["message"]
    answer = call(sim, "POST", "/v1/search", raw=b'{"page_size": 2.0}')
    assert answer.status == 200 and len(answer.body["results"]) == 2


@pytest.mark.parametrize("size", ["0", "101", "x", ""])
def test_page_size_out_of_range_or_not_an_integer_in_a_query_string(sim, size) -> None:
    page = sim.workspace.page_id("ficha-rol")
    response = call(sim, "GET", f"/v1/blocks/{page}/children", query={"page_size": size})
    assert_error(response, 400, "validation_error", "page_size")


def test_a_cursor_that_names_no_block_of_the_listing_is_refused(sim) -> None:
    ws = sim.workspace
    page, other = ws.page_id("faq-larga"), ws.page_id("ficha-rol")
    forged = [
        ws.pages[other].children[1],  # a well-formed id of a block elsewhere
        page,  # the page itself: no child of its own
        "12345678-1234-5678-1234-567812345678",  # well-formed, never issued
        "Mg.8996b3d1cfd0ba7fe8da",  # the shape of an opaque token: Notion's cursors are ids
        "garbage",
        "",
    ]
    for cursor in forged:
        response = call(sim, "GET", f"/v1/blocks/{page}/children", query={"start_cursor": cursor})
        assert_error(response, 400, "validation_error", "The start_cursor provided is invalid: ")


def test_a_cursor_from_one_parent_is_refused_by_another(sim) -> None:
    ws = sim.workspace
    page, other = ws.page_id("faq-larga"), ws.page_id("ficha-rol")
    genuine = call(sim, "GET", f"/v1/blocks/{page}/children", query={"page_size": "10"}).body["next_cursor"]
    assert call(sim, "GET", f"/v1/blocks/{page}/children", query={"start_cursor": genuine}).status == 200
    response = call(sim, "GET", f"/v1/blocks/{other}/children", query={"start_cursor": genuine})
    assert_error(response, 400, "validation_error", f"The start_cursor provided is invalid: {genuine}")


def test_missing_version_header(sim) -> None:
    assert_error(call(sim, "POST", "/v1/search", {}, version=None), 400, "missing_version")


def test_unknown_version_lists_the_accepted_ones(sim) -> None:
    response = call(sim, "POST", "/v1/search", {}, version="2021-05-13")
    assert_error(response, 400, "validation_error", "2022-06-28, 2025-09-03, 2026-03-11")


def test_missing_or_unknown_token_is_unauthorized(sim) -> None:
    for hdrs in ({"Notion-Version": "2026-03-11"},
                 {"Notion-Version": "2026-03-11", "Authorization": "Bearer ntn_not_a_real_token"},
                 {"Notion-Version": "2026-03-11", "Authorization": sim.token_for("indexador")}):  # no "Bearer"
        response = call(sim, "POST", "/v1/search", {}, hdrs=hdrs)
        assert_error(response, 401, "unauthorized", "API token is invalid.")


def test_malformed_id_in_a_path_is_a_validation_error(sim) -> None:
    assert_error(call(sim, "GET", "/v1/pages/not-a-uuid"), 400, "validation_error", "path.page_id")


def test_an_integration_without_read_capability_is_restricted(sim) -> None:
    page = sim.workspace.page_id("ficha-rol")
    assert_error(call(sim, "GET", f"/v1/pages/{page}", integration="sin-lectura"), 403, "restricted_resource")
    assert call(sim, "GET", "/v1/users/me", integration="sin-lectura").status == 200


def test_body_over_the_limit_is_refused_before_parsing_with_400(sim) -> None:
    huge = b'{"query": "' + b"a" * (MAX_BODY_BYTES + 10) + b'"}'
    assert_error(call(sim, "POST", "/v1/search", raw=huge), 400, "validation_error", "too large")


def test_every_error_response_says_it_is_json(sim) -> None:
    response = call(sim, "GET", "/v1/nowhere")
    assert response.headers["Content-Type"].startswith("application/json")


@pytest.mark.parametrize("method, route, query", [
    ("GET", "/v1/pages/{page}", {"v": "0"}),  # a Notion link pasted whole: `<id>?v=<view>`
    ("GET", "/v1/blocks/{page}", {"foo": "bar"}),
    ("GET", "/v1/blocks/{page}/children", {"v": "0"}),
    ("GET", "/v1/data_sources/{ds}", {"v": "0"}),
    ("GET", "/v1/users/me", {"foo": "bar"}),
    ("POST", "/v1/data_sources/{ds}/query", {"v": "0"}),
    ("POST", "/v1/search", {"page_size": "5"}),  # a POST route reads its parameters from the body
])
def test_a_query_parameter_the_route_does_not_take_is_refused_as_notion_refuses_it(sim, method, route, query) -> None:
    path = route.format(page=sim.workspace.page_id("ficha-rol"), ds=data_source_id(sim))
    response = call(sim, method, path, {} if method == "POST" else None, query=query)
    key, value = next(iter(query.items()))
    assert_error(response, 400, "validation_error")
    assert response.body["message"] == f'query failed validation: query.{key} should be not present, instead was `"{value}"`.'


@pytest.mark.parametrize("method, route, query", [
    ("GET", "/v1/pages/{page}", {"filter_properties": "title"}),
    ("POST", "/v1/data_sources/{ds}/query", {"filter_properties": "title"}),
    ("GET", "/v1/blocks/{page}/children", {"start_cursor": "", "page_size": "5"}),
])
def test_the_query_parameters_notion_documents_are_accepted(sim, method, route, query) -> None:
    path = route.format(page=sim.workspace.page_id("ficha-rol"), ds=data_source_id(sim))
    response = call(sim, method, path, {} if method == "POST" else None, query=query)
    assert response.status in (200, 400) and "should be not present" not in response.body.get("message", "")
