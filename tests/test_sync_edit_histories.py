"""After any history of edits, synced step by step, the index is the one a first index would build.

The sync keeps TF-IDF as term counts and document frequencies and adjusts them chunk by chunk, so
a bookkeeping slip (a frequency not lowered when a page leaves, a term not dropped when its last
chunk goes, a page read again whose old chunks stay) would not show in any single example. Here
random histories of the edits people make in Notion (text changed, a block deleted, a title
changed, a page unpublished and published again, trashed and restored, unshared and shared
again, a new page, a new sub-page) are synced after each step and compared with a first index of
the same workspace built from scratch: chunks, vectors, counts, frequencies and pages are equal.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lab.client import NotionClient
from lab.client.pacing import NoPacing
from lab.index import IndexStore
from lab.ingest.sync import full_index, incremental_sync
from lab.simulator import KB_INTEGRATION, bakery_simulator, in_process_session

KINDS = ["edit", "delete_block", "rename", "unpublish", "republish", "trash", "restore", "unshare", "share",
         "new_page", "new_sub_page"]
_step = st.lists(st.tuples(st.sampled_from(KINDS), st.integers(min_value=0, max_value=10_000)),
                 min_size=1, max_size=3)


def _client(sim) -> NotionClient:
    return NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                        pacer=NoPacing())


def _content(store: IndexStore) -> dict:
    state = store.state()
    state.pop("sync_state")  # a sync's watermark also counts edits of pages it does not index
    return state


def _apply(sim, kind: str, pick: int, counter: list[int]) -> None:
    ws = sim.workspace
    rows = sorted((p for p in ws.pages.values() if p.parent_type == "data_source_id"), key=lambda p: p.id)
    page = rows[pick % len(rows)]
    if kind in ("edit", "delete_block"):
        blocks = sorted((b for b in ws.blocks.values() if b.page_id == page.id and not b.in_trash
                         and "rich_text" in b.content), key=lambda b: b.id)
        if not blocks:
            return
        block = blocks[pick % len(blocks)]
        if kind == "edit":
            ws.edit_block_text(block.id, f"Texto nuevo {pick}: harina, nuez y piloncillo de la casa.")
        else:
            ws.delete_block(block.id)
    elif kind == "rename":
        ws.rename(page.id, f"{page.title} ({pick})")
    elif kind in ("unpublish", "republish"):
        ws.set_publishable(page.id, kind == "republish")
    elif kind in ("trash", "restore"):
        (ws.move_to_trash if kind == "trash" else ws.restore)(page.id)
    elif kind in ("unshare", "share"):
        (ws.unshare if kind == "unshare" else ws.share)(KB_INTEGRATION, page.id)
    elif kind == "new_page":
        counter[0] += 1
        ws.add_page({"key": f"nueva-{counter[0]}", "title": f"Aviso nuevo {counter[0]}",
                     "parent": {"type": "data_source", "key": "base-de-conocimiento"}, "type": "aviso",
                     "publishable": True, "blocks": [{"type": "paragraph", "text": f"Aviso número {pick}."}]})
    elif kind == "new_sub_page":
        counter[0] += 1
        ws.add_child_page(page.id, {"key": f"sub-{counter[0]}", "title": f"Nota {counter[0]}",
                                    "blocks": [{"type": "paragraph", "text": f"Una nota con {pick} gramos."}]})


@pytest.mark.slow
@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(history=st.lists(_step, min_size=1, max_size=3))
def test_after_any_history_of_edits_each_sync_leaves_the_index_a_first_index_would_build(history) -> None:
    sim = bakery_simulator(seed=3)
    client, store = _client(sim), IndexStore(":memory:")
    full_index(client, store, sim.clock)
    counter = [0]
    for step in history:
        sim.clock.advance(120)
        for kind, pick in step:
            _apply(sim, kind, pick, counter)
        sim.clock.advance(120)
        incremental_sync(client, store, sim.clock, force=True)
        fresh = IndexStore(":memory:")
        full_index(_client(sim), fresh, sim.clock)
        assert _content(store) == _content(fresh), f"after {step}"
