"""TF-IDF is stored as term counts: an edit rewrites only its page's counts, and what loads from
them is exactly a full refit (the same vectors, the same rankings for TF-IDF and BM25)."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from lab.client import NoPacing, NotionClient
from lab.course.edits import afternoon_edits, apply_edits
from lab.index import SCHEMA_VERSION, TFIDF_MODEL, CorpusModels, IndexStore, SchemaVersionError, stored_tfidf
from lab.ingest.sync import full_index, incremental_sync
from lab.retrieval import BM25Retriever, SearchCorpus, TfidfRetriever
from lab.simulator import in_process_session
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator
from lab.vectors import CJKBigramAnalyzer

QUESTIONS = ["¿El rol de canela lleva nuez?", "¿Hasta cuándo puedo cancelar un pastel?", "¿Abren el 1 de mayo?"]


def _synced_through_the_afternoon() -> tuple[IndexStore, IndexStore]:
    """An index synced edit by edit through the afternoon, and one indexed afresh at its end."""
    sim = bakery_simulator(seed=6)
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    synced = IndexStore(":memory:")
    full_index(client, synced, sim.clock)
    for edit in afternoon_edits():
        apply_edits(sim.workspace, [edit])
        incremental_sync(client, synced, sim.clock)
    fresh = IndexStore(":memory:")
    full_index(client, fresh, sim.clock)
    return synced, fresh


@pytest.fixture(scope="module")
def afternoon() -> tuple[IndexStore, IndexStore]:
    return _synced_through_the_afternoon()


def test_term_count_rows_can_be_looked_up_by_id(afternoon) -> None:
    synced, _ = afternoon
    every = synced.chunks(TFIDF_MODEL)
    some = [every[5]["id"], every[0]["id"], "not-a-chunk"]
    assert synced.chunks(TFIDF_MODEL, some) == [every[0], every[5]]


def test_counts_synced_edit_by_edit_load_as_the_tfidf_of_a_full_refit(afternoon) -> None:
    synced, fresh = afternoon
    texts = [row["text"] for row in synced.chunks(TFIDF_MODEL)]
    refit = CorpusModels().fit(texts)
    loaded = stored_tfidf(synced)
    assert loaded.tfidf_.vocabulary_ == refit.tfidf_.vocabulary_
    assert np.array_equal(loaded.tfidf_.idf_, refit.tfidf_.idf_)
    assert (loaded.matrix_ != refit.matrix_).nnz == 0
    synced_state, fresh_state = synced.state(), fresh.state()
    for held in ("chunks", "term_counts", "document_frequencies", "models"):
        assert synced_state[held] == fresh_state[held]


def test_the_stored_document_frequencies_are_the_chunks_containing_each_term(afternoon) -> None:
    synced, _ = afternoon
    stored = synced.term_counts(TFIDF_MODEL)
    assert np.array_equal(stored.document_frequency, np.bincount(stored.counts.indices,
                                                                 minlength=len(stored.terms)))
    assert stored.document_frequency.min() > 0  # a term no chunk holds any more left the vocabulary
    assert synced.models()[TFIDF_MODEL] == len(stored.terms)


def test_retrievers_fitted_on_the_stored_counts_rank_as_when_fitted_on_the_texts(afternoon) -> None:
    synced, _ = afternoon
    stored = SearchCorpus.from_index(synced)
    texts_only = SearchCorpus.from_chunks(synced.chunks(TFIDF_MODEL), pages=synced.pages())
    assert stored.term_counts is not None and texts_only.term_counts is None
    for retriever in (TfidfRetriever, BM25Retriever):
        assert retriever().fit(stored).search_many(QUESTIONS, k=5) == retriever().fit(texts_only).search_many(
            QUESTIONS, k=5)


def test_a_retriever_with_another_analyzer_counts_the_texts_again(afternoon) -> None:
    synced, _ = afternoon
    corpus = SearchCorpus.from_index(synced)
    assert corpus.stored_counts(CJKBigramAnalyzer()) is None
    assert corpus.with_texts(corpus.texts).term_counts is None  # other texts, other counts
    bigrams = TfidfRetriever(analyzer=CJKBigramAnalyzer())
    assert bigrams.fit(corpus).search("canela", k=1) == bigrams.fit(corpus.with_texts(corpus.texts)).search(
        "canela", k=1)


def test_a_one_page_edit_rewrites_only_that_pages_counts() -> None:
    sim = bakery_simulator(seed=6)
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    store = IndexStore(":memory:")
    full_index(client, store, sim.clock)
    before = dict(store.state()["term_counts"])
    apply_edits(sim.workspace, afternoon_edits()[1:2])  # the cinnamon roll's allergens
    report = incremental_sync(client, store, sim.clock)
    after = dict(store.state()["term_counts"])
    changed = {chunk_id for chunk_id in before.keys() | after.keys() if before.get(chunk_id) != after.get(chunk_id)}
    page = sim.workspace.page_id("ficha-rol-de-canela")
    assert report.chunks_updated >= 1 and changed
    assert all(chunk_id.startswith(page) for chunk_id in changed)


def test_dense_vectors_are_refused_under_the_name_of_a_counts_model(afternoon) -> None:
    synced, _ = afternoon
    row = synced.chunks(TFIDF_MODEL)[0]
    with pytest.raises(Exception, match="stored as term counts"):
        synced.put_chunks([row], np.ones((1, 3), dtype=np.float32), TFIDF_MODEL)


def test_an_index_of_schema_2_is_refused_with_the_rebuild_advice(tmp_path) -> None:
    path = tmp_path / "old.sqlite"
    IndexStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    with pytest.raises(SchemaVersionError, match=f"schema version 2; this lab reads version {SCHEMA_VERSION}. Rebuild the index"):
        IndexStore(path)
