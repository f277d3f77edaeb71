"""Rate limits: the connection window, the shared workspace budget, injected faults."""

from __future__ import annotations

import math

import pytest

from lab.simulator import LimitsConfig
from lab.simulator.limits import CONNECTION_REASON, WORKSPACE_REASON
from tests.notion_fixtures import call, make_simulator


def me(sim, integration: str = "indexador"):
    return call(sim, "GET", "/v1/users/me", integration=integration)


def test_request_181_in_a_window_is_a_429_whose_retry_after_is_the_seconds_left() -> None:
    sim = make_simulator()
    for _ in range(180):
        assert me(sim).status == 200
    sent_at = sim.clock.now()
    assert sent_at < 60
    limited = me(sim)
    assert limited.status == 429 and limited.body["code"] == "rate_limited"
    assert limited.headers["Retry-After"] == str(math.ceil(60 - sent_at))
    assert limited.body["additional_data"] == {"retry_after": limited.headers["Retry-After"],
                                               "rate_limit_reason": CONNECTION_REASON}
    sim.clock.sleep(int(limited.headers["Retry-After"]))
    assert sim.clock.now() >= 60
    assert me(sim).status == 200  # the next window accepts


def test_business_plans_allow_600_per_window() -> None:
    sim = make_simulator(limits=LimitsConfig(plan="business"), latency_median=0.05)
    statuses = [me(sim).status for _ in range(601)]
    assert statuses[:600] == [200] * 600 and statuses[600] == 429


def test_the_workspace_budget_is_shared_by_two_connections() -> None:
    sim = make_simulator(limits=LimitsConfig(workspace_budget=100))
    assert all(me(sim, "indexador").status == 200 for _ in range(60))
    assert all(me(sim, "lote").status == 200 for _ in range(40))
    limited = me(sim, "lote")
    assert limited.status == 429
    assert limited.body["additional_data"]["rate_limit_reason"] == WORKSPACE_REASON
    assert int(limited.headers["Retry-After"]) == math.ceil(60 - sim.served[-1].at)
    assert me(sim, "indexador").status == 429  # the other connection is out of budget too


def test_each_connection_has_its_own_window() -> None:
    sim = make_simulator(limits=LimitsConfig(workspace_budget=1000), latency_median=0.05)
    assert all(me(sim, "indexador").status == 200 for _ in range(180))
    assert me(sim, "indexador").status == 429
    assert me(sim, "lote").status == 200


def test_workspace_retry_after_can_exceed_sixty_with_a_longer_workspace_window() -> None:
    sim = make_simulator(limits=LimitsConfig(workspace_budget=5, workspace_window_seconds=300))
    for _ in range(5):
        assert me(sim).status == 200
    limited = me(sim)
    assert limited.status == 429 and int(limited.headers["Retry-After"]) > 60


@pytest.mark.parametrize("p_workspace, p_overload, p_server_error", [(0.2, 0.05, 0.02)])
def test_injected_faults_come_at_roughly_their_probabilities(p_workspace, p_overload, p_server_error) -> None:
    limits = LimitsConfig(plan="enterprise", connection_budget=10_000, workspace_budget=10_000,
                          p_workspace=p_workspace, p_overload=p_overload, p_server_error=p_server_error)
    sim = make_simulator(limits=limits, latency_median=0.001)
    statuses = [me(sim).status for _ in range(2000)]
    share = {s: statuses.count(s) / len(statuses) for s in set(statuses)}
    assert share[429] == pytest.approx(p_workspace, abs=0.03)
    assert share[529] == pytest.approx(p_overload * (1 - p_workspace), abs=0.02)
    assert sum(share.get(s, 0) for s in (500, 502, 503, 504)) == pytest.approx(0.02 * 0.76, abs=0.015)


def test_every_429_and_529_carries_retry_after_in_header_and_body() -> None:
    sim = make_simulator(limits=LimitsConfig(p_workspace=0.3, p_overload=0.3), latency_median=0.01)
    for _ in range(100):
        response = me(sim)
        if response.status in (429, 529):
            assert response.headers["Retry-After"].isdigit()
            assert response.body["additional_data"]["retry_after"] == response.headers["Retry-After"]


def test_limits_config_rejects_nonsense() -> None:
    with pytest.raises(ValueError, match="unknown plan"):
        LimitsConfig(plan="gold")
    with pytest.raises(ValueError, match="probability"):
        LimitsConfig(p_overload=1.5)
