"""The simulator over HTTP: the same answers as in process, a bad-request catalogue, clean stops."""

from __future__ import annotations

import contextlib
import socket
import threading

import pytest
import requests

from lab.client import NoPacing, NotionClient
from lab.clock import WallClock
from lab.simulator import LimitsConfig, NotionSimulator, Workspace
from lab.simulator.server import ServedSimulator, SimulatorHTTPServer, serve_in_background
from lab.simulator.simulator import MAX_BODY_BYTES
from lab.ingest.reading import read_knowledge_base
from tests.notion_fixtures import knowledge_base_spec, make_client, make_simulator, small_spec


@pytest.fixture
def served():
    sim = make_simulator()
    with serve_in_background(sim) as server:
        yield sim, server


def _headers(sim, version: str | None = "2026-03-11", token: str | None = "ok") -> dict[str, str]:
    out = {"Content-Type": "application/json"}
    if token == "ok":
        out["Authorization"] = f"Bearer {sim.token_for('indexador')}"
    elif token is not None:
        out["Authorization"] = f"Bearer {token}"
    if version is not None:
        out["Notion-Version"] = version
    return out


CATALOGUE = [
    # (description, method, path, headers-kind, body, query, status, code)
    ("missing version", "POST", "/v1/search", {"version": None}, b"{}", None, 400, "missing_version"),
    ("unknown version", "POST", "/v1/search", {"version": "2020-01-01"}, b"{}", None, 400, "validation_error"),
    ("missing token", "POST", "/v1/search", {"token": None}, b"{}", None, 401, "unauthorized"),
    ("unknown token", "POST", "/v1/search", {"token": "ntn_nope"}, b"{}", None, 401, "unauthorized"),
    ("bad JSON", "POST", "/v1/search", {}, b"{oops", None, 400, "invalid_json"),
    ("unknown path", "GET", "/v1/nothing/here", {}, None, None, 400, "invalid_request_url"),
    ("wrong method", "GET", "/v1/search", {}, None, None, 400, "invalid_request"),
    ("bad page_size", "POST", "/v1/search", {}, b'{"page_size": 101}', None, 400, "validation_error"),
    ("page_size not a number", "GET", "/v1/blocks/{page}/children", {}, None, {"page_size": "x"}, 400,
     "validation_error"),
    ("forged cursor", "GET", "/v1/blocks/{page}/children", {}, None, {"start_cursor": "{page}"}, 400,
     "validation_error"),
    ("unshared page", "GET", "/v1/pages/{private}", {}, None, None, 404, "object_not_found"),
    ("a link pasted whole", "GET", "/v1/pages/{page}", {}, None, {"v": "0"}, 400, "validation_error"),
]


@pytest.mark.parametrize("case", CATALOGUE, ids=[c[0] for c in CATALOGUE])
def test_bad_requests_over_http_get_the_documented_status_and_code(served, case) -> None:
    sim, server = served
    _, method, path, hdr, body, query, status, code = case
    ids = {"page": sim.workspace.page_id("ficha-rol"), "private": sim.workspace.page_id("receta")}
    path = path.format(**ids)
    query = {k: v.format(**ids) for k, v in (query or {}).items()}
    response = requests.request(method, server.base_url + path, headers=_headers(sim, **hdr), data=body,
                                params=query, timeout=10)
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert response.json()["object"] == "error" and response.headers["Content-Type"].startswith("application/json")


def test_an_oversized_body_is_refused_with_400_without_reading_it(served) -> None:
    sim, server = served
    body = b'{"query": "' + b"x" * (MAX_BODY_BYTES + 1) + b'"}'
    response = requests.post(server.base_url + "/v1/search", headers=_headers(sim), data=body, timeout=10)
    assert response.status_code == 400 and response.json()["code"] == "validation_error"
    assert "too large" in response.json()["message"]


def test_the_same_read_over_http_and_in_process_gives_identical_blocks() -> None:
    spec = knowledge_base_spec(12)
    in_process = read_knowledge_base(make_client(NotionSimulator(Workspace.from_spec(spec), seed=3), pacer=NoPacing()))
    sim = NotionSimulator(Workspace.from_spec(spec), seed=3)
    with serve_in_background(sim) as server:
        client = NotionClient(sim.token_for("indexador"), base_url=server.base_url, pacer=NoPacing())
        over_http = read_knowledge_base(client)
    assert [(p.page, p.blocks) for p in over_http.pages] == [(p.page, p.blocks) for p in in_process.pages]


