"""Sub-pages are documents of their own: indexed under publishable pages with their breadcrumb,
found by the sync although editing one does not stamp its parent, and reconciled like any page."""

from __future__ import annotations

import pytest

from lab.client import collect_paginated_api
from lab.index import IndexStore
from lab.ingest.sync import full_index, incremental_sync
from lab.simulator import NotionSimulator
from sync_histories import (INTEGRATION, _client, config, content, reference, small_workspace,
                            sub_page_in_toggle)


def indexed_world(prepare=None):
    """The small workspace (after ``prepare(ws)``, if given) indexed at 16:00, and a sync function
    that returns its report."""
    ws = small_workspace()
    if prepare is not None:
        prepare(ws)
    sim = NotionSimulator(ws, seed=1)
    store = IndexStore(":memory:")
    full_index(_client(sim, None), store, sim.clock, config())

    def sync():
        return incremental_sync(_client(sim, None), store, sim.clock, config())

    return ws, sim, store, sync


def toggle_world(row: str = "delivery"):
    """The small workspace with a sub-page inside a toggle of ``row``, indexed a minute later."""
    def prepare(ws) -> None:
        sub_page_in_toggle(ws, row)
        ws.clock.set(60)
    return indexed_world(prepare)


def titles(store: IndexStore) -> dict[str, str]:
    return {page.info.title: page.parent_id for page in store.indexed_pages().values()}


def test_sub_pages_of_a_publishable_page_are_indexed_with_their_breadcrumb_and_their_parents_type() -> None:
    ws, _, store, _ = indexed_world()
    pages = titles(store)
    policy, cases = ws.page_id("policy"), ws.page_id("cases")
    assert pages["Cancelaciones > Casos"] == policy
    assert pages["Cancelaciones > Casos > Casos raros"] == cases
    rows = [row for row in store.chunks("tfidf") if row["page_id"] == cases]
    assert rows and {row["type"] for row in rows} == {"politica"}
    assert all(row["text"].startswith("Cancelaciones > Casos\n") or row["text"].startswith("Cancelaciones > Casos > ")
               for row in rows)


def test_sub_pages_of_a_page_that_is_not_publishable_and_pages_outside_the_data_source_are_never_indexed() -> None:
    ws, _, store, _ = indexed_world()
    held = set(store.pages())
    assert ws.page_id("draft-notes") not in held and ws.page_id("secret") not in held
    assert ws.page_id("draft") not in held


def test_an_edit_inside_a_sub_page_does_not_stamp_its_parent_yet_the_next_sync_rereads_the_sub_page() -> None:
    ws, sim, store, sync = indexed_world()
    rare = ws.page_id("rare")
    sim.clock.set(600)
    ws.edit_block_text(ws.find_block(rare, "Sección 5-0").id, "Sección revisada")
    # the trap: no row of the data source moved, so the watermark query returns nothing new
    source = store.get_meta("notion.data_source_id")
    changed = collect_paginated_api(_client(sim, None).data_sources.query, data_source_id=source, filter={
        "timestamp": "last_edited_time", "last_edited_time": {"after": store.watermark("notion")}})
    assert changed == []
    assert ws.pages[ws.page_id("policy")].edited == ws.pages[ws.page_id("cases")].edited < ws.pages[rare].edited
    report = sync()
    assert report.pages_reread == ["Cancelaciones > Casos > Casos raros"]
    assert any(row["section"] == "Sección revisada" for row in store.chunks("tfidf") if row["page_id"] == rare)
    assert content(store) == reference(ws, sim.clock.now())


def test_a_new_sub_page_comes_in_with_its_parent_and_a_trashed_one_leaves_with_its_own_sub_pages() -> None:
    ws, sim, store, sync = indexed_world()
    sim.clock.set(120)
    ws.add_child_page(ws.page_id("delivery"), {"key": "zones", "title": "Zonas",
                                                "blocks": [{"type": "paragraph", "text": "Centro y norte."}]})
    report = sync()
    assert sorted(report.pages_reread) == ["Entregas", "Entregas > Zonas"]
    sim.clock.set(240)
    ws.move_to_trash(ws.page_id("cases"))
    report = sync()
    assert sorted(report.pages_removed) == ["Cancelaciones > Casos", "Cancelaciones > Casos > Casos raros"]
    assert content(store) == reference(ws, sim.clock.now())


