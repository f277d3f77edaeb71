"""Whatever a client sends, in process or over a socket, the answer is a 200 or Notion-shaped JSON
error, never a 500, a traceback, HTML, a dropped connection or a hang.

Bodies are drawn from JSON with lone surrogates, deep nesting and huge numbers as well as from
raw bytes; paths, query strings, methods and headers from arbitrary text. Examples are
derandomized, so CI tries the same cases every run.
"""

from __future__ import annotations

import json
import socket
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lab.simulator import LimitsConfig
from lab.simulator.server import serve_in_background
from tests.notion_fixtures import make_simulator

SIM = make_simulator(limits=LimitsConfig(connection_budget=10 ** 9, workspace_budget=10 ** 9))
TOKEN = SIM.token_for("indexador")
PAGE = SIM.workspace.page_id("ficha-rol")
DS = next(iter(SIM.workspace.data_sources))
ROUTES = ["/v1/search", f"/v1/pages/{PAGE}", f"/v1/blocks/{PAGE}", f"/v1/blocks/{PAGE}/children",
          f"/v1/data_sources/{DS}/query", f"/v1/data_sources/{DS}", "/v1/users/me", "/v1/pages/xyz", "/v1/", "/",
          "/v1/blocks//children"]
STATUSES = {200, 400, 401, 403, 404, 405, 414, 431, 505}

# ---------------------------------------------------------------------- what a client might send

strings = st.text(max_size=12) | st.sampled_from(["\ud800", "a\udfffb", "\x00", "\u202e", "é" * 3, "Publicable",
                                                  "Nombre", "Tipo", "last_edited_time", "ascending", "page"])
numbers = st.integers() | st.integers(min_value=10 ** 19, max_value=10 ** 40) | st.floats()
json_values = st.recursive(st.none() | st.booleans() | numbers | strings,
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(strings, inner, max_size=4),
                           max_leaves=16)


def _mostly(usual: st.SearchStrategy, *others: st.SearchStrategy) -> st.SearchStrategy:
    """Draws from ``usual`` three times in four, so most requests get past routing and headers."""
    return st.sampled_from([True, True, True, False]).flatmap(lambda ok: usual if ok else st.one_of(*others))


# Filters and sorts shaped like Notion's, with wrong names, operators and values mixed in.
operators = st.sampled_from(["equals", "does_not_equal", "contains", "after", "on_or_after", "before", "is"])
conditions = st.builds(lambda prop, kind, op, value: {"property": prop, kind: {op: value}},
                       st.sampled_from(["Publicable", "Tipo", "Nombre", "Nada"]) | json_values,
                       st.sampled_from(["checkbox", "select", "title", "rich_text"]), operators, json_values)
timestamps = st.builds(lambda field, op, value: {"timestamp": field, field: {op: value}},
                       st.sampled_from(["last_edited_time", "created_time", "edited"]), operators,
                       st.sampled_from(["2026-03-01", "2026-03-01T10:00:00.000Z", "ayer"]) | json_values)
filters = st.recursive(conditions | timestamps | json_values,
                       lambda inner: st.dictionaries(st.sampled_from(["and", "or", "nor"]), st.lists(inner, max_size=3),
                                                     min_size=1, max_size=1), max_leaves=6)
sorts = st.lists(st.fixed_dictionaries({}, optional={"property": st.sampled_from(["Tipo", "Nombre"]) | json_values,
                                                    "timestamp": st.sampled_from(["last_edited_time"]) | json_values,
                                                    "direction": st.sampled_from(["ascending", "descending"])
                                                    | json_values}), max_size=3) | json_values


def _encode(value: object) -> bytes:
    return json.dumps(value).encode()  # lone surrogates travel as \\udXXX escapes, floats as NaN/Infinity


def _nested(depth: int) -> bytes:
    return b'{"filter": ' + b'{"and": [' * depth + b"{}" + b"]}" * depth + b"}"


bodies = st.one_of(
    st.none(), st.binary(max_size=60), json_values.map(_encode),
    st.fixed_dictionaries({}, optional={
        "filter": filters | st.fixed_dictionaries({"property": st.just("object"), "value": strings | json_values}),
        "sorts": sorts, "sort": json_values, "page_size": st.integers(-5, 200) | json_values,
        "start_cursor": strings | json_values, "query": strings | json_values}).map(_encode),
    st.integers(min_value=1, max_value=300).map(_nested),
)
READS = [("POST", "/v1/search"), ("POST", f"/v1/data_sources/{DS}/query"), ("GET", f"/v1/pages/{PAGE}"),
         ("GET", f"/v1/blocks/{PAGE}"), ("GET", f"/v1/blocks/{PAGE}/children"), ("GET", f"/v1/data_sources/{DS}"),
         ("GET", "/v1/users/me")]
