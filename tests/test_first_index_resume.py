"""A first index keeps every page as it reads it: interrupted anywhere, it resumes with only the
missing pages' requests and ends equal to an uninterrupted one; the published index never
shows a half-built state."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from dataclasses import replace

import pytest

from lab.cli import DEFAULT_SERVE_TOKEN
from lab.client import NoPacing, NotionClient
from lab.clock import SimulatedClock, WallClock
from lab.ingest.reading import find_data_source
from lab.index import IndexStore
from lab.ingest.sync import SyncConfig, full_index
from lab.simulator import InjectedCrash, NotionSimulator, crashing_session, in_process_session
from lab.simulator.server import serve_in_background
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator
from sync_histories import _client, config, content, reference, small_workspace

LISTING_REQUESTS = 2  # search for the data source, then the publishable query


def bakery_client(sim, crash_at: int | None = None) -> NotionClient:
    session = crashing_session(sim, crash_at) if crash_at else in_process_session(sim)
    return NotionClient(sim.token_for(KB_INTEGRATION), session=session, clock=sim.clock, pacer=NoPacing())


def uninterrupted() -> tuple[dict, int, dict[str, int]]:
    """The bakery's first index: its state, its requests, and the requests each page's read took."""
    sim, store = bakery_simulator(seed=6), IndexStore(":memory:")
    client = bakery_client(sim)
    cost: dict[str, int] = {}
    last = [LISTING_REQUESTS]

    def count(read) -> None:
        cost[read.id], last[0] = len(client.log) - last[0], len(client.log)

    report = full_index(client, store, sim.clock, SyncConfig(on_page=count))
    return store.state(), report.requests, cost


@pytest.mark.parametrize("share", [0.25, 0.50, 0.90])
def test_a_first_index_interrupted_part_way_resumes_with_only_the_missing_pages_requests(share) -> None:
    expected, total, cost = uninterrupted()
    sim, store = bakery_simulator(seed=6), IndexStore(":memory:")
    crash_at = round(share * total)
    with pytest.raises(InjectedCrash):
        full_index(bakery_client(sim, crash_at), store, sim.clock)
    assert store.count_chunks() == 0 and store.pages() == {} and store.watermark("notion") is None
    kept = {page.page_id for page in store.staged_pages(find_data_source(bakery_client(sim))["id"])}
    sim.clock.advance(600)
    resumed = full_index(bakery_client(sim), store, sim.clock)
    assert store.state() == expected
    assert resumed.pages_resumed == len(kept) > 0
    missing = sum(requests for page, requests in cost.items() if page not in kept)
    assert resumed.requests <= missing + LISTING_REQUESTS
    assert store.staged_count() == 0


def test_pages_edited_while_a_first_index_was_interrupted_are_read_again_and_the_others_are_not() -> None:
    total = full_index(_client(NotionSimulator(small_workspace()), None), IndexStore(":memory:"),
                       SimulatedClock(), config()).requests
    ws = small_workspace()
    sim = NotionSimulator(ws, seed=2)
    store = IndexStore(":memory:")
    pages = []
    with pytest.raises(InjectedCrash):  # while reading the last sub-page
        full_index(_client(sim, total), store, sim.clock, replace(config(), on_page=lambda r: pages.append(r.title)))
    assert "Cancelaciones > Casos" in pages  # a sub-page was kept before the crash
    sim.clock.advance(120)
    ws.edit_block_text(ws.find_block(ws.page_id("cases"), "Sección 2-0").id, "Sección 2-0 (revisada)")
    ws.edit_block_text(ws.find_block(ws.page_id("hours"), "Sección 0-1").id, "Sección 0-1 (revisada)")
    sim.clock.advance(120)
    report = full_index(_client(sim, None), store, sim.clock, config())
    reread = set(report.pages_reread) - set(pages)
    assert {"Cancelaciones > Casos", "Horarios"} <= set(report.pages_reread)
    assert reread and report.pages_resumed == len(pages) - 2
    assert content(store) == reference(ws, sim.clock.now())


@pytest.mark.slow
def test_a_process_killed_during_a_first_index_keeps_every_page_it_had_read(store_url) -> None:
    path = store_url
    script = textwrap.dedent(f"""
        import os, signal
        from lab.client import NoPacing, NotionClient
        from lab.index import IndexStore
        from lab.ingest.sync import SyncConfig, full_index
        from lab.simulator import in_process_session
        from lab.simulator.workspaces import bakery_simulator
        sim = bakery_simulator(seed=6)
        client = NotionClient(sim.token_for("indexador"), session=in_process_session(sim), clock=sim.clock,
                              pacer=NoPacing())
        read = []
        def die_after_twenty(page):
            read.append(page.id)
            if len(read) == 20:
                os.kill(os.getpid(), signal.SIGKILL)
        full_index(client, IndexStore({str(path)!r}), sim.clock, SyncConfig(on_page=die_after_twenty))
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == -9, result.stderr
    store = IndexStore(path)
    assert store.staged_count() == 20 and store.count_chunks() == 0
    expected, total, _ = uninterrupted()
    sim = bakery_simulator(seed=6)
    resumed = full_index(bakery_client(sim), store, sim.clock)
    assert resumed.pages_resumed == 20 and resumed.requests < total
    assert store.state() == expected


@pytest.mark.slow
def test_the_command_line_index_stopped_with_ctrl_c_says_how_many_pages_it_resumes_from(tmp_path) -> None:
    sim = bakery_simulator(seed=0, clock=WallClock(), tokens={KB_INTEGRATION: DEFAULT_SERVE_TOKEN})
    db = tmp_path / "kb.sqlite"
    command = [sys.executable, "-m", "lab", "index", "--db", str(db), "--rate", "50"]
    env = {**os.environ, "NOTION_TOKEN": DEFAULT_SERVE_TOKEN}
    with serve_in_background(sim) as server:
        command += ["--base-url", server.base_url]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for line in process.stdout:
            if line.startswith("  [ 10]"):
                process.send_signal(signal.SIGINT)  # Ctrl-C
                break
        _, err = process.communicate(timeout=60)
        assert process.returncode == 130 and "run the same command again to resume" in err
        kept = IndexStore(db).staged_count()
        assert 10 <= kept < 40 and IndexStore(db).count_chunks() == 0
        again = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert again.returncode == 0, again.stderr
    assert f"resuming an interrupted index: {kept} pages already read" in again.stdout
    assert f"resumed: {kept} pages taken from the interrupted run" in again.stdout
    assert "315 chunks in the index" in again.stdout and IndexStore(db).staged_count() == 0
