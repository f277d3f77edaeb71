"""An index's memory grows with the pages, not with pages x vocabulary.

A full index and a one-edit sync of a 1,000-page workspace whose vocabulary grows with it (made-up
words per page, as a real knowledge base's names, codes and jargon do) may peak at about ten
times a 100-page run's memory, no more. Dense TF-IDF rows (chunks x terms floats) grew
quadratically here: 4 times the pages took 11 times the memory, and 10 times about 60.
"""

from __future__ import annotations

from bench.measure import peak_bytes
from lab.client import NoPacing, NotionClient
from lab.datasets.scaled_bakery import scaled_bakery_spec
from lab.index import IndexStore
from lab.ingest.sync import full_index, incremental_sync
from lab.simulator import in_process_session
from lab.simulator.limits import LimitsConfig
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator

DISTINCT_WORDS = 30  # made-up words per cloned page: the vocabulary grows with the workspace


def _peak_of_index_and_one_edit(pages: int) -> int:
    sim = bakery_simulator(seed=0, limits=LimitsConfig(plan="enterprise"),
                           spec=scaled_bakery_spec(pages, distinct_words=DISTINCT_WORDS))
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    store = IndexStore(":memory:")

    def index_then_sync_one_edit() -> None:
        full_index(client, store, sim.clock)
        summary = sim.workspace.find_block(sim.workspace.page_by_title("Ficha: Rol de canela").id, "Resumen")
        sim.workspace.edit_block_text(summary.id, "Resumen: clave RC-01; $40 la pieza.")
        sim.clock.advance(120)
        assert incremental_sync(client, store, sim.clock).chunks_updated == 1

    return peak_bytes(index_then_sync_one_edit)


def test_the_peak_memory_of_an_index_and_a_sync_grows_about_linearly_with_the_pages() -> None:
    small, large = _peak_of_index_and_one_edit(100), _peak_of_index_and_one_edit(1000)
    assert large / small < 15, f"100 pages peaked at {small / 1e6:.0f} MB, 1,000 pages at {large / 1e6:.0f} MB"
