"""A page that shows a synced block held by another page is read again when what it shows changes.

The bakery's general opening hours are a synced original in "Política de horarios y atención",
shown by reference in a FAQ and a seasonal notice. Editing the original, or unsharing the page
that holds it, stamps neither of them.
"""

from __future__ import annotations

from lab.client import NoPacing, NotionClient
from lab.index import TFIDF_MODEL, IndexStore
from lab.ingest.sync import full_index, incremental_sync
from lab.simulator import KB_INTEGRATION, bakery_simulator, in_process_session

HOLDER = "Política de horarios y atención"
SHOWN_BY = ["Aviso: Semana Santa 2026", "Preguntas frecuentes: horarios y ubicación"]
ORIGINAL_TEXT = "Horario general de Trigo Lento"


def _client(sim) -> NotionClient:
    return NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                        pacer=NoPacing())


def _indexed_sim():
    sim = bakery_simulator(seed=0)
    store = IndexStore(":memory:")
    full_index(_client(sim), store, sim.clock)
    sim.clock.advance(120)
    return sim, store


def _content(store: IndexStore) -> dict:
    state = store.state()
    state.pop("sync_state")  # the watermark also counts edits of pages the index does not hold
    return state


def _fresh_index(sim) -> dict:
    store = IndexStore(":memory:")
    full_index(_client(sim), store, sim.clock)
    return _content(store)


def _original_line(ws) -> str:
    return ws.find_block(ws.page_by_title(HOLDER).id, ORIGINAL_TEXT).id


def test_editing_a_synced_original_rereads_every_page_that_shows_it() -> None:
    sim, store = _indexed_sim()
    ws = sim.workspace
    ws.edit_block_text(_original_line(ws), "Horario general: abrimos todos los días a las 6:00.")
    sim.clock.advance(120)
    report = incremental_sync(_client(sim), store, sim.clock)
    assert sorted(report.pages_reread) == sorted([HOLDER, *SHOWN_BY])
    assert _content(store) == _fresh_index(sim)


def test_unsharing_the_page_that_holds_an_original_drops_what_others_showed_of_it_and_sharing_brings_it_back() -> None:
    sim, store = _indexed_sim()
    ws = sim.workspace
    holder = ws.page_by_title(HOLDER).id
    ws.unshare(KB_INTEGRATION, holder)
    sim.clock.advance(120)
    report = incremental_sync(_client(sim), store, sim.clock)
    assert sorted(report.pages_reread) == sorted(SHOWN_BY) and report.pages_removed == [HOLDER]
    assert not [row for row in store.chunks(TFIDF_MODEL) if ORIGINAL_TEXT in row["text"]]
    assert _content(store) == _fresh_index(sim)
    ws.share(KB_INTEGRATION, holder)
    sim.clock.advance(120)
    report = incremental_sync(_client(sim), store, sim.clock)
    assert sorted(report.pages_reread) == sorted([HOLDER, *SHOWN_BY])
    assert _content(store) == _fresh_index(sim)
