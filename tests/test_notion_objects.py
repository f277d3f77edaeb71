"""Object shapes per version, synced blocks, determinism, and the requests-shaped transport."""

from __future__ import annotations

import json

import pytest
import requests

from lab.simulator import in_process_session
from lab.notion.richtext import MAX_RUN_CHARS, plain_text, rich_text
from tests.notion_fixtures import call, data_source_id, make_simulator


def children(sim, block_id: str, version: str = "2026-03-11") -> list[dict]:
    return call(sim, "GET", f"/v1/blocks/{block_id}/children", version=version).body["results"]


def test_latest_version_carries_in_trash_only_and_the_older_one_both_names() -> None:
    sim = make_simulator()
    page = sim.workspace.page_id("ficha-rol")
    new = call(sim, "GET", f"/v1/pages/{page}", version="2026-03-11").body
    old = call(sim, "GET", f"/v1/pages/{page}", version="2025-09-03").body
    assert new["in_trash"] is False and "archived" not in new
    assert old["in_trash"] is False and old["archived"] is False


def test_meeting_notes_were_called_transcription_before_2026_03_11() -> None:
    sim = make_simulator()
    page = sim.workspace.page_id("borrador")
    assert children(sim, page, "2026-03-11")[0]["type"] == "meeting_notes"
    old = children(sim, page, "2025-09-03")[0]
    assert old["type"] == "transcription" and "transcription" in old


def test_a_synced_reference_lists_its_originals_children() -> None:
    sim = make_simulator()
    ws = sim.workspace
    original = next(b for b in children(sim, ws.page_id("ficha-rol")) if b["type"] == "synced_block")
    reference = next(b for b in children(sim, ws.page_id("politica-cancel")) if b["type"] == "synced_block")
    assert original["synced_block"]["synced_from"] is None
    assert reference["synced_block"]["synced_from"] == {"type": "block_id", "block_id": original["id"]}
    assert reference["has_children"] is True
    assert [b["id"] for b in children(sim, reference["id"])] == [b["id"] for b in children(sim, original["id"])]


def test_a_page_id_is_also_its_root_block_id() -> None:
    sim = make_simulator()
    page = sim.workspace.page_id("ficha-rol")
    block = call(sim, "GET", f"/v1/blocks/{page}").body
    assert block["type"] == "child_page" and block["child_page"]["title"] == "Ficha: Rol de canela"


def test_ids_are_accepted_without_dashes() -> None:
    sim = make_simulator()
    page = sim.workspace.page_id("ficha-rol")
    assert call(sim, "GET", f"/v1/pages/{page.replace('-', '')}").body["id"] == page


def test_knowledge_base_rows_carry_their_properties_and_parent() -> None:
    sim = make_simulator()
    ds = data_source_id(sim)
    row = call(sim, "POST", f"/v1/data_sources/{ds}/query", {"page_size": 1}).body["results"][0]
    database = sim.workspace.data_sources[ds].database_id
    assert row["parent"] == {"type": "data_source_id", "data_source_id": ds, "database_id": database}
    assert row["properties"]["Tipo"]["select"]["name"] == "ficha"
    assert row["properties"]["Publicable"]["checkbox"] is True
    assert row["last_edited_time"].endswith(":00.000Z")


def test_long_text_is_cut_into_runs_of_at_most_2000_characters() -> None:
    runs = rich_text("x" * 4500)
    assert [len(r["plain_text"]) for r in runs] == [MAX_RUN_CHARS, MAX_RUN_CHARS, 500]
    assert plain_text(runs) == "x" * 4500


def test_same_seed_gives_same_responses_and_timings() -> None:
    def run(seed: int) -> tuple[list[str], list[float]]:
        from lab.simulator import LimitsConfig
        sim = make_simulator(seed=seed, limits=LimitsConfig(p_workspace=0.2, p_overload=0.1))
        page = sim.workspace.page_id("faq-larga")
        bodies = []
        for _ in range(30):
            bodies.append(json.dumps(call(sim, "GET", f"/v1/blocks/{page}/children", query={"page_size": "7"}).body))
        return bodies, [r.at for r in sim.served]

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_the_in_process_transport_returns_real_requests_responses() -> None:
    sim = make_simulator()
    session = in_process_session(sim)
    hdrs = {"Authorization": f"Bearer {sim.token_for('indexador')}", "Notion-Version": "2026-03-11"}
    ok = session.post("https://api.notion.com/v1/search", json={"query": "ficha"}, headers=hdrs)
    assert isinstance(ok, requests.Response) and ok.ok and ok.status_code == 200
    assert ok.json()["object"] == "list" and json.loads(ok.text) == ok.json()
    bad = session.get("https://api.notion.com/v1/pages/00000000-0000-4000-8000-000000000000", headers=hdrs)
    assert not bad.ok and bad.status_code == 404 and bad.headers["content-type"].startswith("application/json")
    with pytest.raises(requests.HTTPError):
        bad.raise_for_status()


def test_the_in_process_session_never_touches_the_network() -> None:
    session = in_process_session(make_simulator())
    with pytest.raises(requests.ConnectionError, match="not the simulator"):
        session.get("https://example.com/")