@pytest.mark.parametrize(("inside_a_toggle", "key", "moved", "block_reads"), [
    (False, "cases", ["Cancelaciones > Casos", "Cancelaciones > Casos > Casos raros"], 0),
    (True, "zones", ["Entregas > Zonas"], 1),  # the toggle, read once to find the page that holds it
], ids=["sub-page", "sub-page inside a toggle"])
def test_a_sub_page_unshared_leaves_and_comes_back_when_shared_again_although_nothing_was_stamped(
        inside_a_toggle, key, moved, block_reads) -> None:
    ws, sim, store, sync = toggle_world() if inside_a_toggle else indexed_world()
    page = ws.page_id(key)
    ws.unshare(INTEGRATION, page)
    sim.clock.set(120)
    assert sorted(sync().pages_removed) == moved
    ws.share(INTEGRATION, page)
    sim.clock.set(240)
    client = _client(sim, None)
    assert sorted(incremental_sync(client, store, sim.clock, config()).pages_reread) == moved
    assert list(client.log.frame()["endpoint"]).count("blocks.retrieve") == block_reads
    assert content(store) == reference(ws, sim.clock.now())


def test_renaming_a_page_renames_the_breadcrumb_of_every_page_under_it() -> None:
    ws, sim, store, sync = indexed_world()
    sim.clock.set(120)
    ws.rename(ws.page_id("policy"), "Cancelar")
    report = sync()
    assert sorted(report.pages_reread) == ["Cancelar", "Cancelar > Casos", "Cancelar > Casos > Casos raros"]
    sim.clock.set(240)
    ws.rename(ws.page_id("cases"), "Excepciones")
    sync()
    assert {"Cancelar", "Cancelar > Excepciones", "Cancelar > Excepciones > Casos raros"} <= set(titles(store))
    assert content(store) == reference(ws, sim.clock.now())


@pytest.mark.parametrize("inside_a_toggle", [False, True], ids=["sub-pages", "and one inside a toggle"])
def test_a_sync_with_nothing_to_do_lists_the_visible_pages_once_when_the_index_holds_sub_pages(inside_a_toggle) -> None:
    _, sim, _, sync = toggle_world() if inside_a_toggle else indexed_world()  # no block read for a page it holds
    sim.clock.set(600)
    report = sync()
    assert report.requests == 3 and report.pages_reread == []  # watermark query, publishable query, search


# ---------------------------------------------------------------------- sub-pages inside blocks

def test_a_sub_page_inside_a_toggle_of_a_publishable_page_is_indexed_by_a_full_index_under_that_page() -> None:
    ws, sim, store, _ = toggle_world()
    assert ws.pages[ws.page_id("zones")].parent_type == "block_id"
    assert titles(store)["Entregas > Zonas"] == ws.page_id("delivery")
    assert content(store) == reference(ws, sim.clock.now())


def test_a_sub_page_inside_a_toggle_edited_trashed_and_restored_is_followed_by_the_sync() -> None:
    ws, sim, store, sync = toggle_world()
    zones = ws.page_id("zones")
    sim.clock.set(600)
    ws.edit_block_text(ws.find_block(zones, "Centro y norte").id, "Centro, norte y sur.")
    assert sync().pages_reread == ["Entregas > Zonas"]  # its parent was not stamped
    sim.clock.set(720)
    ws.move_to_trash(zones)
    assert sync().pages_removed == ["Entregas > Zonas"]
    sim.clock.set(840)
    ws.restore(zones)
    assert sorted(sync().pages_reread) == ["Entregas", "Entregas > Zonas"]
    assert content(store) == reference(ws, sim.clock.now())


def test_a_sub_page_made_inside_a_toggle_comes_in_with_the_page_that_holds_the_toggle() -> None:
    ws, sim, store, sync = indexed_world()
    sim.clock.set(120)
    sub_page_in_toggle(ws, "hours", "extra", "Festivos")
    assert sorted(sync().pages_reread) == ["Horarios", "Horarios > Festivos"]
    assert content(store) == reference(ws, sim.clock.now())


def test_a_sub_page_inside_a_toggle_of_an_unpublished_row_is_never_indexed() -> None:
    ws, sim, store, sync = toggle_world("draft")
    zones = ws.page_id("zones")
    assert zones not in store.pages()
    sim.clock.set(600)
    ws.edit_block_text(ws.find_block(zones, "Centro y norte").id, "Centro, norte y sur.")
    sync()
    assert zones not in store.pages()
    assert content(store) == reference(ws, sim.clock.now())
