"""Switching the serving model: the old one serves until the commit, models never mix, a failure changes nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lab.chunking import InputTooLongError
from lab.course.lesson12 import FlakyEmbedder, ShortInputEmbedder
from lab.datasets.docs_corpus import DOCS_DIR, load_docs_corpus
from lab.index import (IndexStore, ModelMismatchError, ModelNotServingError, NoSwitchError, QueryVector,
                       SwitchPendingError)
from lab.embedders import LsaEmbedder
from lab.ingest import ModelSwitch, ingest_folder
from lab.retrieval import SearchCorpus, StoredVectorRetriever, search_serving

QUESTION = "How do I publish a week of shifts?"


def _paragraphs() -> list[str]:
    return [p for _, text in load_docs_corpus() for p in text.split("\n\n") if p.strip()]


@pytest.fixture(scope="module")
def small() -> LsaEmbedder:
    return LsaEmbedder(n_components=16).fit(_paragraphs())


@pytest.fixture(scope="module")
def large() -> LsaEmbedder:
    return LsaEmbedder(n_components=32).fit(_paragraphs())


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return Path(shutil.copytree(DOCS_DIR, tmp_path / "docs"))


@pytest.fixture
def store(folder, small) -> IndexStore:
    store = IndexStore(":memory:")
    ingest_folder(store, folder, small)
    return store


def fail_after(store: IndexStore, method: str, monkeypatch) -> None:
    """Make ``store.<method>`` do its work and then raise, as a disk that fills up part way would."""
    original = getattr(IndexStore, method)

    def work_then_fail(*args):
        original(store, *args)
        raise OSError("disk full")

    monkeypatch.setattr(store, method, work_then_fail)


def test_a_prepared_switch_fills_the_new_model_while_the_old_one_keeps_serving(store, small, large) -> None:
    report = ModelSwitch(store, batch_size=20).prepare(large)
    assert (report.old, report.new, report.chunks) == (small.name, large.name, store.count_chunks())
    assert report.texts_embedded == report.chunks and report.batches == -(-report.chunks // 20)
    assert store.count_chunks(large.name) == store.count_chunks(small.name)
    assert store.serving_model() == small.name
    assert search_serving(store, QueryVector.embed(small, QUESTION), k=3)


def test_searching_the_new_model_before_the_commit_is_refused(store, large) -> None:
    ModelSwitch(store).prepare(large)
    with pytest.raises(ModelNotServingError, match="does not serve yet"):
        search_serving(store, QueryVector.embed(large, QUESTION))


def test_a_query_vector_of_one_model_is_never_scored_against_another_models_rows(store, small, large) -> None:
    ModelSwitch(store).prepare(large)
    with pytest.raises(ModelMismatchError):  # a stored-vector search refuses by dimension
        StoredVectorRetriever(small.name, encode=large.embed_query).fit(SearchCorpus.from_index(store)).search(QUESTION)
    disguised = QueryVector(model=small.name, vector=large.embed_query(QUESTION))
    with pytest.raises(ModelMismatchError, match="another model"):
        search_serving(store, disguised)
    assert issubclass(ModelNotServingError, ModelMismatchError)


def test_the_commit_makes_the_new_model_serve_and_drops_the_old_rows(store, folder, small, large) -> None:
    switch = ModelSwitch(store)
    switch.prepare(large)
    assert switch.commit() == large.name
    assert store.serving_model() == large.name and set(store.models()) == {large.name}
    assert store.pending_switch() is None
    assert search_serving(store, QueryVector.embed(large, QUESTION))
    with pytest.raises(ModelNotServingError):
        search_serving(store, QueryVector.embed(small, QUESTION))
    assert ingest_folder(store, folder, large).texts_embedded == 0


def test_an_ingestion_run_during_a_switch_is_refused(store, folder, small, large) -> None:
    ModelSwitch(store).prepare(large)
    with pytest.raises(SwitchPendingError, match="commit or abort"):
        ingest_folder(store, folder, small)


def test_an_aborted_switch_leaves_the_index_as_before_the_switch(store, large) -> None:
    before = store.dump()
    switch = ModelSwitch(store)
    switch.prepare(large)
    switch.abort()
    assert store.dump() == before
    with pytest.raises(NoSwitchError):
        switch.commit()


@pytest.mark.parametrize("fail_on", [1, 2, 3])
def test_an_embedder_failing_mid_switch_leaves_the_old_model_serving_and_nothing_written(store, small, large,
                                                                                      fail_on) -> None:
    before = store.dump()
    with pytest.raises(ConnectionError):
        ModelSwitch(store, batch_size=30).prepare(FlakyEmbedder(large, fail_on))
    assert store.dump() == before and store.serving_model() == small.name


def test_a_write_failing_mid_switch_rolls_back_every_new_row(store, large, monkeypatch) -> None:
    before = store.dump()
    fail_after(store, "put_chunks", monkeypatch)
    with pytest.raises(OSError):
        ModelSwitch(store).prepare(large)
    assert store.dump() == before


def test_a_commit_failing_half_way_leaves_the_old_model_serving(store, small, large, monkeypatch) -> None:
    switch = ModelSwitch(store)
    switch.prepare(large)
    prepared = store.dump()
    fail_after(store, "drop_model", monkeypatch)
    with pytest.raises(OSError):
        switch.commit()
    assert store.dump() == prepared and store.serving_model() == small.name
    assert store.pending_switch() == (large.name, small.name)


def test_a_switch_to_a_model_the_index_already_holds_is_refused(store, small) -> None:
    with pytest.raises(ModelMismatchError, match="already holds"):
        ModelSwitch(store).prepare(small)


def test_a_switch_to_a_model_that_reads_less_refuses_long_chunks_before_any_call(store, large) -> None:
    before = store.dump()
    with pytest.raises(InputTooLongError, match="input limit of 256 tokens"):
        ModelSwitch(store).prepare(FlakyEmbedder(ShortInputEmbedder(large, max_input_tokens=256), fail_on=1))
    assert store.dump() == before and store.pending_switch() is None


def test_preparing_a_switch_to_something_that_is_not_an_embedder_is_a_type_error_and_writes_nothing(store) -> None:
    before = store.models()
    with pytest.raises(TypeError, match="prepare takes a dense embedder .* not NoneType"):
        ModelSwitch(store).prepare(None)
    assert store.models() == before and not store.pending_switch()