def test_shutdown_leaves_no_thread_and_frees_the_port() -> None:
    before = {t.name for t in threading.enumerate()}
    with serve_in_background(make_simulator()) as server:
        port = server.server_address[1]
        assert requests.get(server.base_url + "/v1/users/me", timeout=10).status_code == 401
    assert {t.name for t in threading.enumerate()} <= before
    with socket.socket() as probe:  # the port can be bound again at once
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))



@pytest.mark.slow
def test_stop_waits_for_a_request_being_answered_so_no_thread_outlives_it(monkeypatch: pytest.MonkeyPatch) -> None:
    sim = make_simulator()
    answering, release = threading.Event(), threading.Event()
    handle = sim.handle

    def slow_handle(*args, **kwargs):
        answering.set()
        release.wait(timeout=1)  # still answering when stop() is called
        return handle(*args, **kwargs)

    monkeypatch.setattr(sim, "handle", slow_handle)
    before = set(threading.enumerate())
    server = SimulatorHTTPServer(sim).start_in_background(poll_interval=0.05)

    def ask() -> None:
        with contextlib.suppress(requests.RequestException):  # stop() shuts the connection under the request
            requests.get(server.base_url + "/v1/users/me", timeout=10)

    client = threading.Thread(target=ask)
    client.start()
    assert answering.wait(timeout=10)
    server.stop()
    left = [t.name for t in set(threading.enumerate()) - before if t is not client and t.is_alive()]
    assert left == [], f"threads alive after stop(): {left}"
    client.join(timeout=10)


# ---------------------------------------------------------------- a served simulator that can be swapped and restarted


def _me(served: ServedSimulator, sim: NotionSimulator) -> int:
    return requests.get(served.base_url + "/v1/users/me", headers=_headers(sim), timeout=10).status_code


@pytest.mark.slow
def test_a_served_simulator_stopped_and_served_again_answers_on_the_same_address() -> None:
    sim = make_simulator()
    with ServedSimulator(sim) as served:
        url, port = served.base_url, served.port
        assert _me(served, sim) == 200
        served.stop()
        served.stop()  # stopping twice is harmless
        assert not served.running
        with pytest.raises(requests.ConnectionError):
            _me(served, sim)
        with socket.socket() as probe:  # stopped means the port is free
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((served.host, port))
        assert served.serve(sim) is sim and served.running and served.base_url == url
        assert _me(served, sim) == 200
    assert not served.running


def test_serving_a_fresh_simulator_starts_each_caller_from_the_seed() -> None:
    faults = LimitsConfig(p_workspace=0.3)
    with ServedSimulator(make_simulator(seed=5, limits=faults)) as served:
        runs = []
        for _ in range(2):
            sim = served.serve(make_simulator(seed=5, limits=faults))
            for _ in range(12):
                _me(served, sim)
            runs.append(sim.served_frame()[["status", "reason"]].values.tolist())
        assert runs[0] == runs[1] and any(status == 429 for status, _ in runs[0])
        assert served.simulator is sim


@pytest.mark.slow
def test_stopping_closes_keep_alive_connections_and_a_restart_answers_them_from_the_new_simulator() -> None:
    first, second = make_simulator(seed=1), make_simulator(seed=2)
    with ServedSimulator(first) as served, requests.Session() as session:  # a session keeps its connection
        me = served.base_url + "/v1/users/me"
        assert session.get(me, headers=_headers(first), timeout=10).status_code == 200
        served.stop()
        with pytest.raises(requests.ConnectionError):
            session.get(me, headers=_headers(first), timeout=10)
        served.serve(second)
        assert session.get(me, headers=_headers(second), timeout=10).status_code == 200
    assert len(first.served) == 1 and len(second.served) == 1


def test_a_served_simulator_that_is_dropped_stops_its_server() -> None:
    before = {t.name for t in threading.enumerate()}
    served = ServedSimulator(make_simulator())
    url = served.base_url
    del served  # a notebook cell that builds it again drops the earlier one
    assert {t.name for t in threading.enumerate()} <= before
    with pytest.raises(requests.ConnectionError):
        requests.get(url + "/v1/users/me", timeout=10)


