"""A run publishes a batch of pages at a time: killed at any batch it leaves the previous index, the
first index resumes without reading or embedding again, and the result never depends on the batch size."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lab.client import NoPacing, NotionClient
from lab.course.edits import afternoon_edits, apply_edits
from lab.index import IndexStore
from lab.ingest.sync import SyncConfig, full_index, incremental_sync
from lab.simulator import in_process_session
from lab.simulator import simulator as simulator_module
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator
from sync_histories import TextHashEmbedder

BATCH = 4  # pages a batch: the bakery's 43 documents make 11 batches
SEED = 35


class Killed(Exception):
    """Stands for the process dying at that point."""


class RecordingEmbedder(TextHashEmbedder):
    """The text-hash model, noting every text it embedded; its call number ``kill_at`` dies instead."""

    def __init__(self, kill_at: int | None = None) -> None:
        self.sent: list[str] = []
        self.calls, self.kill_at = 0, kill_at

    def embed_documents(self, texts):
        self.calls += 1
        if self.calls == self.kill_at:
            raise Killed(f"killed while embedding batch {self.calls}")
        self.sent += list(texts)
        return super().embed_documents(texts)


def _client(sim) -> NotionClient:
    return NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                        pacer=NoPacing())


def _config(embedder: RecordingEmbedder | None = None, batch_pages: int = BATCH) -> SyncConfig:
    return SyncConfig(dense=embedder or RecordingEmbedder(), batch_pages=batch_pages)


def _uninterrupted() -> tuple[dict, int, int]:
    """The bakery's first index with a dense model, in batches: its state, its requests and its batches."""
    sim, store, embedder = bakery_simulator(seed=6), IndexStore(":memory:"), RecordingEmbedder()
    report = full_index(_client(sim), store, sim.clock, _config(embedder))
    return store.state(), report.requests, embedder.calls


def _die_at_call(store: IndexStore, method: str, call: int) -> None:
    """Make ``store.method``'s call number ``call`` die (the write pass calls put_pages once a batch)."""
    original, calls = getattr(store, method), [0]

    def dying(*args, **kwargs):
        calls[0] += 1
        if calls[0] == call:
            raise Killed(f"killed while writing batch {call}")
        return original(*args, **kwargs)

    setattr(store, method, dying)


@pytest.mark.slow
def test_the_index_is_the_same_whatever_the_batch_size() -> None:
    states = []
    for batch_pages in (1, 7, 1000):
        sim, store = bakery_simulator(seed=6), IndexStore(":memory:")
        full_index(_client(sim), store, sim.clock, _config(batch_pages=batch_pages))
        apply_edits(sim.workspace, afternoon_edits())
        sim.clock.set(2 * 3600)
        incremental_sync(_client(sim), store, sim.clock, _config(batch_pages=batch_pages))
        states.append(store.state())
    assert states[0] == states[1] == states[2]


@pytest.mark.slow
@pytest.mark.parametrize("phase", ["embedding", "writing"])
def test_a_first_index_killed_at_a_random_batch_resumes_without_reading_or_embedding_again(phase) -> None:
    expected, requests, batches = _uninterrupted()
    assert batches > 8
    for batch in random.Random(f"{SEED} {phase}").sample(range(1, batches + 1), 3):
        sim, store = bakery_simulator(seed=6), IndexStore(":memory:")
        dying = RecordingEmbedder(kill_at=batch if phase == "embedding" else None)
        if phase == "writing":
            _die_at_call(store, "put_pages", batch)
        with pytest.raises(Killed):
            full_index(_client(sim), store, sim.clock, _config(dying))
        assert store.count_chunks() == 0 and store.pages() == {} and store.watermark("notion") is None
        assert store.staged_vector_count() == len(set(dying.sent))  # what was embedded before the kill is kept
        sim.clock.advance(600)
        again = RecordingEmbedder()
        resumed = full_index(_client(sim), store, sim.clock, _config(again))
        assert store.state() == expected, f"killed while {phase} batch {batch}"
        assert resumed.pages_resumed == len(expected["pages"]) and resumed.requests < requests / 10
        assert not set(again.sent) & set(dying.sent)  # what was embedded before the kill is not embedded again
        if phase == "writing":
            assert again.sent == []
        assert store.staged_count() == store.staged_vector_count() == 0


