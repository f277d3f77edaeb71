"""Two syncs on one index (a SQLite file, a PostgreSQL workspace), in one process or two, never lose an edit or move the watermark
back: a run publishes only into the index it planned against, and plans again otherwise."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys

import pytest

from lab.cli import DEFAULT_SERVE_TOKEN
from lab.client import NoPacing, NotionClient
from lab.clock import WallClock
from lab.index import IndexStore
from lab.ingest.sync import MAX_ATTEMPTS, ConcurrentSyncError, SyncConfig, full_index, incremental_sync
from lab.simulator import in_process_session
from lab.simulator.server import serve_in_background
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator
from store_urls import another_store

EDITED = "faq-entregas"  # edited before the sync starts
RACED = "politica-cancelaciones"  # edited before the sync starts, and again once sync A has read it


def client_for(sim) -> NotionClient:
    return NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                        pacer=NoPacing())


def edit(ws, key: str, text: str) -> None:
    page = ws.page_id(key)
    ws.edit_block_text(ws.find_block(page, "").id, text)


def content(store: IndexStore) -> dict:
    state = store.state()
    return {"chunks": state["chunks"], "pages": state["pages"]}


def fresh_full_index(sim) -> dict:
    store = IndexStore(":memory:")
    full_index(client_for(sim), store, sim.clock)
    return content(store)


def texts(store: IndexStore) -> str:
    return " ".join(row["text"] for row in store.chunks("tfidf"))


def test_a_sync_that_another_sync_overtook_plans_again_and_keeps_every_edit(store_url) -> None:
    path = store_url
    sim = bakery_simulator(seed=6)
    ws, clock = sim.workspace, sim.clock
    store_a, store_b = IndexStore(path), IndexStore(path)  # two connections to one file
    full_index(client_for(sim), store_a, clock)
    clock.set(1800)
    edit(ws, EDITED, "Entregamos de lunes a sábado.")
    edit(ws, RACED, "Cancelar sin costo vale hasta veinticuatro horas antes.")
    clock.set(3600)
    watermarks = []

    def overtake(read) -> None:  # sync A has read P; P is edited; sync B reads and publishes
        if watermarks or read.id != ws.page_id(RACED):
            return
        clock.set(3840)
        edit(ws, RACED, "Cancelar sin costo vale hasta setenta y dos horas antes.")
        clock.set(3900)
        watermarks.append(incremental_sync(client_for(sim), store_b, clock).watermark)

    report = incremental_sync(client_for(sim), store_a, clock, SyncConfig(on_page=overtake))
    assert report.attempts == 2
    assert watermarks == ["2026-04-09T17:04:00.000Z"] and store_a.watermark("notion") == watermarks[0]
    assert "setenta y dos horas antes" in texts(store_a) and "veinticuatro horas antes" not in texts(store_a)
    assert "lunes a sábado" in texts(store_a)
    assert content(store_a) == fresh_full_index(sim)
    clock.set(7200)
    assert incremental_sync(client_for(sim), store_a, clock).pages_reread == []


def test_a_sync_overtaken_at_every_attempt_gives_up_in_one_line_and_writes_nothing(store_url) -> None:
    path = store_url
    sim = bakery_simulator(seed=6)
    ws, clock = sim.workspace, sim.clock
    store_a, store_b = IndexStore(path), IndexStore(path)
    full_index(client_for(sim), store_a, clock)
    published = []

    def overtake(read) -> None:  # every time A reads, the page changes and another run publishes
        clock.advance(60)
        edit(ws, RACED, f"Versión {len(published)} de la política.")
        published.append(incremental_sync(client_for(sim), store_b, clock).watermark)
        clock.advance(60)

    clock.set(600)
    edit(ws, RACED, "Primera versión de la política.")
    clock.set(660)
    with pytest.raises(ConcurrentSyncError) as refusal:
        incremental_sync(client_for(sim), store_a, clock, SyncConfig(on_page=overtake))
    assert len(published) == MAX_ATTEMPTS
    assert "\n" not in str(refusal.value) and "Run it again" in str(refusal.value)
    assert store_a.sync_runs()[-1]["watermark"] == published[-1]  # the last run is the other one's


@pytest.mark.slow
def test_two_processes_syncing_one_index_keep_every_edit(store_url) -> None:
    path = store_url
    sim = bakery_simulator(seed=0, clock=WallClock(), tokens={KB_INTEGRATION: DEFAULT_SERVE_TOKEN})
    ws = sim.workspace
    store = IndexStore(path)
    full_index(client_for(sim), store, sim.clock)
    edit(ws, EDITED, "Entregamos de lunes a sábado.")
    edit(ws, RACED, "Cancelar sin costo vale hasta veinticuatro horas antes.")
    with serve_in_background(sim) as server:
        other = []

        def overtake(read) -> None:  # this process has read P; P is edited; another process syncs the file
            if other or read.id != ws.page_id(RACED):
                return
            edit(ws, RACED, "Cancelar sin costo vale hasta setenta y dos horas antes.")
            other.append(subprocess.run(
                [sys.executable, "-m", "lab", "sync", "--base-url", server.base_url, "--db", str(path),
                 "--rate", "50"], capture_output=True, text=True, timeout=120,
                env={**os.environ, "NOTION_TOKEN": DEFAULT_SERVE_TOKEN}))

        report = incremental_sync(client_for(sim), store, sim.clock, SyncConfig(on_page=overtake))
    assert other[0].returncode == 0, other[0].stderr
    assert report.attempts == 2
    assert [run["kind"] for run in store.sync_runs()] == ["full", "incremental", "incremental"]
    assert store.watermark("notion") == max(run["watermark"] for run in store.sync_runs())
    assert "setenta y dos horas antes" in texts(store) and "veinticuatro horas antes" not in texts(store)
    assert content(store) == fresh_full_index(sim)


OPENERS = 4  # processes opening one new index at the same moment


def _open_when_released(path: str, barrier, errors) -> None:
    for round_ in range(20):
        barrier.wait()
        try:
            IndexStore(another_store(path, f"round_{round_}")).close()
        except Exception as exc:  # noqa: BLE001 - reported to the parent, which fails the test
            errors.put(f"round {round_}: {exc!r}")


def test_processes_creating_the_schema_at_the_same_moment_all_succeed(store_url) -> None:
    """Four processes open one new index at once, twenty times over: each ends with a valid index (the first
    creates it under the write lock, the others open what it made), none is refused."""
    context = multiprocessing.get_context("fork")
    barrier, errors = context.Barrier(OPENERS), context.Queue()
    workers = [context.Process(target=_open_when_released, args=(store_url, barrier, errors))
               for _ in range(OPENERS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    found = []
    while not errors.empty():
        found.append(errors.get())
    assert found == [] and [worker.exitcode for worker in workers] == [0] * OPENERS
