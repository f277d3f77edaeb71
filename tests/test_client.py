"""The lab's client: waits, retries, typed errors, pagination, traversal, and a secret token."""

from __future__ import annotations

import math

import pytest
import requests

from lab.client import (BudgetAware, FixedRate, InvalidObjectId, InvalidRequest, NoPacing, NotionAPIError, NotionClient,
                        NotionClientError, NotionConnectionError, ObjectNotFound, RetriesExhausted, RetryPolicy,
                        Unauthorized, collect_paginated_api, walk_blocks)
from lab.client.schedule import minimum_duration
from lab.client.traversal import WalkReport
from lab.clock import SimulatedClock
from lab.simulator import LimitsConfig, NotionSimulator, Workspace
from lab.ingest.reading import read_knowledge_base
from tests.fake_transport import ScriptedSession, answer, policy_waits
from tests.leaks import leaks, shown
from tests.notion_fixtures import knowledge_base_spec, make_client, make_simulator

TOKEN = "ntn_0123456789abcdefSECRET"
HEAVY = LimitsConfig(p_workspace=0.20, p_overload=0.05, p_server_error=0.02)


def kb_simulator(seed: int = 11, limits: LimitsConfig | None = None, pages: int = 30) -> NotionSimulator:
    return NotionSimulator(Workspace.from_spec(knowledge_base_spec(pages), SimulatedClock()), seed=seed,
                           limits=limits)


def test_every_429_and_529_is_followed_by_a_wait_of_at_least_its_retry_after() -> None:
    sim = kb_simulator(limits=HEAVY)
    client = make_client(sim, pacer=NoPacing(), retry=RetryPolicy(max_attempts=20))
    read_knowledge_base(client)
    log = client.log.frame()
    limited = log[log["status"].isin([429, 529])]
    assert len(limited) > 10
    for index in limited.index:
        row = log.loc[index]
        assert row["wait_s"] == row["retry_after"] and row["retry_after"] >= 1
        assert log.loc[index + 1, "t"] - row["t"] >= row["retry_after"]


def test_heavy_fault_injection_still_reads_every_page_completely() -> None:
    clean = read_knowledge_base(make_client(kb_simulator(pages=120), pacer=NoPacing()))
    faulty_client = make_client(kb_simulator(limits=HEAVY, pages=120), pacer=FixedRate(3.0),
                                retry=RetryPolicy(max_attempts=20))
    faulty = read_knowledge_base(faulty_client)
    assert [p.id for p in faulty.pages] == [p.id for p in clean.pages]
    assert [[b["id"] for _, b in p.blocks] for p in faulty.pages] == [[b["id"] for _, b in p.blocks]
                                                                      for p in clean.pages]
    statuses = set(faulty_client.log.frame()["status"])
    assert {429, 529} <= statuses and statuses & {500, 502, 503, 504}


def test_the_paced_client_never_starts_more_than_three_requests_a_second() -> None:
    sim = kb_simulator()
    client = make_client(sim, pacer=FixedRate(3.0))
    read_knowledge_base(client)
    times = client.log.frame()["t"].to_numpy()
    assert (times[1:] - times[:-1]).min() >= 1 / 3 - 1e-5  # the log keeps microseconds
    duration = sim.clock.now()
    assert duration == pytest.approx(len(times) / 3, rel=0.05)  # t_min = R / r


