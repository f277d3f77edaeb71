"""Searching an index: the recipe lesson 10 tunes, fitted once on the index's chunks, kept in the file."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import numpy as np
import pytest

from lab.course.lesson06 import fresh_world
from lab.index import IndexStore
from lab.ingest.sync import SyncConfig, full_index, incremental_sync
from lab.retrieval import (LEXICAL, TUNED, IndexNotSearchableError, IndexSearcher, RecallAt, Recipe, ReciprocalRank,
                           SearchCorpus, TfidfRetriever, evaluate_search, heldout_bakery_questions)
from lab.retrieval.fitted_state import (DamagedStateError, FittedStateError, fitted_state, restore_fitted,
                                        state_from_bytes, state_to_bytes)
from lab.simulator import bakery_workspace

TABLES = Path(__file__).resolve().parents[1] / "data" / "tables"
QUESTIONS = ["¿Abren el 1 de mayo?", "¿El rol de canela lleva nuez?", "¿Hasta cuándo puedo cancelar un pastel?",
             "¿Hacen entregas a domicilio?", "¿Dónde queda la tienda?"]


@pytest.fixture(scope="module")
def indexed(tmp_path_factory) -> Path:
    """A full index of the bakery in a file, searched once (so its fitted state is kept in it)."""
    path = tmp_path_factory.mktemp("index") / "kb.sqlite"
    world = fresh_world(path)
    _, clock, client, store = world.parts
    full_index(client, store, clock, SyncConfig(dense=TUNED.dense_embedder(), search_recipe="tuned"))
    IndexSearcher(store)
    store.close()
    return path


@pytest.fixture()
def copy_of(indexed, tmp_path) -> IndexStore:
    """A scratch copy of the searched index, for tests that change it."""
    target = tmp_path / "kb.sqlite"
    shutil.copy(indexed, target)
    with IndexStore(target) as store:
        yield store


def test_the_index_is_searched_with_the_recipe_its_indexer_recorded(indexed) -> None:
    with IndexStore(indexed) as store:
        assert store.search_recipe() == "tuned"
        assert IndexSearcher(store).recipe == TUNED


def test_the_index_ranks_exactly_as_the_recipe_fitted_in_memory_on_the_same_chunks(indexed) -> None:
    with IndexStore(indexed) as store:
        served = IndexSearcher(store)
        in_memory = TUNED.retriever().fit(SearchCorpus.from_chunks(store.chunks(), pages=store.pages()))
        questions = [q.question for q in heldout_bakery_questions(bakery_workspace().page_id)] + QUESTIONS
        assert served.search_many(questions, k=50) == in_memory.search_many(questions, k=50)


def test_the_held_out_questions_score_what_lesson_10s_table_says_the_recipe_reached(indexed) -> None:
    with IndexStore(indexed) as store:
        searcher = IndexSearcher(store)
        questions = heldout_bakery_questions(bakery_workspace().page_id)
        scores = evaluate_search(lambda q: searcher.search(q.question, k=50), questions, [RecallAt(8), ReciprocalRank()])
    with open(TABLES / "10_ladder_heldout.csv", encoding="utf-8") as table:
        heldout = next(row for row in csv.DictReader(table) if "afterwards" in row["questions"])
    assert round(scores["recall@8"].mean(), 3) == float(heldout["reached recall@8"])
    assert round(scores["MRR"].mean(), 3) == float(heldout["reached MRR"])


def test_hits_carry_title_section_url_and_last_edit(indexed) -> None:
    with IndexStore(indexed) as store:
        hit = IndexSearcher(store).search("¿Abren el 1 de mayo?", k=1)[0]
        page = store.pages()[hit.page_id]
    assert hit.title == page.title and hit.url == page.url and hit.url.startswith("https://")
    assert hit.edited and hit.section is None or isinstance(hit.section, str)


def test_a_second_process_loads_the_fitted_state_instead_of_fitting(indexed) -> None:
    with IndexStore(indexed) as store:
        first = IndexSearcher(store)
        again = IndexSearcher(store)
        assert first.loaded_ and again.loaded_
        assert first.search_many(QUESTIONS, k=10) == again.search_many(QUESTIONS, k=10)


@pytest.mark.slow
def test_a_sync_that_changes_chunks_drops_the_state_and_a_live_searcher_follows_it(tmp_path) -> None:
    world = fresh_world(tmp_path / "kb.sqlite")
    workspace, clock, client, store = world.parts
    config = SyncConfig(dense=TUNED.dense_embedder())
    full_index(client, store, clock, config)
    searcher = IndexSearcher(store)
    stamp, key = store.content_stamp(), searcher._state_key()
    assert store.searcher_state(key) is not None
    page = workspace.page_by_title("Política de cancelaciones")
    clock.advance(600)
    workspace.edit_block_text(workspace.find_block(page.id, "Esta política aplica").id,
                              "Los pedidos de pasteles con zarzamoras se cancelan con un día de anticipación.")
    clock.advance(600)
    incremental_sync(client, store, clock, config)  # embeds the edited chunk
    assert store.content_stamp() != stamp and store.searcher_state(key) is None  # gone in the sync's transaction
    hits = searcher.search("zarzamoras", k=3)
    assert searcher.content_stamp_ == store.content_stamp() and not searcher.loaded_
    assert hits and hits[0].page_id == page.id
    assert store.searcher_state(key) is not None  # the refit is kept for the next process


def test_a_state_fitted_on_content_that_changed_meanwhile_is_not_kept(copy_of) -> None:
    stamp = copy_of.content_stamp()
    copy_of.update_chunks(copy_of.chunks()[:1])  # any write of the content draws a new stamp
    assert not copy_of.keep_searcher_state("some recipe", b"state", stamp)
    assert copy_of.keep_searcher_state("some recipe", b"state", copy_of.content_stamp())


def test_a_state_the_lab_cannot_read_is_fitted_again_not_trusted(copy_of) -> None:
    key = IndexSearcher(copy_of)._state_key()
    with copy_of.transaction():
        copy_of._db.execute("UPDATE searcher_states SET state = ? WHERE recipe = ?", (b"not a state", key))
    searcher = IndexSearcher(copy_of)
    assert not searcher.loaded_ and searcher.search("¿Abren el 1 de mayo?", k=1)


def test_a_state_cut_short_or_damaged_in_the_file_is_fitted_again_not_a_zip_error(copy_of) -> None:
    recipe = Recipe()  # BM25 alone: quick to fit again, and kept in the file under its own key
    key = IndexSearcher(copy_of, recipe)._state_key()
    blob = copy_of.searcher_state(key)
    flipped = blob[:200] + bytes(byte ^ 0xFF for byte in blob[200:260]) + blob[260:]
    for damaged in (blob[: len(blob) // 2], flipped):
        with copy_of.transaction():
            copy_of._db.execute("UPDATE searcher_states SET state = ? WHERE recipe = ?", (damaged, key))
        searcher = IndexSearcher(copy_of, recipe)
        assert not searcher.loaded_ and searcher.search("¿Abren el 1 de mayo?", k=1)
        assert IndexSearcher(copy_of, recipe).loaded_  # the refit was kept, and the next searcher loads it


@pytest.mark.slow
def test_an_index_without_the_recipe_s_dense_vectors_names_the_command_that_embeds_them(tmp_path) -> None:
    world = fresh_world(tmp_path / "kb.sqlite")
    _, clock, client, store = world.parts
    full_index(client, store, clock)  # no dense model: the recipe's e5 list has nothing to read
    with pytest.raises(IndexNotSearchableError, match="no vectors of 'multilingual-e5-small-q4'.*python -m lab index"):
        IndexSearcher(store, TUNED)
    assert IndexSearcher(store, LEXICAL).search("¿Abren el 1 de mayo?", k=1)


def test_an_empty_index_or_an_unknown_recipe_says_which_command_builds_a_searchable_one(tmp_path) -> None:
    with IndexStore(tmp_path / "empty.sqlite") as store:
        with pytest.raises(IndexNotSearchableError, match="holds no chunks yet.*python -m lab index --db"):
            IndexSearcher(store)
        store.set_search_recipe("from-the-future")
        with pytest.raises(IndexNotSearchableError, match="'from-the-future'.*rebuild it with python -m lab index"):
            IndexSearcher(store)


def test_a_retriever_given_directly_is_fitted_in_memory_and_its_state_is_not_kept(copy_of) -> None:
    searcher = IndexSearcher(copy_of, TfidfRetriever())
    assert searcher.search("¿Abren el 1 de mayo?", k=3)
    assert copy_of._db.execute("SELECT COUNT(*) FROM searcher_states").fetchone()[0] == 1  # TUNED's, from before


def test_the_audience_filter_applies_before_ranking(indexed) -> None:
    with IndexStore(indexed) as store:
        pages = sorted(store.pages())
        audiences = {page: ("staff" if i % 2 else "customers") for i, page in enumerate(pages)}
        searcher = IndexSearcher(store, audiences=audiences)
        hits = searcher.search("¿Abren el 1 de mayo?", k=8, audience="customers")
    assert len(hits) == 8 and {audiences[h.page_id] for h in hits} == {"customers"}


# ---------------------------------------------------------------- fitted states

@pytest.fixture(scope="module")
def small_corpus(indexed) -> SearchCorpus:
    with IndexStore(indexed) as store:
        return SearchCorpus.from_chunks(store.chunks()[:90], pages=store.pages())


RUNG_RECIPES = {
    "bm25": Recipe(),
    "rm3 on bm25, headings x2": Recipe(feedback=True, heading_weight=2),
    "bm25f with rm3, lsa": Recipe(bm25f=True, feedback=True, lsa_components=32),
    "tuned": TUNED,
    "lexical": LEXICAL,
    "bm25f and lsa fused by scores": Recipe(bm25f=True, lsa_components=32, fusion="relative", unit="section"),
    "tuned, two analyzers, sections": Recipe(analyzer=TUNED.analyzer, heading_weight=2, lsa_components=32,
                                             bm25f=True, fuse_analyzers=(Recipe().analyzer,), unit="section"),
}


@pytest.mark.parametrize("name", sorted(RUNG_RECIPES))
def test_a_fitted_state_restored_into_a_new_retriever_searches_exactly_as_the_fitted_one(name, small_corpus) -> None:
    recipe = RUNG_RECIPES[name]
    fitted = recipe.retriever().fit(small_corpus)
    restored = restore_fitted(recipe.retriever(), state_from_bytes(state_to_bytes(fitted_state(fitted))),
                              small_corpus)
    assert restored.search_many(QUESTIONS, k=20) == fitted.search_many(QUESTIONS, k=20)


def test_a_state_is_refused_when_it_names_a_class_from_outside_the_lab_or_holds_pickled_objects(small_corpus) -> None:
    state = fitted_state(LEXICAL.retriever().fit(small_corpus))  # its LSA holds a TF-IDF model
    description = str(state["__description__"]).replace('"module": "lab.vectors.tfidf"', '"module": "os"')
    with pytest.raises(FittedStateError, match="only the lab's own models"):
        restore_fitted(LEXICAL.retriever(), {**state, "__description__": np.array(description)}, small_corpus)
    with pytest.raises(ValueError, match="allow_pickle"):
        state_from_bytes(state_to_bytes({"x": np.array([object()], dtype=object)}))


def test_a_state_cut_at_every_offset_is_a_damaged_state_error_and_never_another_error(indexed) -> None:
    with IndexStore(indexed) as store:
        corpus = SearchCorpus.from_chunks(store.chunks()[:6], pages=store.pages())
    blob = state_to_bytes(fitted_state(TfidfRetriever().fit(corpus)))
    for size in range(len(blob)):
        with pytest.raises(DamagedStateError):
            restore_fitted(TfidfRetriever(), state_from_bytes(blob[:size]), corpus)


def test_a_state_poured_into_a_retriever_built_another_way_is_refused(small_corpus) -> None:
    state = fitted_state(Recipe().retriever().fit(small_corpus))
    with pytest.raises(FittedStateError, match="written by a BM25Retriever, not a RelativeScoreFusion"):
        restore_fitted(TUNED.retriever(), state, small_corpus)


def test_an_index_in_postgresql_serves_the_same_ranking_reading_the_vectors_in_one_query(indexed, postgres_url,
                                                                                           monkeypatch) -> None:
    from lab.index.postgres import PostgresConnection

    _, clock, client, store = fresh_world(postgres_url).parts
    full_index(client, store, clock, SyncConfig(dense=TUNED.dense_embedder(), search_recipe="tuned"))
    vector_reads = []
    execute = PostgresConnection.execute

    def counted(self, sql, parameters=None):
        vector_reads.extend([sql] if sql.startswith("SELECT id, vector FROM vectors") else [])
        return execute(self, sql, parameters)

    monkeypatch.setattr(PostgresConnection, "execute", counted)
    served = IndexSearcher(store)
    questions = [q.question for q in heldout_bakery_questions(bakery_workspace().page_id)] + QUESTIONS
    with IndexStore(indexed) as in_sqlite:
        assert served.search_many(questions, k=50) == IndexSearcher(in_sqlite).search_many(questions, k=50)
    served.search(QUESTIONS[0])
    assert len(vector_reads) == 1  # one generation, one read of its vectors
    assert IndexSearcher(store).loaded_  # the fitted state kept in PostgreSQL serves the next process
