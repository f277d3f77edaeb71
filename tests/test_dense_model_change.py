"""An index keeps one dense model's vectors: a sync or a search with another model is refused, naming both,
and a full index with a new model embeds every chunk again and keeps only that model's rows."""

from __future__ import annotations

import numpy as np
import pytest

from lab.client import NoPacing, NotionClient
from lab.course.edits import afternoon_edits, apply_edits
from lab.index import IndexStore, ModelMismatchError, ModelNotServingError, TFIDF_MODEL, require_dense_model
from lab.ingest import SyncConfig
from lab.ingest.sync import full_index, incremental_sync
from lab.retrieval import IndexSearcher, StoredVectorRetriever
from lab.simulator import in_process_session
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator
from tests.test_ingest_models import CountingEmbedder


class OtherEmbedder(CountingEmbedder):
    """Another model of the same dimension: its rows look alike but live in another space."""

    name = "other-3"


def _indexed(embedder):
    sim = bakery_simulator(seed=6)
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    store = IndexStore(":memory:")
    full_index(client, store, sim.clock, SyncConfig(dense=embedder))
    return sim, client, store


def test_a_sync_with_another_dense_model_is_refused_before_any_read_or_embedding() -> None:
    sim, client, store = _indexed(CountingEmbedder())
    apply_edits(sim.workspace, afternoon_edits())
    sim.clock.set(sim.clock.now() + 3 * 3600)
    before, requests, other = store.dump(), len(client.log), OtherEmbedder()
    with pytest.raises(ModelNotServingError, match="holds vectors of 'counting-3', not of 'other-3'.*full_index"):
        incremental_sync(client, store, sim.clock, SyncConfig(dense=other))
    assert other.sent == [] and len(client.log) == requests and store.dump() == before
    assert isinstance(ModelNotServingError("x"), ModelMismatchError)


def test_the_same_model_syncs_and_an_index_without_dense_vectors_takes_any() -> None:
    sim, client, store = _indexed(CountingEmbedder())
    apply_edits(sim.workspace, afternoon_edits())
    sim.clock.set(sim.clock.now() + 3 * 3600)
    incremental_sync(client, store, sim.clock, SyncConfig(dense=CountingEmbedder()))
    assert store.count_chunks("counting-3") == store.count_chunks()
    require_dense_model(IndexStore(":memory:"), "other-3")  # empty: nothing to mix with
    require_dense_model(store, None)  # no dense model named: nothing embedded


def test_a_full_index_with_a_new_model_embeds_every_chunk_and_drops_the_old_models_rows() -> None:
    sim, client, store = _indexed(CountingEmbedder())
    other = OtherEmbedder()
    full_index(client, store, sim.clock, SyncConfig(dense=other))
    assert set(store.models()) == {TFIDF_MODEL, "other-3"}
    assert store.count_chunks("other-3") == store.count_chunks() == len(other.sent)


def test_a_search_with_a_model_the_index_does_not_hold_names_both_before_embedding_anything() -> None:
    _, _, store = _indexed(CountingEmbedder())
    asked: list[str] = []
    retriever = StoredVectorRetriever("other-3", encode=lambda q: asked.append(q) or np.ones(3, np.float32))
    with pytest.raises(ModelMismatchError, match="no stored 'other-3' vectors \\(it holds 'counting-3'\\)"):
        IndexSearcher(store, retriever).search("¿Abren el 1 de mayo?")
    assert asked == []
