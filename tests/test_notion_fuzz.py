"""Whatever a client sends, the answer is Notion-shaped JSON and never a 500."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.notion_fixtures import make_simulator

SIM = make_simulator()
TOKEN = SIM.token_for("indexador")
PAGE = SIM.workspace.page_id("ficha-rol")

paths = st.sampled_from(["/v1/search", f"/v1/pages/{PAGE}", f"/v1/blocks/{PAGE}", f"/v1/blocks/{PAGE}/children",
                         f"/v1/data_sources/{next(iter(SIM.workspace.data_sources))}/query", "/v1/users/me",
                         "/v1/pages/xyz", "/v1/", "/", "/v1/blocks//children"]) | st.text(max_size=30)
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                       max_size=4), max_leaves=12)
bodies = st.one_of(st.none(), st.binary(max_size=40),
                   json_values.map(lambda v: json.dumps(v).encode()),
                   st.fixed_dictionaries({}, optional={
                       "filter": json_values, "sorts": json_values, "page_size": json_values,
                       "start_cursor": json_values, "query": json_values}).map(lambda v: json.dumps(v).encode()))
header_sets = st.fixed_dictionaries({}, optional={
    "Authorization": st.sampled_from([f"Bearer {TOKEN}", "Bearer nope", TOKEN, ""]),
    "Notion-Version": st.sampled_from(["2026-03-11", "2025-09-03", "1999-01-01", ""])})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(method=st.sampled_from(["GET", "POST", "PATCH", "DELETE", "PUT"]), path=paths, body=bodies,
       headers=header_sets, query=st.dictionaries(st.sampled_from(["page_size", "start_cursor", "x"]),
                                                  st.text(max_size=6), max_size=2))
def test_client_mistakes_never_yield_a_500_or_a_traceback(method, path, body, headers, query) -> None:
    response = SIM.handle(method, path, headers=headers, query=query, body=body)
    assert response.status != 500, response.body
    json.dumps(response.body)  # serialisable
    if response.status != 200:
        assert response.body["object"] == "error" and response.body["code"] and response.body["message"]
        assert "Traceback" not in response.body["message"]
