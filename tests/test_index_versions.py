"""Each chunk's documentation version in the index: stored and read back on both backends, written by file
ingestion (a new version alone rewrites the rows, embedding nothing) and by the sync (from the select a
``version_property`` names), and an index of the previous schema migrated when it is opened."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import numpy as np

from lab.index import SCHEMA_VERSION, IndexedPage, IndexStore
from lab.index.migrations import MIGRATIONS, migrate
from lab.ingest import ingest_folder
from lab.ingest.sync import SyncConfig, full_index, incremental_sync
from lab.notion.pages import PageMetadata, PageProperties
from lab.retrieval import BM25Retriever, ChunkFilter, IndexSearcher
from lab.simulator import NotionSimulator
from sync_histories import _client, config, content, reference, small_workspace
from tests.docs_fixtures import embedder, folder  # noqa: F401 (fixtures)

QUICKSTART = "guides/quickstart.md"
VERSIONS = {"2.1", "3.2", None}  # the docs corpus: the API pages, the product pages, two pages without one


def versions_by_file(store: IndexStore, path: str) -> set[str | None]:
    ids = set(store.file_chunk_ids("docs")[path])
    return {row["version"] for row in store.chunks() if row["id"] in ids}


def set_comment(folder: Path, path: str, old: str, new: str) -> None:
    file = folder / path
    text = file.read_text(encoding="utf-8")
    assert old in text.splitlines()[0]
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


# ---------------------------------------------------------------------- the store, both backends

def test_a_chunks_and_a_pages_version_round_trip_and_a_chunk_without_one_stores_none(store_url) -> None:
    store = IndexStore(store_url)
    base = {"page_id": "p", "title": "T", "type": "", "section": None, "text": "x", "tokens": 1, "fingerprint": "f",
            "edited": "2026-03-02"}
    store.put_chunks([{**base, "id": "a", "order": 0, "version": "3.2"}, {**base, "id": "b", "order": 1}],
                     np.eye(2, dtype=np.float32), "m-2")
    assert {row["id"]: row["version"] for row in store.chunks()} == {"a": "3.2", "b": None}
    store.update_chunks([{**base, "id": "a", "order": 0, "version": "3.3"}])
    assert store.chunks(ids=["a"])[0]["version"] == "3.3"
    store.put_pages([IndexedPage(info=PageMetadata(id="p", title="T", edited="2026-03-02", version="3.3"))])
    assert store.pages()["p"].version == "3.3"
    store.close()
    with IndexStore(store_url) as again:
        assert again.chunks(ids=["a"])[0]["version"] == "3.3" and again.pages()["p"].version == "3.3"


# ---------------------------------------------------------------------- migrating an index of schema 7

def as_schema_7(url: str) -> None:
    """Make the closed index at ``url`` exactly what the previous release wrote: schema 7, whose chunks and
    pages had no version (the columns it adds come last, where the migration puts them back)."""
    statements = ["ALTER TABLE {s}chunks DROP COLUMN version", "ALTER TABLE {s}pages DROP COLUMN version",
                  "UPDATE {s}meta SET value = '7' WHERE key = 'schema_version'"]
    if url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(url) as db:
            for statement in statements:
                db.execute(statement.format(s="lab_default."))
        return
    with sqlite3.connect(url) as db:
        for statement in statements:
            db.execute(statement.format(s=""))
    db.close()


def test_an_index_of_the_previous_schema_is_migrated_when_opened_and_the_next_run_fills_the_versions(
        store_url, folder, embedder) -> None:
    assert 7 in MIGRATIONS and SCHEMA_VERSION == 8
    with IndexStore(store_url) as store:
        ingest_folder(store, folder, embedder)
        vectors = store.vectors(embedder.name)
    as_schema_7(store_url)
    with IndexStore(store_url) as store:  # opening migrates
        assert store.get_meta("schema_version") == str(SCHEMA_VERSION)
        assert {row["version"] for row in store.chunks()} == {None}
        assert IndexSearcher(store, BM25Retriever()).search("API token", k=3)  # searchable as it is
        report = ingest_folder(store, folder, embedder)
        assert report.files_cut == 11 and report.texts_embedded == 0 and report.chunks_changed == 0
        assert {row["version"] for row in store.chunks()} == VERSIONS
        ids, matrix = store.vectors(embedder.name)
        assert ids == vectors[0] and np.array_equal(matrix, vectors[1])  # no vector moved
    with IndexStore(store_url) as store:  # an index up to date is opened as it is
        assert store.get_meta("schema_version") == str(SCHEMA_VERSION)


def test_an_old_index_opened_by_two_stores_is_migrated_by_the_first_only(tmp_path, folder, embedder) -> None:
    path = str(tmp_path / "kb.sqlite")
    with IndexStore(path) as store:
        ingest_folder(store, folder, embedder)
    as_schema_7(path)
    with IndexStore(path) as first, IndexStore(path) as second:  # the second finds it migrated: no column twice
        with first.transaction():
            assert migrate(first._db, path) == []  # what a process that waited for the lock finds
        assert second.count_chunks() == first.count_chunks() > 0


# ---------------------------------------------------------------------- file ingestion

def test_each_chunk_of_a_file_keeps_its_publication_comments_version_none_without_one(folder, embedder) -> None:
    store = IndexStore(":memory:")
    ingest_folder(store, folder, embedder)
    assert versions_by_file(store, QUICKSTART) == {"3.2"}
    assert versions_by_file(store, "api/authentication.md") == {"2.1"}
    assert versions_by_file(store, "api/webhooks.md") == {None}  # its comment names no version
    assert {row["version"] for row in store.chunks()} == VERSIONS


def test_a_new_version_with_the_same_text_rewrites_the_rows_and_embeds_nothing(folder, embedder) -> None:
    store = IndexStore(":memory:")
    first = ingest_folder(store, folder, embedder)
    before = store.vectors(embedder.name)
    set_comment(folder, QUICKSTART, "version: 3.2 | updated: 2026-03-02", "version: 3.3 | updated: 2026-04-01")
    bumped = ingest_folder(store, folder, embedder)
    assert (bumped.files_cut, bumped.texts_embedded, bumped.chunks_changed, bumped.chunks_new) == (1, 0, 0, 0)
    assert bumped.generation == first.generation + 1  # what a search filters on moved: caches must know
    assert versions_by_file(store, QUICKSTART) == {"3.3"}
    ids = set(store.file_chunk_ids("docs")[QUICKSTART])
    assert {row["edited"] for row in store.chunks() if row["id"] in ids} == {"2026-04-01"}
    after = store.vectors(embedder.name)
    assert after[0] == before[0] and np.array_equal(after[1], before[1])
    hits = IndexSearcher(store, BM25Retriever()).search("quickstart", k=50, where=ChunkFilter(version="3.3"))
    assert hits and {hit.id for hit in hits} == ids
    set_comment(folder, QUICKSTART, " | version: 3.3", "")
    ingest_folder(store, folder, embedder)
    assert versions_by_file(store, QUICKSTART) == {None}  # a version taken out of the comment goes too


# ---------------------------------------------------------------------- the sync of a Notion workspace

# The simulator gives every select of a row the same option, so the version select names the row's type
# (faq, politica); a sub-page has its parent's.
VERSION_PROPERTY = "Tipo"


def versioned() -> SyncConfig:
    return replace(config(), version_property=VERSION_PROPERTY)


def test_page_properties_read_the_version_select_they_name_and_none_without_a_name() -> None:
    page = {"object": "page", "id": "p", "properties": {
        "Name": {"type": "title", "title": [{"plain_text": "Webhooks"}]},
        "Version": {"type": "select", "select": {"name": "3.2"}}}}
    assert PageProperties(version="Version").read(page).version == "3.2"
    assert PageProperties().read(page).version is None
    assert PageProperties(version="Missing").read(page).version is None


def test_a_full_index_stores_each_pages_version_on_the_page_and_its_chunks_a_sub_page_its_parents() -> None:
    sim = NotionSimulator(small_workspace(), seed=1)
    store = IndexStore(":memory:")
    full_index(_client(sim, None), store, sim.clock, versioned())
    pages = store.pages()
    assert {page.version for page in pages.values()} == {"faq", "politica"}
    assert all(page.version == page.type for page in pages.values())
    cases = next(page for page in pages.values() if page.title == "Cancelaciones > Casos")
    assert cases.version == "politica"
    assert all(row["version"] == pages[row["page_id"]].version for row in store.chunks())


def test_a_sync_rewrites_the_chunks_of_a_page_whose_version_changed_and_equals_a_full_index() -> None:
    ws = small_workspace()
    sim = NotionSimulator(ws, seed=1)
    store = IndexStore(":memory:")
    full_index(_client(sim, None), store, sim.clock, versioned())
    policy = ws.page_id("policy")
    sim.clock.advance(120)
    ws.set_select(policy, "faq")
    sim.clock.advance(120)
    report = incremental_sync(_client(sim, None), store, sim.clock, versioned())
    assert report.tokens_embedded == 0 and report.chunks_updated == 0  # same text: no new vector
    assert {row["version"] for row in store.chunks() if row["page_id"] == policy} == {"faq"}
    assert content(store) == reference(ws, sim.clock.now(), versioned())


def test_a_sync_with_a_version_property_the_index_lacked_reads_every_page_again() -> None:
    sim = NotionSimulator(small_workspace(), seed=1)
    store = IndexStore(":memory:")
    full_index(_client(sim, None), store, sim.clock, config())
    assert {page.version for page in store.pages().values()} == {None}
    sim.clock.advance(120)
    report = incremental_sync(_client(sim, None), store, sim.clock, versioned())
    assert len(report.pages_reread) == len(store.pages())
    assert {row["version"] for row in store.chunks()} == {"faq", "politica"}


def test_lesson_05s_question_helpers_search_only_what_the_filter_keeps(folder, embedder) -> None:
    from lab.retrieval.offline_index import ask_index

    store = IndexStore(":memory:")
    ingest_folder(store, folder, embedder)
    chunk_versions = {row["id"]: row["version"] for row in store.chunks()}
    question, where = "How do I create a shift?", ChunkFilter(version="3.2")
    every, filtered = ask_index(store, question, k=8), ask_index(store, question, k=8, where=where)
    assert {chunk_versions[i] for i in every["id"]} != {"3.2"}  # unfiltered, other versions come up too
    assert len(filtered) == 8 and {chunk_versions[i] for i in filtered["id"]} == {"3.2"}
    everything = ask_index(store, question, k=len(chunk_versions))  # filtered before ranking, scores unchanged:
    assert list(filtered["id"]) == [i for i in everything["id"] if chunk_versions[i] == "3.2"][:8]