odd_paths = st.sampled_from(["/v1/pages/xyz", "/v1/", "/", "/v1/blocks//children", "/v1/users"]) | st.text(
    max_size=30).map(lambda t: "/" + t) | st.builds(lambda route, tail: route + tail, st.sampled_from(ROUTES),
                                                   st.text(max_size=10))
odd_methods = st.sampled_from(["PATCH", "DELETE", "PUT", "HEAD", "OPTIONS", "TRACE"]) | st.from_regex(
    r"[A-Za-z]{1,10}", fullmatch=True)
requests_lines = _mostly(st.sampled_from(READS), st.tuples(odd_methods, st.sampled_from(ROUTES)),
                         st.tuples(st.sampled_from(["GET", "POST"]), odd_paths))
queries = st.dictionaries(st.sampled_from(["page_size", "start_cursor", "filter_properties"]) | st.text(max_size=5),
                          strings | st.integers(-5, 200).map(str) | st.integers().map(str), max_size=3)
auths = _mostly(st.just(f"Bearer {TOKEN}"), st.none(),
                st.sampled_from(["Bearer nope", TOKEN, "", "Bearer ", f"bearer {TOKEN}"]), strings)
versions = _mostly(st.just("2026-03-11"), st.none(), st.sampled_from(["2025-09-03", "1999-01-01", ""]), strings)


def _known_headers(auth: object, version: object) -> dict[str, str]:
    return {name: value for name, value in (("Authorization", auth), ("Notion-Version", version)) if value is not None}


header_sets = st.builds(_known_headers, auths, versions)
extra_headers = st.dictionaries(st.from_regex(r"X-[A-Za-z0-9-]{1,12}", fullmatch=True),
                                st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=20), max_size=3)


def _check(status: int, body: dict) -> None:
    assert status in STATUSES, (status, body)
    if status != 200:
        assert body["object"] == "error" and body["status"] == status, body
        assert body["code"] and body["message"] and "Traceback" not in body["message"], body


# ---------------------------------------------------------------------- in process


@pytest.mark.slow
@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(line=requests_lines, body=bodies, headers=header_sets, extra=extra_headers, query=queries)
def test_in_process_every_request_gets_a_200_or_a_notion_error(line, body, headers, extra, query) -> None:
    method, path = line
    response = SIM.handle(method, path, headers={**headers, **extra}, query=query, body=body)
    _check(response.status, response.body)
    assert json.loads(response.content.decode("utf-8")) == json.loads(json.dumps(response.body))


# ---------------------------------------------------------------------- over a socket


@pytest.fixture(scope="module")
def address():
    with serve_in_background(SIM, idle_timeout=3.0) as server:
        yield server.server_address[:2]


def _latin1(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass").decode("latin-1").encode("latin-1")


def _raw_request(method: str, path: str, query: dict[str, str], headers: dict[str, str], body: bytes | None) -> bytes:
    target = quote(path.encode("utf-8", "surrogatepass"), safe="/%?=&:@!$'()*+,;") + (
        "?" + urlencode(query, encoding="utf-8", errors="surrogatepass") if query else "")
    lines = [_latin1(f"{method} {target} HTTP/1.1"), b"Host: lab", b"Connection: close"]
    lines += [_latin1(f"{name}: {value}").replace(b"\r", b"").replace(b"\n", b"") for name, value in headers.items()]
    if body is not None:
        lines.append(b"Content-Length: %d" % len(body))
    return b"\r\n".join(lines) + b"\r\n\r\n" + (body or b"")


def _exchange(address: tuple[str, int], data: bytes) -> bytes:
    with socket.create_connection(address, timeout=10) as sock:  # a hang fails the test at the timeout
        sock.sendall(data)
        received = b""
        while chunk := sock.recv(65_536):
            received += chunk
    return received


@pytest.mark.slow
@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(line=requests_lines, body=bodies, headers=header_sets, extra=extra_headers, query=queries)
def test_over_http_every_request_gets_a_200_or_a_notion_error(address, line, body, headers, extra, query) -> None:
    method, path = line
    received = _exchange(address, _raw_request(method, path, query, {**headers, **extra}, body))
    head, _, payload = received.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    assert status_line.startswith("HTTP/1.1 "), received[:200]
    status = int(status_line.split()[1])
    fields = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in header_lines)}
    assert fields["content-type"].startswith("application/json")
    assert len(payload) == (0 if method == "HEAD" else int(fields["content-length"]))
    if method != "HEAD":
        _check(status, json.loads(payload))
    else:
        assert status in STATUSES