# ---------------------------------------------------------------- the official SDK against the simulator

notion_client = pytest.importorskip("notion_client")  # a dev extra: always installed by `make test`


def _sdk(server, sim, **kwargs):
    return notion_client.Client(auth=sim.token_for("indexador"), base_url=server.base_url,
                                notion_version="2026-03-11", **kwargs)


def test_the_official_sdk_reads_the_simulator_unchanged(served) -> None:
    sim, server = served
    sdk = _sdk(server, sim)
    found = sdk.search(query="Base", filter={"property": "object", "value": "data_source"})
    ds_id = found["results"][0]["id"]
    assert sdk.data_sources.retrieve(data_source_id=ds_id)["object"] == "data_source"
    rows = sdk.data_sources.query(data_source_id=ds_id, filter={"property": "Publicable", "checkbox": {"equals": True}})
    assert {r["properties"]["Nombre"]["title"][0]["plain_text"] for r in rows["results"]} == {
        "Ficha: Rol de canela", "Política de cancelaciones", "Preguntas frecuentes: larga"}
    page = sim.workspace.page_id("faq-larga")
    assert sdk.pages.retrieve(page_id=page)["id"] == page
    assert sdk.blocks.retrieve(block_id=page)["type"] == "child_page"
    children = notion_client.helpers.collect_paginated_api(sdk.blocks.children.list, block_id=page)
    assert [b["id"] for b in children] == sim.workspace.pages[page].children
    assert sdk.users.me()["type"] == "bot"


def test_the_official_sdk_raises_api_response_errors_with_the_right_code(served) -> None:
    sim, server = served
    APIResponseError = notion_client.APIResponseError
    with pytest.raises(APIResponseError) as not_found:
        _sdk(server, sim).pages.retrieve(page_id=sim.workspace.page_id("receta"))
    assert not_found.value.code == "object_not_found" and not_found.value.status == 404
    with pytest.raises(APIResponseError) as bad:
        _sdk(server, sim).search(page_size=0)
    assert bad.value.code == "validation_error" and bad.value.status == 400
    with pytest.raises(APIResponseError) as unauthorized:
        notion_client.Client(auth="ntn_wrong", base_url=server.base_url).users.me()
    assert unauthorized.value.code == "unauthorized" and unauthorized.value.status == 401


@pytest.mark.slow
def test_the_official_sdk_retries_a_429_until_the_window_resets() -> None:
    limits = LimitsConfig(connection_budget=3, window_seconds=1.0, workspace_window_seconds=1.0)
    sim = NotionSimulator(Workspace.from_spec(small_spec(), WallClock()), clock=WallClock(), limits=limits)
    with serve_in_background(sim) as server:
        sdk = _sdk(server, sim)
        for _ in range(5):
            assert sdk.users.me()["type"] == "bot"
    statuses = sim.served_frame()["status"].tolist()
    assert 429 in statuses and statuses.count(200) == 5


def test_the_official_sdk_does_not_retry_a_529_but_the_lab_client_does() -> None:
    sim = make_simulator(limits=LimitsConfig(p_overload=0.5), seed=1)
    with serve_in_background(sim) as server:
        sdk = _sdk(server, sim)
        codes = []
        for _ in range(12):
            try:
                sdk.users.me()
                codes.append("ok")
            except notion_client.errors.HTTPResponseError as exc:  # 529 is not in the SDK's list of codes
                codes.append(exc.status)
        assert 529 in codes  # raised to the caller at the first 529, never retried
        lab_client = NotionClient(sim.token_for("indexador"), base_url=server.base_url, pacer=NoPacing(),
                                  clock=sim.clock)
        for _ in range(12):
            assert lab_client.users.me()["type"] == "bot"
        assert (lab_client.log.frame()["status"] == 529).any()


def test_sixteen_clients_connecting_at_once_are_all_queued_and_answered(served) -> None:
    sim, server = served
    assert server.request_queue_size >= 128  # the listen backlog: none of them is reset while others are served
    barrier, statuses = threading.Barrier(16), []

    def client() -> None:
        with requests.Session() as session:
            barrier.wait()
            statuses.extend(session.get(server.base_url + "/v1/users/me", headers=_headers(sim), timeout=10).status_code
                            for _ in range(5))

    threads = [threading.Thread(target=client) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * 80
