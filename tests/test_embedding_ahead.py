"""A run embeds a batch of pages in a background thread while it reads the next batch, and the index,
the reports, the request log and the simulated clock are exactly those of a run that does not overlap."""

from __future__ import annotations

import dataclasses
import threading

import pytest

from lab.client import NoPacing, NotionClient
from lab.course.edits import afternoon_edits, apply_edits
from lab.index import IndexStore
from lab.ingest.sync import SyncConfig, full_index, incremental_sync
from lab.simulator import in_process_session
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator
from sync_histories import TextHashEmbedder

BATCH = 4  # pages a batch: the bakery's 43 documents make 11 batches
WAIT = 10.0  # seconds a test waits for the other thread before it fails rather than hangs


class RecordingEmbedder(TextHashEmbedder):
    """The text-hash model, noting each call's texts; ``before_call(number)`` runs first, in the caller's thread."""

    def __init__(self, before_call=None) -> None:
        self.calls: list[list[str]] = []
        self.before_call = before_call

    def embed_documents(self, texts):
        if self.before_call is not None:
            self.before_call(len(self.calls) + 1)
        self.calls.append(list(texts))
        return super().embed_documents(texts)


class Broken(Exception):
    """The model's failure."""


def _client(sim) -> NotionClient:
    return NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                        pacer=NoPacing())


def _embedding_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name.startswith("embedding-ahead")]


def _first_index_and_sync(embed_while_reading: bool) -> dict:
    """The bakery's first index and the afternoon's sync: everything a caller or a lesson can see of them."""
    sim, store, embedder = bakery_simulator(seed=6), IndexStore(":memory:"), RecordingEmbedder()
    config = SyncConfig(dense=embedder, batch_pages=BATCH, embed_while_reading=embed_while_reading)
    client = _client(sim)
    first = full_index(client, store, sim.clock, config)
    after_first = (store.state(), sim.clock.now())
    apply_edits(sim.workspace, afternoon_edits())
    sim.clock.set(2 * 3600)
    sync = incremental_sync(client, store, sim.clock, config)
    return {"reports": [dataclasses.asdict(first), dataclasses.asdict(sync)], "after first": after_first,
            "state": store.state(), "log": client.log.frame().to_dict("records"), "clock": sim.clock.now(),
            "texts": sorted(text for call in embedder.calls for text in call), "calls": len(embedder.calls)}


@pytest.mark.slow
def test_a_run_that_embeds_while_it_reads_gives_what_a_run_that_does_not_gives() -> None:
    overlapped, sequential = _first_index_and_sync(True), _first_index_and_sync(False)
    assert overlapped["texts"] == sequential["texts"]  # each text embedded once, whatever the thread
    assert overlapped == sequential


def test_the_next_batch_is_read_while_the_model_embeds_one() -> None:
    sim, store = bakery_simulator(seed=6), IndexStore(":memory:")
    client = _client(sim)
    pages_read = []
    next_batch_read = threading.Event()
    seen = {}

    def on_page(read) -> None:
        pages_read.append(read.id)
        if len(pages_read) == BATCH + 1:  # the first page of the second batch
            next_batch_read.set()

    def first_call_waits_for_the_reader(number: int) -> None:
        if number == 1:
            seen["reading on"] = not next_batch_read.is_set()
            seen["requests before"] = len(client.log)
            seen["next batch read"] = next_batch_read.wait(WAIT)  # a run that does not overlap never gets here
            seen["requests after"] = len(client.log)
            seen["thread"] = threading.current_thread().name

    embedder = RecordingEmbedder(first_call_waits_for_the_reader)
    report = full_index(client, store, sim.clock, SyncConfig(dense=embedder, batch_pages=BATCH, on_page=on_page))
    assert seen["reading on"] and seen["next batch read"], "the first batch was not embedded while the next was read"
    assert seen["requests after"] > seen["requests before"]
    assert seen["thread"].startswith("embedding-ahead")
    assert len(embedder.calls[0]) > 0 and report.chunks_total == store.count_chunks() > 0
    assert _embedding_threads() == []


def test_without_overlap_the_model_is_called_only_after_every_read() -> None:
    sim, store = bakery_simulator(seed=6), IndexStore(":memory:")
    client = _client(sim)
    requests_at_calls = []
    embedder = RecordingEmbedder(lambda number: requests_at_calls.append(len(client.log)))
    report = full_index(client, store, sim.clock,
                        SyncConfig(dense=embedder, batch_pages=BATCH, embed_while_reading=False))
    assert set(requests_at_calls) == {report.requests}


def test_a_model_that_fails_while_the_run_reads_fails_the_run_after_every_read_and_writes_nothing() -> None:
    unbroken = bakery_simulator(seed=6)
    expected_requests = full_index(_client(unbroken), IndexStore(":memory:"), unbroken.clock,
                                   SyncConfig(batch_pages=BATCH)).requests
    sim, store = bakery_simulator(seed=6), IndexStore(":memory:")
    client = _client(sim)

    def second_call_fails(number: int) -> None:
        if number == 2:
            raise Broken("the model failed on batch 2")

    embedder = RecordingEmbedder(second_call_fails)
    with pytest.raises(Broken, match="batch 2"):
        full_index(client, store, sim.clock, SyncConfig(dense=embedder, batch_pages=BATCH))
    assert len(client.log) == expected_requests  # it read on, as a run that does not overlap does
    assert len(embedder.calls) == 1  # nothing more was sent after the failure
    assert store.count_chunks() == 0 and store.watermark("notion") is None
    assert store.staged_vector_count() == len(set(embedder.calls[0]))  # the first batch's vectors wait for a resume
    assert _embedding_threads() == []


def test_a_ctrl_c_while_the_model_embeds_leaves_no_thread_and_nothing_written() -> None:
    sim, store = bakery_simulator(seed=6), IndexStore(":memory:")
    embedding = threading.Event()
    read = []

    def on_page(page) -> None:
        read.append(page.id)
        if len(read) == BATCH + 2:
            assert embedding.wait(WAIT)
            raise KeyboardInterrupt

    embedder = RecordingEmbedder(lambda number: embedding.set())
    with pytest.raises(KeyboardInterrupt):
        full_index(_client(sim), store, sim.clock, SyncConfig(dense=embedder, batch_pages=BATCH, on_page=on_page))
    assert _embedding_threads() == []
    assert store.count_chunks() == 0 and store.watermark("notion") is None and store.staged_count() == BATCH + 2


def test_a_run_without_a_dense_model_starts_no_thread() -> None:
    sim, store = bakery_simulator(seed=6), IndexStore(":memory:")
    threads_seen = set()

    def on_page(page) -> None:
        threads_seen.update(thread.name for thread in _embedding_threads())

    full_index(_client(sim), store, sim.clock, SyncConfig(batch_pages=BATCH, on_page=on_page))
    assert threads_seen == set() and store.count_chunks() > 0


def test_progress_counts_every_chunk_the_model_embedded_once() -> None:
    sim, store = bakery_simulator(seed=6), IndexStore(":memory:")
    counted = []
    embedder = RecordingEmbedder()
    full_index(_client(sim), store, sim.clock,
               SyncConfig(dense=embedder, batch_pages=BATCH, on_embedded=counted.append))
    assert sum(counted) == sum(len(call) for call in embedder.calls) == store.count_chunks()
    assert len(counted) == len(embedder.calls) > 1
