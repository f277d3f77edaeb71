"""Reconciliation goes both ways and leaves nothing stale, on either backend: pages that come back without an edit
are read, chunk rows carry their page's current metadata, and chunks of a shrunk page leave."""

from __future__ import annotations

import pytest

from lab.client import NoPacing, NotionClient
from lab.index import IndexStore
from lab.ingest.sync import full_index, incremental_sync
from lab.simulator import in_process_session
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator

POLICY = "politica-cancelaciones"


def bakery_index(store_url: str):
    sim = bakery_simulator(seed=6)
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    store = IndexStore(store_url)
    full_index(client, store, sim.clock)
    return sim, client, store


def fresh_full_index(sim) -> dict:
    """A full index of the workspace as it is now, by another client (same clock)."""
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    store = IndexStore(":memory:")
    full_index(client, store, sim.clock)
    return without_watermark(store)


def without_watermark(store: IndexStore) -> dict:
    state = store.state()
    return {"chunks": state["chunks"], "pages": state["pages"]}


def chunks_of(store: IndexStore, page_id: str) -> list[dict]:
    return [row for row in store.chunks("tfidf") if row["page_id"] == page_id]


def test_a_page_shared_again_without_an_edit_is_read_back_in_the_next_sync(store_url) -> None:
    sim, client, store = bakery_index(store_url)
    ws, policy = sim.workspace, sim.workspace.page_id(POLICY)
    held = len(chunks_of(store, policy))
    ws.unshare(KB_INTEGRATION, policy)
    sim.clock.set(600)
    assert incremental_sync(client, store, sim.clock).pages_removed == ["Política de cancelaciones"]
    ws.share(KB_INTEGRATION, policy)  # sharing is not an edit: last_edited_time stays older than the watermark
    assert ws.pages[policy].edited <= store.watermark("notion")
    sim.clock.set(1200)
    report = incremental_sync(client, store, sim.clock)
    assert report.pages_reread == ["Política de cancelaciones"] and report.chunks_new == held == 11
    assert without_watermark(store) == fresh_full_index(sim)


def test_a_page_published_again_comes_back_even_when_other_edits_moved_the_watermark_past_it(store_url) -> None:
    sim, client, store = bakery_index(store_url)
    ws, policy = sim.workspace, sim.workspace.page_id(POLICY)
    sim.clock.set(600)
    ws.set_publishable(policy, False)
    incremental_sync(client, store, sim.clock)
    sim.clock.set(1200)
    ws.set_publishable(policy, True)
    sim.clock.set(1800)
    ws.edit_block_text(ws.find_block(ws.page_id("faq-entregas"), "").id, "Entregamos de lunes a sábado.")
    report = incremental_sync(client, store, sim.clock)
    assert "Política de cancelaciones" in report.pages_reread
    assert without_watermark(store) == fresh_full_index(sim)


@pytest.mark.slow
def test_after_trash_and_restore_every_chunk_row_carries_the_pages_new_last_edit_though_no_text_changed(store_url) -> None:
    sim, client, store = bakery_index(store_url)
    ws, policy = sim.workspace, sim.workspace.page_id(POLICY)
    sim.clock.set(600)
    ws.move_to_trash(policy)
    incremental_sync(client, store, sim.clock)
    sim.clock.set(1200)
    ws.restore(policy)
    incremental_sync(client, store, sim.clock)
    sim.clock.set(1800)
    ws.move_to_trash(policy)
    ws.restore(policy)  # same minute: trashed and restored between two syncs, the text never left
    report = incremental_sync(client, store, sim.clock)
    assert (report.chunks_new, report.chunks_updated, report.chunks_unchanged) == (0, 0, 11)
    assert {row["edited"] for row in chunks_of(store, policy)} == {"2026-04-09T16:30:00.000Z"}
    assert store.pages()[policy].edited == "2026-04-09T16:30:00.000Z"
    assert without_watermark(store) == fresh_full_index(sim)


def test_a_page_that_shrinks_loses_the_chunks_of_the_sections_it_no_longer_has(store_url) -> None:
    sim, client, store = bakery_index(store_url)
    ws, policy = sim.workspace, sim.workspace.page_id(POLICY)
    before = {row["id"]: row["section"] for row in chunks_of(store, policy)}
    last_section = [b for b in ws.pages[policy].children if ws.blocks[b].type.startswith("heading")][-1]
    doomed = ws.pages[policy].children[ws.pages[policy].children.index(last_section):]
    sim.clock.set(600)
    for block in doomed:
        ws.delete_block(block)
    report = incremental_sync(client, store, sim.clock)
    after = {row["id"] for row in chunks_of(store, policy)}
    ghosts = {cid for cid, section in before.items() if section == ws.block_text(last_section)}
    assert ghosts and after == set(before) - ghosts and report.chunks_deleted == len(ghosts)
    assert store.count_chunks("tfidf") == store.count_chunks()
    assert without_watermark(store) == fresh_full_index(sim)
