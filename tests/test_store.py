"""The SQLite index: vectors per model, clear refusals, schema versions, atomic writes."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from lab.index import (SCHEMA_VERSION, IndexOpenError, IndexStore, IndexedPage, ModelMismatchError,
                       SchemaVersionError, StoreError)
from lab.notion.pages import PageMetadata


def chunk(i: int, page: str = "p1") -> dict:
    return {"id": f"{page}:s:{i:02d}", "page_id": page, "title": f"Page {page}", "type": "faq", "section": "S",
            "order": i, "text": f"text {i}", "tokens": 3, "fingerprint": f"{i:016x}", "edited": "2026-04-01T10:00:00.000Z"}


def unit_rows(n: int, d: int, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).normal(size=(n, d)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_vectors_round_trip_as_float32_blobs(tmp_path) -> None:
    store = IndexStore(tmp_path / "kb.sqlite")
    chunks, vectors = [chunk(i) for i in range(5)], unit_rows(5, 8)
    store.put_chunks(chunks, vectors, "tfidf")
    ids, matrix = store.vectors("tfidf")
    assert ids == [c["id"] for c in chunks] and matrix.dtype == np.float32
    assert np.array_equal(matrix, vectors)
    assert store.vector_bytes("tfidf") == 5 * 8 * 4


def test_a_chunk_vector_holding_nan_is_refused_at_the_write_whoever_embedded_it(tmp_path) -> None:
    store = IndexStore(tmp_path / "kb.sqlite")
    vectors = unit_rows(3, 4)
    vectors[1, 2] = np.nan
    with pytest.raises(ValueError, match=r"vector of chunk .* holds NaN or infinity.*Nothing was written"):
        store.put_chunks([chunk(i) for i in range(3)], vectors, "lsa-4")
    assert store.count_chunks() == 0 and "lsa-4" not in store.models()


def test_two_models_live_side_by_side_but_never_mix(tmp_path) -> None:
    store = IndexStore(tmp_path / "kb.sqlite")
    chunks = [chunk(i) for i in range(3)]
    store.put_chunks(chunks, unit_rows(3, 4), "tfidf")
    store.put_chunks(chunks, unit_rows(3, 16, seed=1), "voyage-4")
    assert store.models() == {"tfidf": 4, "voyage-4": 16}
    assert store.count_chunks() == 3 and store.count_chunks("voyage-4") == 3
    with pytest.raises(ModelMismatchError, match="dimension 4.*dimension 16"):
        store.require_model("tfidf", 16)
    with pytest.raises(ModelMismatchError, match="stored with dimension 16; refusing vectors of dimension 8"):
        store.put_chunks([chunk(9)], unit_rows(1, 8), "voyage-4")
    with pytest.raises(ModelMismatchError, match="no vectors for model 'lsa-128'; it holds tfidf \\(4\\), voyage-4"):
        store.require_model("lsa-128")


def test_chunk_rows_can_be_looked_up_by_id_for_one_model(tmp_path) -> None:
    store = IndexStore(tmp_path / "kb.sqlite")
    chunks = [chunk(i) for i in range(5)]
    store.put_chunks(chunks, unit_rows(5, 4), "lsa-4")
    store.put_chunks(chunks[:2], unit_rows(2, 8, seed=1), "voyage-4")
    wanted = ["p1:s:03", "p1:s:01", "nowhere", "p1:s:03"]
    assert [row["id"] for row in store.chunks("lsa-4", wanted)] == ["p1:s:01", "p1:s:03"]
    assert [row["id"] for row in store.chunks("voyage-4", wanted)] == ["p1:s:01"]
    assert store.chunks("lsa-4", []) == []
    assert store.chunks("lsa-4", ["p1:s:01"]) == [row for row in store.chunks("lsa-4") if row["id"] == "p1:s:01"]


@pytest.mark.parametrize("call", [
    lambda store: store.chunks("lsa-4", "p1:s:01"),
    lambda store: store.page_chunks("p1"),
    lambda store: store.page_chunks([], ids="p1:s:01"),
    lambda store: store.delete_chunks("p1:s:01"),
    lambda store: store.delete_pages("p1"),
    lambda store: store.forget_files("docs", "guides/quickstart.md"),
])
def test_one_id_given_where_a_list_goes_is_refused_rather_than_read_as_its_characters(tmp_path, call) -> None:
    store = IndexStore(tmp_path / "kb.sqlite")
    store.put_chunks([chunk(i) for i in range(3)] + [{**chunk(0), "id": "p"}, {**chunk(0), "id": "1"}],
                     unit_rows(5, 4), "lsa-4")
    before = store.dump()
    with pytest.raises(TypeError, match=r"takes a list, not one str; wrap a single value in a list: \['"):
        call(store)
    assert store.dump() == before


def test_an_index_in_a_missing_folder_is_refused_with_a_store_error_naming_the_folder(tmp_path) -> None:
    with pytest.raises(StoreError, match=f"the folder {tmp_path / 'nope'} does not exist"):
        IndexStore(tmp_path / "nope" / "kb.sqlite")
    assert not (tmp_path / "nope").exists()


def test_a_file_that_is_not_sqlite_is_refused_and_left_as_it_was(tmp_path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database " * 100, encoding="utf-8")
    with pytest.raises(StoreError, match="is not a SQLite file"):
        IndexStore(notes)
    assert notes.read_text(encoding="utf-8") == "not a database " * 100


def test_a_truncated_index_is_an_open_error_that_says_it_is_damaged_and_rebuilt(tmp_path) -> None:
    path = tmp_path / "kb.sqlite"
    store = IndexStore(path)
    chunks = [{"id": f"c{i}", "page_id": "p", "title": "T", "section": None, "text": "x" * 2000, "type": "",
               "order": i, "tokens": 1, "fingerprint": "f", "edited": ""} for i in range(200)]
    store.put_chunks(chunks, np.ones((200, 4), dtype=np.float32), "m-4")
    store.close()
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 3])
    with pytest.raises(IndexOpenError, match="is damaged .* build the index again") as raised:
        IndexStore(path)
    assert raised.value.damaged
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database " * 100, encoding="utf-8")
    with pytest.raises(IndexOpenError) as other:
        IndexStore(notes)
    assert not other.value.damaged


def test_a_database_from_another_schema_version_is_refused_untouched(tmp_path) -> None:
    path = tmp_path / "old.sqlite"
    IndexStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    before = path.read_bytes()
    with pytest.raises(SchemaVersionError, match=f"schema version 0; this lab reads version {SCHEMA_VERSION}"):
        IndexStore(path)
    assert path.read_bytes() == before


def test_a_sqlite_file_that_is_not_an_index_is_refused(tmp_path) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE invoices (id INTEGER)")
    with pytest.raises(SchemaVersionError, match="not a lab index"):
        IndexStore(path)


def test_a_failed_transaction_leaves_the_index_as_it_was(tmp_path) -> None:
    store = IndexStore(tmp_path / "kb.sqlite")
    store.put_chunks([chunk(i) for i in range(3)], unit_rows(3, 4), "tfidf")
    before = store.dump()
    with pytest.raises(RuntimeError, match="boom"):
        with store.transaction():
            store.delete_pages(["p1"])
            store.put_chunks([chunk(7, "p2")], unit_rows(1, 4), "tfidf")
            raise RuntimeError("boom")
    assert store.dump() == before


def test_deleting_a_page_removes_its_chunks_under_every_model(tmp_path) -> None:
    store = IndexStore(tmp_path / "kb.sqlite")
    chunks = [chunk(0, "a"), chunk(1, "a"), chunk(0, "b")]
    store.put_pages([IndexedPage(info=PageMetadata(id="a", title="A", type="faq", edited="x")),
                     IndexedPage(info=PageMetadata(id="b", title="B", type="faq", edited="y"))])
    store.put_chunks(chunks, unit_rows(3, 4), "tfidf")
    store.put_chunks(chunks, unit_rows(3, 2), "lsa")
    assert store.delete_pages(["a"]) == 2
    assert store.chunk_ids() == {"b:s:00": f"{0:016x}"} and list(store.pages()) == ["b"]


def test_replace_model_makes_the_rows_exactly_the_new_set(tmp_path) -> None:
    store = IndexStore(tmp_path / "kb.sqlite")
    store.put_chunks([chunk(i) for i in range(4)], unit_rows(4, 4), "tfidf")
    store.replace_model([chunk(0), chunk(9)], unit_rows(2, 6), "tfidf")  # a refit may change the dimension
    assert store.models() == {"tfidf": 6} and store.vectors("tfidf")[0] == ["p1:s:00", "p1:s:09"]


def test_watermark_and_sync_runs_are_stored(tmp_path) -> None:
    store = IndexStore(tmp_path / "kb.sqlite")
    assert store.watermark("notion") is None
    store.set_watermark("notion", "2026-04-08T13:55:00.000Z")
    run = {"source": "notion", "kind": "full", "watermark_before": None, "watermark": "2026-04-08T13:55:00.000Z",
           "ran_at": "2026-04-09T16:00:00.000Z", "requests": 65, "pages_reread": 40, "pages_removed": 0,
           "chunks_new": 200, "chunks_updated": 0, "chunks_unchanged": 0, "chunks_deleted": 0, "chunks_total": 200,
           "tokens_embedded": 50000}
    store.add_sync_run(run)
    assert store.watermark("notion") == "2026-04-08T13:55:00.000Z"
    assert store.sync_runs()[0]["chunks_new"] == 200 and store.sync_runs()[0]["run"] == 1


def test_an_index_restored_from_its_image_is_the_one_serialized_and_stays_in_its_file(tmp_path) -> None:
    from lab.index import IndexStore

    store = IndexStore(tmp_path / "i.sqlite")
    store.set_watermark("notion", "2026-04-09T16:00:00.000Z")
    image = store.serialize()
    store.set_watermark("notion", "2026-04-09T18:00:00.000Z")
    store.set_meta("k", "v")
    store.restore(image)
    assert store.watermark("notion") == "2026-04-09T16:00:00.000Z" and store.get_meta("k") is None
    reopened = IndexStore(tmp_path / "i.sqlite")
    assert reopened.watermark("notion") == "2026-04-09T16:00:00.000Z"


def test_the_watermark_never_goes_back() -> None:
    store = IndexStore(":memory:")
    store.set_watermark("notion", "2026-04-09T17:04:00.000Z")
    store.set_watermark("notion", "2026-04-09T17:00:00.000Z")  # a run that planned earlier and wrote later
    assert store.watermark("notion") == "2026-04-09T17:04:00.000Z"


def test_a_snapshot_is_one_state_of_the_index_and_the_generation_counts_publications(tmp_path) -> None:
    store, other = IndexStore(tmp_path / "kb.sqlite"), IndexStore(tmp_path / "kb.sqlite")
    store.put_pages([IndexedPage(info=PageMetadata(id="p1", title="P", type="faq", edited="x"), read_at="t")])
    store.put_chunks([chunk(0)], unit_rows(1, 4), "tfidf")
    before = store.snapshot("notion")
    assert before.generation == 0 and before.chunk_count == 1
    assert store.page_chunks(["p1"]) == {"p1:s:00": ("p1", f"{0:016x}")}
    assert before.pages["p1"].read_at == "t" and before.watermark is None
    other.bump_generation()  # another connection publishes
    assert store.snapshot("notion").generation == before.generation + 1


def test_pages_kept_by_an_unfinished_index_stay_out_of_the_published_state(tmp_path) -> None:
    from lab.index import StagedPage

    store = IndexStore(tmp_path / "kb.sqlite")
    published = store.state()
    store.stage_page(StagedPage(page_id="p1", parent_id=None, read_at="t", body="{}"), "source")
    assert store.state() == published and store.staged_count() == 1
    assert [page.page_id for page in IndexStore(tmp_path / "kb.sqlite").staged_pages("source")] == ["p1"]
    assert store.staged_pages("another source") == []
    store.clear_staged()
    assert store.staged_count() == 0


def test_a_run_reads_its_kept_pages_back_one_at_a_time_and_its_vectors_by_key(tmp_path) -> None:
    from lab.index import StagedPage

    store = IndexStore(tmp_path / "kb.sqlite")
    published = store.state()
    for page in ("p1", "p2", "p3"):
        store.stage_page(StagedPage(page_id=page, parent_id=None, read_at="t", body=f'{{"page": "{page}"}}'), "ds")
    assert sorted(page.body for page in store.each_staged_read("ds", ["p3", "p1", "p9"])) == [
        '{"page": "p1"}', '{"page": "p3"}']  # a page with no read kept is left out
    assert [page.page_id for page in store.each_staged_page("ds")] == ["p1", "p2", "p3"]
    store.stage_vectors(["m|passage|a", "m|passage|b"], unit_rows(2, 4))
    kept = store.staged_vectors(["m|passage|b", "m|passage|z"])
    assert list(kept) == ["m|passage|b"] and np.array_equal(kept["m|passage|b"], unit_rows(2, 4)[1])
    assert store.state() == published and store.staged_vector_count() == 2
    with pytest.raises(ValueError, match="one vector per key"):
        store.stage_vectors(["m|passage|c"], unit_rows(2, 4))
    store.clear_staged()
    assert store.staged_count() == store.staged_vector_count() == 0


def test_a_full_index_counts_again_from_an_empty_vocabulary_and_sweeps_chunks_of_no_page(tmp_path) -> None:
    from lab.vectors.counting import learn_counts

    store = IndexStore(tmp_path / "kb.sqlite")
    chunks = [chunk(i) for i in range(3)] + [chunk(0, page="gone")]
    store.put_term_counts(chunks, *learn_counts([c["text"] for c in chunks], str.split), "tfidf", "split")
    store.put_pages([IndexedPage(info=PageMetadata(id="p1", title="P", type="faq", edited="x"))])
    assert store.count_page_chunks(["p1", "gone"]) == 4 and store.count_page_chunks([]) == 0
    assert store.chunks_without_page() == ["gone:s:00"] and store.page_ids() == {"p1"}
    assert [[row["id"] for row in rows] for rows in store.chunk_batches(3)] == [
        ["gone:s:00", "p1:s:00", "p1:s:01"], ["p1:s:02"]]
    store.clear_term_counts("tfidf", "lower")
    assert store.count_chunks() == 4 and store.count_chunks("tfidf") == 0 and store.models() == {"tfidf": 0}
    assert store.counts_analyzer("tfidf") == "lower"


def test_a_closed_index_names_the_mistake_when_used_again_and_closing_twice_is_harmless(tmp_path) -> None:
    store = IndexStore(tmp_path / "kb.sqlite")
    store.close()
    store.close()
    with pytest.raises(StoreError, match="was closed; open it again with IndexStore"):
        store.watermark("notion")
    with pytest.raises(StoreError, match="was closed"):
        store.chunks("tfidf")