def _sent_per_window(log, window: float = 60.0):
    return log.groupby((log["t"] // window).astype(int)).size()


def test_no_client_keeps_sending_past_the_window_budget_after_a_429() -> None:
    sim = kb_simulator()
    client = make_client(sim, pacer=NoPacing())
    for _ in range(6):
        read_knowledge_base(client)
    log = client.log.frame()
    assert (log["reason"] == "connection").sum() >= 1
    assert _sent_per_window(log).max() <= 180 + 1  # the budget, plus the one request that was refused
    accepted = log[log["reason"] != "connection"]
    assert _sent_per_window(accepted).max() <= 180


@pytest.mark.parametrize("passes", [1, 4, 10])
def test_the_budget_aware_client_gets_no_connection_429_and_finishes_in_the_minimum_time(passes: int) -> None:
    sim = kb_simulator()
    client = make_client(sim, pacer=BudgetAware.for_plan("free"))
    for _ in range(passes):
        read_knowledge_base(client)
    log = client.log.frame()
    assert (log["reason"] == "connection").sum() == 0
    served = sim.served_frame()
    floor = minimum_duration(served["latency"].tolist(), budget=180)
    assert sim.clock.now() <= floor * 1.02
    assert sim.clock.now() >= floor - 1e-6


def test_the_budget_aware_client_slows_down_on_workspace_429s_and_recovers() -> None:
    pacer = BudgetAware.for_plan("free", recovery=0.1)
    for t in range(25):
        pacer.sent(t * 0.2)  # 5 requests a second
    pacer.observed(1.0, 429, "workspace", 2.0)
    assert pacer.rate_cap is None  # a lone refusal is noise
    pacer.observed(5.0, 429, "workspace", 2.0)  # a second one soon after: the budget is contended
    assert pacer.rate_cap == pytest.approx(2.5)
    assert pacer.delay(5.0) == pytest.approx(1 / 2.5 - 0.2)
    pacer.observed(5.0, 429, "workspace", 2.0)  # a second refusal halves again
    assert pacer.rate_cap == pytest.approx(1.25)
    assert pacer._current_cap(15.0) == pytest.approx(2.25)  # +0.1 req/s per quiet second
    assert pacer._current_cap(60.0) is None  # back at 5 req/s: the cap is dropped
    assert pacer.delay(60.0) == 0.0


@pytest.mark.parametrize("children", [1, 100, 101, 1000])
def test_pagination_returns_exactly_the_children(children: int) -> None:
    spec = knowledge_base_spec(1)
    spec["pages"][0]["blocks"] = [{"type": "paragraph", "text": f"b{i}"} for i in range(children)]
    sim = NotionSimulator(Workspace.from_spec(spec, SimulatedClock()))
    client = make_client(sim, pacer=NoPacing())
    page = sim.workspace.page_id("kb-000")
    got = collect_paginated_api(client.blocks.children.list, block_id=page)
    assert [b["id"] for b in got] == sim.workspace.pages[page].children
    assert len(client.log) == max(1, math.ceil(children / 100))


def test_traversal_descends_into_toggles_columns_and_synced_blocks_but_not_sub_pages() -> None:
    spec = knowledge_base_spec(1)
    spec["pages"][0]["blocks"] = [
        {"type": "toggle", "text": "¿Q?", "children": [{"type": "paragraph", "text": "R", "children": [
            {"type": "paragraph", "text": "RR"}]}]},
        {"type": "column_list", "columns": [[{"type": "paragraph", "text": "c1"}], [{"type": "paragraph", "text": "c2"}]]},
        {"type": "synced_block", "key": "s", "children": [{"type": "paragraph", "text": "s1"}]},
        {"type": "synced_block", "synced_from": "s"},
        {"type": "child_page", "page": "sub", "text": "Sub"},
    ]
    spec["pages"].append({"key": "sub", "title": "Sub", "parent": {"type": "page", "key": "kb-000"},
                          "created": "2026-02-01T00:00:00.000Z", "blocks": [{"type": "paragraph", "text": "hidden"}]})
    sim = NotionSimulator(Workspace.from_spec(spec, SimulatedClock()))
    report = WalkReport()
    walked = list(walk_blocks(make_client(sim, pacer=NoPacing()), sim.workspace.page_id("kb-000"), report=report))
    texts = [(d, b["type"], (b.get(b["type"]) or {}).get("rich_text", [{}])[0].get("plain_text") if
              (b.get(b["type"]) or {}).get("rich_text") else None) for d, b in walked]
    assert texts == [(0, "toggle", "¿Q?"), (1, "paragraph", "R"), (2, "paragraph", "RR"), (0, "column_list", None),
                     (1, "column", None), (2, "paragraph", "c1"), (1, "column", None), (2, "paragraph", "c2"),
                     (0, "synced_block", None), (1, "paragraph", "s1"), (0, "synced_block", None),
                     (1, "paragraph", "s1"), (0, "child_page", None)]
    assert report.sub_pages == [sim.workspace.page_id("sub")]


def test_traversal_terminates_on_a_synced_block_cycle_and_at_the_depth_fuse() -> None:
    spec = knowledge_base_spec(1)
    spec["pages"][0]["blocks"] = [{"type": "synced_block", "key": "loop", "children": [
        {"type": "paragraph", "text": "dentro"}, {"type": "synced_block", "synced_from": "loop"}]}]
    sim = NotionSimulator(Workspace.from_spec(spec, SimulatedClock()))
    report = WalkReport()
    walked = list(walk_blocks(make_client(sim, pacer=NoPacing()), sim.workspace.page_id("kb-000"), report=report))
    assert [d for d, _ in walked] == [0, 1, 1]
    assert len(report.cycles) == 1

    deep = knowledge_base_spec(1)
    node: dict = {"type": "toggle", "text": "0"}
    deep["pages"][0]["blocks"] = [node]
    for level in range(1, 15):
        child = {"type": "toggle", "text": str(level)}
        node["children"] = [child]
        node = child
    sim = NotionSimulator(Workspace.from_spec(deep, SimulatedClock()))
    report = WalkReport()
    walked = list(walk_blocks(make_client(sim, pacer=NoPacing()), sim.workspace.page_id("kb-000"), max_depth=5,
                              report=report))
    assert max(d for d, _ in walked) == 5 and len(report.too_deep) == 1


def test_the_error_after_the_last_attempt_names_route_and_request_id_but_not_the_token() -> None:
    sim = make_simulator(limits=LimitsConfig(p_overload=1.0))
    client = make_client(sim, pacer=NoPacing(), retry=RetryPolicy(max_attempts=3))
    token = sim.token_for("indexador")
    with pytest.raises(RetriesExhausted) as caught:
        client.users.me()
    error = caught.value
    message = str(error)
    assert "GET /v1/users/me" in message and error.request_id in message and "529" in message
    assert "after 3 attempts" in message and token not in message and token not in repr(error)
    assert len(client.log) == 3


def test_client_mistakes_raise_typed_errors_at_once() -> None:
    sim = make_simulator()
    client = make_client(sim, pacer=NoPacing())
    with pytest.raises(ObjectNotFound, match="404 object_not_found"):
        client.pages.retrieve(sim.workspace.page_id("receta"))
    with pytest.raises(InvalidRequest, match="page_size"):
        client.blocks.children.list(block_id=sim.workspace.page_id("ficha-rol"), page_size=0)
    bad = make_client(sim, pacer=NoPacing())
    bad._token = "ntn_wrong"
    with pytest.raises(Unauthorized):
        bad.users.me()
    assert len(client.log) == 2  # no retry for client mistakes


@pytest.mark.parametrize("call", [
    lambda client, page: client.blocks.retrieve("../users/me"),
    lambda client, page: client.pages.retrieve(f"{page}?filter_properties=title"),
    lambda client, page: client.blocks.children.list(f"{page}/children?page_size=1#"),
    lambda client, page: client.data_sources.query("..%2F..%2Fusers%2Fme"),
    lambda client, page: client.data_sources.retrieve(None),
    lambda client, page: client.blocks.retrieve(""),
    lambda client, page: client.pages.retrieve(f"urn:uuid:{page}"),
])
def test_an_id_that_is_not_a_notion_id_is_refused_before_it_can_reach_another_endpoint(call) -> None:
    sim = make_simulator()
    client = make_client(sim, pacer=NoPacing())
    with pytest.raises(InvalidObjectId, match="is not a Notion id .* pass the id of the object"):
        call(client, sim.workspace.page_id("ficha-rol"))
    assert len(client.log) == 0
    page = sim.workspace.page_id("ficha-rol")
    assert client.pages.retrieve(page.replace("-", "").upper())["id"] == page  # undashed and upper case are ids


def test_server_errors_are_retried_with_capped_seeded_backoff() -> None:
    sim = make_simulator(limits=LimitsConfig(p_server_error=1.0))
    client = make_client(sim, pacer=NoPacing(), retry=RetryPolicy(max_attempts=6, backoff_base=0.5, backoff_cap=2.0,
                                                                  seed=3))
    with pytest.raises(RetriesExhausted):
        client.users.me()
    waits = client.log.frame()["wait_s"].tolist()[:-1]
    ceilings = [0.5, 1.0, 2.0, 2.0, 2.0]
    assert all(c / 2 <= w <= c for w, c in zip(waits, ceilings))
    again = make_client(make_simulator(limits=LimitsConfig(p_server_error=1.0)), pacer=NoPacing(),
                        retry=RetryPolicy(max_attempts=6, backoff_base=0.5, backoff_cap=2.0, seed=3))
    with pytest.raises(RetriesExhausted):
        again.users.me()
    assert again.log.frame()["wait_s"].tolist()[:-1] == waits


def test_the_token_never_appears_in_the_log_or_the_repr() -> None:
    sim = kb_simulator(limits=HEAVY)
    client = make_client(sim, retry=RetryPolicy(max_attempts=20))
    read_knowledge_base(client)
    token = sim.token_for("indexador")
    assert token not in repr(client) and "ntn_***" in repr(client)
    assert token not in client.log.frame().to_csv()
    assert token not in sim.served_frame().to_csv()


def _error_body(status: int, code: str, message: str) -> dict:
    return {"object": "error", "status": status, "code": code, "message": message, "request_id": f"req-{status}"}


def test_every_wait_and_the_final_answer_are_the_retry_policys_decisions() -> None:
    script = [answer(503, _error_body(503, "service_unavailable", "later")),
              answer(429, _error_body(429, "rate_limited", "slow down"), {"Retry-After": "2"}),
              answer(529, _error_body(529, "service_overload", "busy")),  # no Retry-After: backoff
              requests.ConnectionError("connection reset"),
              answer(200, {"object": "user", "request_id": "req-ok"})]
    policy = RetryPolicy(max_attempts=6, seed=7)
    clock = SimulatedClock()
    client = NotionClient(TOKEN, session=ScriptedSession(*script), clock=clock, pacer=NoPacing(), retry=policy)
    assert client.users.me()["object"] == "user"
    decided = policy_waits(policy, script, idempotent=True)
    assert client.log.frame()["wait_s"].tolist() == [round(w, 6) for w in decided] + [0.0]
    assert client.log.frame()["status"].tolist() == [503, 429, 529, 0, 200]
    assert clock.now() == pytest.approx(sum(decided))


def test_when_the_policy_gives_up_the_client_raises_the_typed_error_for_what_came_back() -> None:
    def client_for(*script: requests.Response | Exception) -> NotionClient:
        return NotionClient(TOKEN, session=ScriptedSession(*script), clock=SimulatedClock(), pacer=NoPacing(),
                            retry=RetryPolicy(max_attempts=2))

    overloaded = answer(503, _error_body(503, "service_unavailable", "later"))
    with pytest.raises(RetriesExhausted, match="after 2 attempts"):
        client_for(overloaded, overloaded).users.me()
    unsafe = client_for(overloaded)
    with pytest.raises(NotionAPIError) as caught:  # not idempotent: a 503 is not retried
        unsafe.request("POST", "/v1/pages", body={}, idempotent=False)
    assert type(caught.value) is NotionAPIError and len(unsafe.log) == 1
    with pytest.raises(NotionConnectionError, match="failed after 1 attempts"):
        client_for(requests.Timeout("read timed out")).request("POST", "/v1/pages", body={}, idempotent=False)
    with pytest.raises(ObjectNotFound):
        client_for(answer(404, _error_body(404, "object_not_found", "no such page"))).users.me()


def test_the_token_never_appears_in_the_clients_errors_log_or_repr() -> None:
    echoed = answer(401, _error_body(401, "unauthorized", f"API token {TOKEN} is invalid."))
    client = NotionClient(TOKEN, session=ScriptedSession(echoed, requests.ConnectionError(f"reset: Bearer {TOKEN}")),
                          clock=SimulatedClock(), pacer=NoPacing())
    errors = []
    for call in (client.users.me, lambda: client.request("POST", "/v1/search", body={}, idempotent=False)):
        with pytest.raises(NotionClientError) as caught:
            call()
        errors.append(caught.value)
    assert "[redacted]" in str(errors[0]) and "[redacted]" in str(errors[1])
    assert leaks(TOKEN, shown(client, *errors) + client.log.frame().to_csv()) == []


@pytest.mark.parametrize("filler", [0, 67, 100, 110, 119])
def test_a_non_json_error_that_echoes_the_token_shows_none_of_it_wherever_the_message_is_cut(filler: int) -> None:
    """The client shows the first characters of a body that is not JSON; the token is masked before the cut,
    so a token straddling the cut does not show its first part."""
    body = "x" * filler + f"invalid credentials: Bearer {TOKEN}"
    echoed = requests.Response()
    echoed.status_code, echoed._content, echoed.encoding = 400, body.encode(), "utf-8"
    client = NotionClient(TOKEN, session=ScriptedSession(echoed), clock=SimulatedClock(), pacer=NoPacing())
    with pytest.raises(NotionAPIError, match="non-JSON answer") as caught:
        client.users.me()
    assert leaks(TOKEN, shown(caught.value) + client.log.frame().to_csv()) == []


def test_a_token_with_a_line_break_is_refused_without_being_shown() -> None:
    token = "ntn_first_line_of_it\nsecond_line_of_it"
    with pytest.raises(ValueError, match="the Notion token contains a line break") as caught:
        NotionClient(token, session=ScriptedSession(), clock=SimulatedClock())
    assert leaks(token, shown(caught.value)) == []
