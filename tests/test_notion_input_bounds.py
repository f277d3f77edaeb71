"""Strings, numbers and nesting a client should never send get a Notion-shaped 400, in process
and over HTTP alike: never a 500, a dropped connection or a traceback."""

from __future__ import annotations

import json

import pytest
import requests

from lab.notion.api import NOTION_API_URL
from lab.simulator import LimitsConfig, in_process_session
from lab.simulator.json_wire import MAX_INTEGER_DIGITS, MAX_JSON_DEPTH, parse_json_body
from lab.simulator.errors import APIError
from lab.simulator.server import serve_in_background
from tests.notion_fixtures import data_source_id, headers, make_simulator

UNLIMITED = LimitsConfig(connection_budget=10 ** 9, workspace_budget=10 ** 9)
SIM = make_simulator(limits=UNLIMITED)
DS = data_source_id(SIM)


def _deep_filter(levels: int) -> bytes:
    condition = b'{"property": "Publicable", "checkbox": {"equals": true}}'
    return b'{"filter": ' + b'{"and": [' * levels + condition + b"]}" * levels + b"}"


# (case, path, raw body, fragment of the message)
CATALOGUE = [
    ("lone surrogate in a cursor", "/v1/search", rb'{"start_cursor": "\ud800"}', "surrogate"),
    ("lone surrogate in a sort property", f"/v1/data_sources/{DS}/query", rb'{"sorts": [{"property": "\ud800"}]}',
     "surrogate"),
    ("lone surrogate in a search query", "/v1/search", rb'{"query": "pan \udfff"}', "surrogate"),
    ("lone surrogate in a title filter", f"/v1/data_sources/{DS}/query",
     rb'{"filter": {"property": "Nombre", "title": {"contains": "\ud83d"}}}', "surrogate"),
    ("lone surrogate in an object key", "/v1/search", rb'{"\udc00": 1}', "surrogate"),
    ("a filter nested 1000 deep", f"/v1/data_sources/{DS}/query", _deep_filter(1000), "deeper than"),
    ("JSON nested 100,000 deep", "/v1/search", b"[" * 100_000 + b"]" * 100_000, "deeper than"),
    ("JSON objects nested 50,000 deep", "/v1/search", b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "deeper than"),
    ("a page_size of 5,000 digits", "/v1/search", b'{"page_size": ' + b"9" * 5_000 + b"}", "digits"),
    ("a page_size too large for a float", "/v1/search", b'{"page_size": 1e400}', "page_size"),
    ("NaN in a body", "/v1/search", b'{"page_size": NaN}', "NaN"),
    ("-Infinity in a body", "/v1/search", b'{"page_size": -Infinity}', "Infinity"),
    ("sorts[].property given as a list", f"/v1/data_sources/{DS}/query", b'{"sorts": [{"property": ["Tipo"]}]}',
     "sorts[0].property should be a string"),
    ("sorts[].property given as an object", f"/v1/data_sources/{DS}/query",
     b'{"sorts": [{"property": {"name": "Tipo"}}]}', "sorts[0].property should be a string"),
    ("a sort by both a property and a timestamp", f"/v1/data_sources/{DS}/query",
     b'{"sorts": [{"property": "Tipo", "timestamp": "last_edited_time"}]}', "either `property` or `timestamp`"),
    ("a sort with a misspelt key", f"/v1/data_sources/{DS}/query",
     b'{"sorts": [{"property": "Tipo", "direccion": "descending"}]}', "unknown key(s) `\"direccion\"`"),
    ("a search filter.value given as a list", "/v1/search", b'{"filter": {"property": "object", "value": ["page"]}}',
     "body.filter"),
    ("a search filter.value given as an object", "/v1/search",
     b'{"filter": {"property": "object", "value": {"page": 1}}}', "body.filter"),
    ("a filter property name given as a list", f"/v1/data_sources/{DS}/query",
     b'{"filter": {"property": ["Tipo"], "select": {"equals": "faq"}}}', "Could not find property"),
    ("a body that is not UTF-8", "/v1/search", b'{"query": "\xff\xfe"}', "UTF-8"),
]


@pytest.fixture(scope="module")
def http_base():
    with serve_in_background(SIM) as server:
        yield server.base_url


@pytest.fixture(params=["in process", "over HTTP"])
def send(request, http_base):
    """POST raw bytes through one transport: the in-process ``requests`` adapter or the socket."""
    if request.param == "in process":
        session, base = in_process_session(SIM), NOTION_API_URL
    else:
        session, base = requests.Session(), http_base
    with session:
        def post(path: str, raw: bytes) -> requests.Response:
            return session.post(base + path, data=raw, timeout=10,
                                headers={**headers(SIM), "Content-Type": "application/json"})
        yield post


@pytest.mark.parametrize("case", CATALOGUE, ids=[c[0] for c in CATALOGUE])
def test_a_body_no_client_should_send_gets_a_400_on_both_transports(send, case) -> None:
    _, path, raw, fragment = case
    response = send(path, raw)
    body = response.json()
    assert response.status_code == 400, body
    assert body["object"] == "error" and body["code"] in ("validation_error", "invalid_json"), body
    assert fragment in body["message"]
    assert len(body["message"]) < 300  # an error never echoes a whole body back


def test_a_lone_surrogate_in_a_query_string_or_header_is_a_400_in_process() -> None:
    """Only an in-process caller can hand the simulator a lone surrogate outside a body (HTTP
    delivers bytes, which the server decodes)."""
    page = SIM.workspace.page_id("faq-larga")
    for query, extra in (({"start_cursor": "\ud800"}, {}), ({}, {"Notion-Version": "2026-03-11\udfff"})):
        response = SIM.handle("GET", f"/v1/blocks/{page}/children", headers={**headers(SIM), **extra}, query=query)
        assert response.status == 400 and response.body["code"] == "validation_error"
        assert "surrogate" in response.body["message"]
        json.dumps(response.body).encode("utf-8")  # the answer itself can be written


def test_the_deepest_filter_notion_accepts_is_well_inside_the_nesting_bound() -> None:
    two_levels = b'{"filter": {"and": [{"or": [{"property": "Publicable", "checkbox": {"equals": true}}]}]}}'
    assert parse_json_body(two_levels)["filter"]["and"][0]["or"]
    assert parse_json_body(b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH) is not None
    with pytest.raises(APIError):
        parse_json_body(b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1))


def test_brackets_inside_strings_do_not_count_towards_the_nesting_bound() -> None:
    text = json.dumps({"query": "[" * 1_000 + '\\"{' * 500}).encode()
    assert parse_json_body(text)["query"].startswith("[[[")


def test_integers_as_long_as_any_field_needs_are_read() -> None:
    assert parse_json_body(b'{"n": ' + b"9" * MAX_INTEGER_DIGITS + b"}")["n"] == 10 ** MAX_INTEGER_DIGITS - 1
    with pytest.raises(APIError) as refused:
        parse_json_body(b'{"n": -' + b"9" * (MAX_INTEGER_DIGITS + 1) + b"}")
    assert refused.value.status == 400 and refused.value.code == "validation_error"


def test_a_paired_surrogate_escape_is_an_ordinary_character() -> None:
    assert parse_json_body(rb'{"query": "\ud83e\udd50"}')["query"] == "\N{CROISSANT}"
