"""Several workspaces in one PostgreSQL database: their syncs run at once and end as they would one after
another; writers of one workspace take turns; a reader sees one committed generation, never half of one."""

from __future__ import annotations

import threading

import pytest

from lab.client import NoPacing, NotionClient
from lab.course.edits import afternoon_edits, apply_edits
from lab.index import IndexStore
from lab.ingest.sync import full_index, incremental_sync
from lab.simulator import in_process_session
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator
from store_urls import another_store

pytestmark = pytest.mark.usefixtures("postgres_cluster")

SEEDS = (0, 3, 6, 9)  # four bakeries, one workspace each


def index_then_sync(seed: int, url: str) -> dict:
    """A full index of one bakery, its afternoon's edits, a sync; the index's state."""
    sim = bakery_simulator(seed=seed)
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    with IndexStore(url) as store:
        full_index(client, store, sim.clock)
        apply_edits(sim.workspace, afternoon_edits())
        sim.clock.set(2 * 3600)
        incremental_sync(client, store, sim.clock)
        return store.state()


@pytest.mark.slow
def test_four_workspaces_syncing_at_once_end_equal_to_four_syncing_one_after_another(postgres_url) -> None:
    alone = {seed: index_then_sync(seed, ":memory:") for seed in SEEDS}
    together: dict[int, dict] = {}
    errors: list[BaseException] = []

    def run(seed: int) -> None:
        try:
            together[seed] = index_then_sync(seed, another_store(postgres_url, f"bakery_{seed}"))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(seed,)) for seed in SEEDS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert errors == [] and together == alone


def _write_in_thread(url: str) -> tuple[threading.Thread, threading.Event]:
    done = threading.Event()

    def write() -> None:
        with IndexStore(url) as store:
            store.bump_generation()
        done.set()

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread, done


def test_writers_of_one_workspace_take_turns_and_writers_of_two_do_not_wait(postgres_url) -> None:
    bakery, school = another_store(postgres_url, "bakery"), another_store(postgres_url, "school")
    IndexStore(school).close()
    holder = IndexStore(bakery)
    with holder.transaction():
        holder.set_meta("holding", "yes")
        other_workspace, other_done = _write_in_thread(school)
        assert other_done.wait(10), "a write into another workspace waited for this one"
        same_workspace, same_done = _write_in_thread(bakery)
        assert not same_done.wait(0.5), "a second writer of the workspace did not wait for the first"
    assert same_done.wait(10)
    assert holder.generation() == 1 and IndexStore(school).generation() == 1


def test_a_reader_sees_one_committed_generation_while_a_writer_publishes(postgres_url) -> None:
    reader, writer = IndexStore(postgres_url), IndexStore(postgres_url)
    with writer.transaction():
        writer.bump_generation()
        writer.set_watermark("notion", "2026-04-09T17:00:00.000Z")
        assert reader.generation() == 0 and reader.watermark("notion") is None  # nothing half-written shows
    with reader.read_transaction():
        seen = (reader.generation(), reader.watermark("notion"))
        writer.bump_generation()
        writer.set_watermark("notion", "2026-04-09T18:00:00.000Z")
        assert (reader.generation(), reader.watermark("notion")) == seen  # the snapshot holds
    assert (reader.generation(), reader.watermark("notion")) == (2, "2026-04-09T18:00:00.000Z")
