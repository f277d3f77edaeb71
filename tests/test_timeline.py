"""Two connections on one simulated workspace interleave in time order, reproducibly."""

from __future__ import annotations

from lab.client import FixedRate, NoPacing, NotionClient
from lab.simulator import LimitsConfig
from lab.simulator.timeline import run_together
from tests.notion_fixtures import make_simulator


def _actor(sim, integration: str, pacer, calls: int):
    def act(session, clock):
        client = NotionClient(sim.token_for(integration), session=session, clock=clock, pacer=pacer)
        for _ in range(calls):
            client.users.me()
        return client.log.frame()
    return act


def _run(seed: int = 5):
    sim = make_simulator(seed=seed, limits=LimitsConfig(workspace_budget=100))
    logs = run_together(sim, [_actor(sim, "indexador", NoPacing(), 150), _actor(sim, "lote", FixedRate(2.0), 40)])
    return sim, logs


def test_requests_reach_the_simulator_in_time_order_from_both_connections() -> None:
    sim, (burst, batch) = _run()
    served = sim.served_frame()
    assert served["at"].is_monotonic_increasing
    assert set(served["connection"]) == {"indexador", "lote"}
    assert len(served) == len(burst) + len(batch)


def test_a_burst_on_one_connection_spends_the_budget_the_other_needed() -> None:
    sim, (burst, batch) = _run()
    assert (batch["reason"] == "workspace").sum() > 0  # the batch job pays for the burst
    assert (batch["status"] == 200).sum() == 40  # but retries until done


def test_concurrent_runs_are_reproducible() -> None:
    first = _run()[0].served_frame()
    second = _run()[0].served_frame()
    assert first.equals(second)
