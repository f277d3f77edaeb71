"""The models an index stores are fitted in one place: the sync, the offline index, the query side."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from lab.client import NoPacing, NotionClient
from lab.course.edits import afternoon_edits, apply_edits
from lab.index import TFIDF_MODEL, CorpusModels, IndexStore, stored_tfidf
from lab.ingest import SyncConfig
from lab.ingest.sync import full_index, incremental_sync
from lab.retrieval import ask_index
from lab.simulator import in_process_session
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator

# Texts that share words, so that LSA's singular values differ and its directions are unique.
TEXTS = ["Rol de canela con nuez y gluten.", "El rol de canela lleva canela y azúcar.",
         "Pan de masa madre con nuez y harina.", "Pan de elote con harina de maíz."]


@dataclass(frozen=True)
class Embedded:
    vectors: np.ndarray
    tokens: int


class CountingEmbedder:
    """A dense model that remembers what it was sent: one unit vector per text, by text length."""

    name = "counting-3"

    def __init__(self) -> None:
        self.sent: list[str] = []

    def embed_documents(self, texts):
        self.sent += list(texts)
        vectors = np.array([[len(t), 1.0, 0.0] for t in texts], dtype=np.float32)
        return Embedded(vectors / np.linalg.norm(vectors, axis=1, keepdims=True), 10 * len(texts))


def _synced(config: SyncConfig | None = None):
    sim = bakery_simulator(seed=6)
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    store = IndexStore(":memory:")
    full_index(client, store, sim.clock, config)
    return sim, client, store


def test_the_tfidf_refitted_from_the_store_is_the_one_the_sync_stored() -> None:
    _, _, store = _synced()
    ids, stored = store.vectors(TFIDF_MODEL)
    refitted = stored_tfidf(store)
    assert np.array_equal(refitted.vectors(TFIDF_MODEL), stored)
    best = int(np.argmax(stored @ refitted.query_vector("¿El rol de canela lleva nuez?")))
    assert ask_index(store, "¿El rol de canela lleva nuez?", k=1)["id"].iloc[0] == ids[best]


def test_the_models_save_tfidf_and_lsa_rows_as_they_fit_them() -> None:
    chunks = [{"id": f"p:{i}:00", "page_id": "p", "title": "P", "type": "", "section": None, "order": i,
               "text": text, "tokens": 1, "fingerprint": "f", "edited": ""} for i, text in enumerate(TEXTS)]
    models = CorpusModels(lsa_components=2).fit(TEXTS)
    assert models.names_ == [TFIDF_MODEL, "lsa-2"]
    store = IndexStore(":memory:")
    models.save(store, chunks)
    assert store.models() == {"lsa-2": 2, TFIDF_MODEL: models.matrix_.shape[1]}
    assert np.array_equal(store.vectors("lsa-2")[1], models.lsa_matrix_)
    with pytest.raises(ValueError, match="unknown model 'lsa-3'; these models are 'tfidf', 'lsa-2'"):
        models.query_vector("nuez", "lsa-3")
    with pytest.raises(ValueError, match="fitted on 4 texts; got 3 chunks"):
        models.save(store, chunks[:3])


def test_the_offline_index_and_the_retrievers_fit_through_the_same_models() -> None:
    from lab.retrieval import LsaRetriever, SearchCorpus

    chunks = [{"id": f"p:{i}:00", "page_id": "p", "title": "P", "section": None, "text": text}
              for i, text in enumerate(TEXTS)]
    retriever = LsaRetriever(n_components=2).fit(SearchCorpus.from_chunks(chunks))
    models = CorpusModels(lsa_components=2).fit(TEXTS)
    assert np.array_equal(retriever.matrix_, models.lsa_matrix_)


def test_a_dense_model_embeds_only_new_and_changed_chunks() -> None:
    embedder = CountingEmbedder()
    sim, client, store = _synced(SyncConfig(dense=embedder))
    first = len(embedder.sent)
    assert first == store.count_chunks(embedder.name) == store.count_chunks(TFIDF_MODEL)
    apply_edits(sim.workspace, afternoon_edits())
    sim.clock.set(2 * 3600)
    report = incremental_sync(client, store, sim.clock, SyncConfig(dense=embedder))
    assert len(embedder.sent) - first == report.chunks_new + report.chunks_updated
    assert store.count_chunks(embedder.name) == store.count_chunks(TFIDF_MODEL) == report.chunks_total