@pytest.mark.slow
def test_a_process_killed_at_a_random_batch_of_the_publishing_transaction_resumes(tmp_path) -> None:
    expected, _, batches = _uninterrupted()
    batch = random.Random(SEED).randrange(2, batches)
    path = tmp_path / "kb.sqlite"
    script = textwrap.dedent(f"""
        import os, signal
        from lab.client import NoPacing, NotionClient
        from lab.index import IndexStore
        from lab.ingest.sync import SyncConfig, full_index
        from lab.simulator import in_process_session
        from lab.simulator.workspaces import bakery_simulator
        from sync_histories import TextHashEmbedder
        sim = bakery_simulator(seed=6)
        client = NotionClient(sim.token_for("indexador"), session=in_process_session(sim), clock=sim.clock,
                              pacer=NoPacing())
        store = IndexStore({str(path)!r})
        original, calls = store.put_pages, [0]
        def put_pages(pages):
            calls[0] += 1
            if calls[0] == {batch}:
                os.kill(os.getpid(), signal.SIGKILL)  # inside the publishing transaction, at batch {batch}
            original(pages)
        store.put_pages = put_pages
        full_index(client, store, sim.clock, SyncConfig(dense=TextHashEmbedder(), batch_pages={BATCH}))
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                            cwd=Path(__file__).parent)
    assert result.returncode == -9, result.stderr
    store = IndexStore(path)
    assert store.count_chunks() == 0 and store.staged_count() == len(expected["pages"])
    sim, again = bakery_simulator(seed=6), RecordingEmbedder()
    full_index(_client(sim), store, sim.clock, _config(again))
    assert store.state() == expected and again.sent == []


def test_a_sync_killed_at_a_random_batch_leaves_the_index_and_its_rerun_completes_it() -> None:
    sim, store = bakery_simulator(seed=6), IndexStore(":memory:")
    full_index(_client(sim), store, sim.clock, _config(batch_pages=1))
    apply_edits(sim.workspace, afternoon_edits())
    sim.clock.set(2 * 3600)
    reference = IndexStore(":memory:")
    reference.restore(store.serialize())
    batches = len(incremental_sync(_client(sim), reference, sim.clock, _config(batch_pages=1)).pages_reread)
    before = store.state()
    assert batches > 2
    for batch in random.Random(SEED).sample(range(1, batches + 1), 2):
        _die_at_call(store, "put_pages", batch)
        with pytest.raises(Killed):
            incremental_sync(_client(sim), store, sim.clock, _config(batch_pages=1))
        assert store.state() == before
        del store.put_pages
    incremental_sync(_client(sim), store, sim.clock, _config(batch_pages=1))
    assert store.state() == reference.state()


@pytest.mark.slow
def test_a_sync_after_an_edit_of_more_rows_than_a_query_returns_reads_every_edited_row(monkeypatch) -> None:
    """12,000 rows edited at once in a workspace of 20,000 stand as 30 edited of the bakery's 40, a query
    returning 25: the watermark query and the listing each take windows, and every edited row is read again."""
    sim, store = bakery_simulator(seed=6), IndexStore(":memory:")
    full_index(_client(sim), store, sim.clock, _config(batch_pages=3))
    monkeypatch.setattr(simulator_module, "QUERY_RESULT_LIMIT", 25)
    ws = sim.workspace
    rows = sorted((p for p in ws.pages.values() if p.parent_type == "data_source_id" and p.publishable),
                  key=lambda p: p.id)[:30]
    sim.clock.advance(120)
    for n, page in enumerate(rows):
        block = next(b for b in page.children if "rich_text" in ws.blocks[b].content)
        ws.edit_block_text(block, f"Revisado en lote, fila {n}: el horario cambia a partir de mayo.")
    sim.clock.advance(120)
    report = incremental_sync(_client(sim), store, sim.clock, _config(batch_pages=3))
    assert report.query_windows >= 4  # both listings past the limit
    assert {page.title for page in rows} <= set(report.pages_reread)
    texts = " ".join(row["text"] for row in store.chunks("tfidf"))
    assert all(f"Revisado en lote, fila {n}:" in texts for n in range(len(rows)))
    fresh = IndexStore(":memory:")
    full_index(_client(sim), fresh, sim.clock, _config(batch_pages=3))
    assert store.state()["chunks"] == fresh.state()["chunks"]


@pytest.mark.slow
def test_a_sync_with_another_analyzer_counts_every_chunk_again_batch_by_batch() -> None:
    from lab.vectors import CJKBigramAnalyzer

    sim, store = bakery_simulator(seed=6), IndexStore(":memory:")
    full_index(_client(sim), store, sim.clock, SyncConfig(batch_pages=5))
    apply_edits(sim.workspace, afternoon_edits())
    sim.clock.set(2 * 3600)
    bigrams = SyncConfig(analyzer=CJKBigramAnalyzer(), batch_pages=5)
    incremental_sync(_client(sim), store, sim.clock, bigrams)
    fresh = IndexStore(":memory:")
    full_index(_client(sim), fresh, sim.clock, bigrams)
    assert store.counts_analyzer("tfidf") == repr(CJKBigramAnalyzer())
    assert store.state()["term_counts"] == fresh.state()["term_counts"]
    assert store.state()["document_frequencies"] == fresh.state()["document_frequencies"]


def test_a_batch_size_that_is_not_a_whole_positive_number_is_refused_before_anything_is_read() -> None:
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="batch_pages must be a whole number of pages"):
            dataclasses.replace(SyncConfig(), batch_pages=bad)
