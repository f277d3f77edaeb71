"""A served simulator given a secret issues tokens nobody can compute from the source."""

from __future__ import annotations

from lab.simulator import NotionSimulator, Workspace, default_token, derived_token
from tests.notion_fixtures import call, make_simulator, small_spec

SECRET = "ntn_only_the_operator_knows_this"


def _simulator(secret: str | None = None, seed: int = 0, **kwargs) -> NotionSimulator:
    return NotionSimulator(Workspace.from_spec(small_spec()), seed=seed, secret=secret, **kwargs)


def test_without_a_secret_tokens_derive_from_the_seed_so_lessons_are_reproducible() -> None:
    sim = make_simulator(seed=7)
    assert sim.token_for("lote") == default_token("lote", 7)


def test_with_a_secret_every_integration_token_derives_from_it_and_from_no_seed() -> None:
    sim = _simulator(SECRET, tokens={"indexador": SECRET})
    assert sim.token_for("indexador") == SECRET
    for key in ("lote", "sin-lectura"):
        assert sim.token_for(key) == derived_token(SECRET, key)
        assert sim.token_for(key) not in {default_token(key, seed) for seed in range(1_000)}


def test_a_token_computed_from_the_public_source_reads_nothing_from_a_served_simulator() -> None:
    sim = _simulator(SECRET, tokens={"indexador": SECRET})
    guessed = {"Authorization": f"Bearer {default_token('lote', 0)}", "Notion-Version": "2026-03-11"}
    assert call(sim, "POST", "/v1/search", {}, hdrs=guessed).status == 401
    assert call(sim, "POST", "/v1/search", {}, integration="lote").status == 200


def test_the_server_side_log_keeps_only_its_most_recent_lines_and_never_a_token() -> None:
    sim = _simulator(SECRET, tokens={"indexador": SECRET}, served_log_size=5)
    for _ in range(4):
        call(sim, "POST", "/v1/search", {}, hdrs={"Authorization": "Bearer ntn_nope", "Notion-Version": "2026-03-11"})
    for _ in range(3):
        call(sim, "GET", "/v1/users/me")
    log = sim.served_frame()
    assert log["status"].tolist() == [401, 401, 200, 200, 200]
    assert SECRET not in log.to_csv()
