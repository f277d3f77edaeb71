"""Incremental sync: minimal requests, exact reconciliation, and an index that is never lost."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from lab.client import DEFAULT_MAX_DEPTH, FixedRate, NoPacing, NotionClient, RetryPolicy
from lab.course.edits import afternoon_edits, apply_edits
from lab.simulator.faults import InjectedCrash, crashing_session
from lab.simulator import LimitsConfig, NotionSimulator, in_process_session
from lab.simulator import simulator as simulator_module
from lab.index import IndexStore
from lab.index.upkeep import ERASE_PENDING_SUFFIX
from lab.ingest.sync import GuardrailError, SyncConfig, full_index, incremental_sync
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator
from store_urls import another_store
from sync_histories import _client, config, small_workspace

CONTENT_TABLES = ("chunks", "pages", "sync_state", "models")


def content(store: IndexStore) -> list[str]:
    """The index's logical dump without the run log (whose timestamps depend on the run) and the
    generation (a count of runs that published)."""
    return [line for line in store.dump().splitlines()
            if "sync_runs" not in line and "VALUES('generation'" not in line]


def setup(seed: int = 6, limits: LimitsConfig | None = None, path: str = ":memory:", **client_kwargs):
    sim = bakery_simulator(seed=seed, limits=limits)
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=client_kwargs.pop("pacer", NoPacing()), **client_kwargs)
    return sim, client, IndexStore(path)


def afternoon(sim) -> None:
    apply_edits(sim.workspace, afternoon_edits())
    sim.clock.set(2 * 3600)  # the sync runs at 18:00


def test_a_second_sync_with_no_edits_makes_exactly_two_requests_and_changes_nothing(store_url) -> None:
    sim, client, store = setup(path=store_url)
    full_index(client, store, sim.clock)
    before = content(store)
    report = incremental_sync(client, store, sim.clock)
    assert report.requests == 2 and report.pages_reread == []
    assert (report.chunks_new, report.chunks_updated, report.chunks_deleted) == (0, 0, 0)
    assert content(store) == before
    assert store.sync_runs()[-1]["requests"] == 2


def test_the_afternoon_sync_rereads_only_what_changed_and_reconciles(store_url) -> None:
    sim, client, store = setup(path=store_url)
    full_index(client, store, sim.clock)
    afternoon(sim)
    report = incremental_sync(client, store, sim.clock)
    assert sorted(report.pages_reread) == sorted(["Política de cancelaciones", "Ficha: Rol de canela",
                                                  "Aviso: puente del 1 de mayo",
                                                  "Preguntas frecuentes: Día de las Madres"])
    assert sorted(report.pages_removed) == ["Aviso: Rosca de Reyes", "Aviso: Semana Santa 2026"]
    assert report.chunks_new >= 1 and report.chunks_updated >= 3 and report.chunks_unchanged > 0
    assert report.watermark == "2026-04-09T17:20:00.000Z"  # the latest edit seen (the unpublish), not the clock
    texts = " ".join(row["text"] for row in store.chunks("tfidf"))
    assert "de 8:00 a 15:00" in texts and "de 8:00 a 14:00, sólo" not in texts
    assert "Rosca" not in " ".join(p.title for p in store.pages().values())
    after = incremental_sync(client, store, sim.clock)
    assert after.requests == 2 and after.chunks_total == report.chunks_total


def test_an_edit_in_the_watermark_minute_after_the_read_is_not_lost() -> None:
    sim, client, store = setup()
    ws = sim.workspace
    sim.clock.set(10)  # 16:00:10: Valeria edits the cinnamon roll sheet
    ws.edit_block_text(ws.find_block(ws.page_id("ficha-rol-de-canela"), "lleva nuez en la receta").id,
                       "Este rol de canela lleva nuez en la receta (revisado).")
    full_index(client, store, sim.clock)  # reads it during the same minute
    assert sim.clock.now() < 60
    sim.clock.set(50)  # 16:00:50: a second edit in the same minute keeps last_edited_time at 16:00
    ws.edit_block_text(ws.find_block(ws.page_id("ficha-rol-de-canela"), "lleva nuez en la receta").id,
                       "Todas las piezas llevan nuez, sin excepción.")
    sim.clock.set(3600)
    report = incremental_sync(client, store, sim.clock)
    assert "Ficha: Rol de canela" in report.pages_reread and report.chunks_updated == 1
    assert "sin excepción" in " ".join(r["text"] for r in store.chunks("tfidf"))


def test_after_unsharing_a_page_its_text_is_absent_from_every_table(store_url) -> None:
    sim, client, store = setup(path=store_url)
    full_index(client, store, sim.clock)
    page = sim.workspace.page_id("ficha-pay-de-queso")
    marker = sim.workspace.block_text(next(b for b in sim.workspace.pages[page].children
                                           if len(sim.workspace.block_text(b)) > 60))
    assert marker[:60] in store.dump()
    sim.workspace.unshare(KB_INTEGRATION, page)
    report = incremental_sync(client, store, sim.clock)
    assert report.pages_removed == ["Ficha: Pay de queso"]
    dump = store.dump()
    assert marker[:60] not in dump and page not in dump  # other pages may still name the product


def test_the_text_of_an_unshared_page_is_gone_from_the_index_files_as_soon_as_the_sync_ends(tmp_path) -> None:
    sim, client, store = setup(path=str(tmp_path / "kb.sqlite"))
    full_index(client, store, sim.clock)
    ws = sim.workspace
    page = ws.page_id("ficha-pay-de-queso")
    marker = ws.block_text(next(b for b in ws.pages[page].children if len(ws.block_text(b)) > 60))[:60].encode()
    ws.unshare(KB_INTEGRATION, page)
    incremental_sync(client, store, sim.clock)
    left = [path.name for path in tmp_path.iterdir() if marker in path.read_bytes()]  # the file, its log
    assert left == [], f"the unshared page's text is still readable in {left} while the index is open"


def test_text_a_reader_kept_in_the_file_is_named_by_the_run_and_erased_by_the_next(tmp_path) -> None:
    """Another process in a read transaction keeps the checkpoint from writing the log back, so the file still
    holds the removed page's text: the run says so, the index remembers it, and the next run erases it."""
    import sqlite3

    path = tmp_path / "kb.sqlite"
    sim, client, store = setup(path=str(path))
    full_index(client, store, sim.clock)
    store._db.execute("PRAGMA busy_timeout = 50")  # the reader will not finish: do not wait a minute for it
    ws = sim.workspace
    page = ws.page_id("ficha-pay-de-queso")
    marker = ws.block_text(next(b for b in ws.pages[page].children if len(ws.block_text(b)) > 60))[:60].encode()
    reader = sqlite3.connect(path)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM chunks").fetchone()  # a snapshot from before the sync
    ws.unshare(KB_INTEGRATION, page)
    report = incremental_sync(client, store, sim.clock)
    assert report.pages_removed == ["Ficha: Pay de queso"] and not report.erased
    assert "still in the file" in report.erasure_alert()
    assert marker in path.read_bytes()  # what the warning is about
    reader.close()
    sim.clock.set(sim.clock.now() + 3600)
    later = incremental_sync(client, store, sim.clock)  # nothing changed in Notion: it erases what was left
    assert later.erased and later.erasure_alert() is None and not later.pages_removed
    assert [p.name for p in tmp_path.iterdir() if marker in p.read_bytes()] == []
    assert store.get_meta(f"notion{ERASE_PENDING_SUFFIX}") is None


def test_a_listing_past_notion_s_result_limit_is_read_in_windows_and_indexes_every_page(monkeypatch) -> None:
    sim, client, store = setup()
    full_index(client, store, sim.clock)
    afternoon(sim)
    whole = IndexStore(":memory:")
    whole.restore(store.serialize())
    assert incremental_sync(client, whole, sim.clock).query_windows == 2  # a listing and a watermark query
    monkeypatch.setattr(simulator_module, "QUERY_RESULT_LIMIT", 30)  # the bakery's 40 rows stand for 10,000+
    report = incremental_sync(client, store, sim.clock)
    assert report.query_windows == 3  # the listing took two windows
    assert store.state() == whole.state()
    fresh = IndexStore(":memory:")
    assert full_index(client, fresh, sim.clock).query_windows == 2
    assert fresh.state()["chunks"] == store.state()["chunks"]


def test_private_recipes_never_reach_the_database(store_url) -> None:
    sim, client, store = setup(path=store_url)
    full_index(client, store, sim.clock)
    afternoon(sim)
    incremental_sync(client, store, sim.clock)
    dump = store.dump()
    ws = sim.workspace
    for page in ws.pages.values():
        if page.type in ("receta", "notas"):
            assert page.id not in dump
            for block_id in page.children:
                text = ws.block_text(block_id)
                if len(text) > 40:
                    assert text[:40] not in dump


def _reference_final_state():
    sim, client, store = setup()
    full_index(client, store, sim.clock)
    afternoon(sim)
    report = incremental_sync(client, store, sim.clock)
    return store.state(), report.requests


@pytest.mark.slow
def test_a_failure_at_any_request_of_a_sync_leaves_the_index_untouched_and_a_rerun_completes_it(store_url) -> None:
    expected, requests_in_sync = _reference_final_state()  # on SQLite: both backends end in the same state
    for fail_at in range(1, requests_in_sync + 1):
        sim, client, store = setup(path=another_store(store_url, f"fail_at_{fail_at}"))
        full_index(client, store, sim.clock)
        afternoon(sim)
        before, watermark = content(store), store.watermark("notion")
        faulty = NotionClient(sim.token_for(KB_INTEGRATION), session=crashing_session(sim, fail_at), clock=sim.clock,
                              pacer=NoPacing())
        with pytest.raises(InjectedCrash, match=f"at request {fail_at} "):
            incremental_sync(faulty, store, sim.clock)
        assert content(store) == before and store.watermark("notion") == watermark, f"failure at {fail_at}"
        incremental_sync(client, store, sim.clock)
        assert store.state() == expected, f"re-run after a failure at request {fail_at}"


def test_a_failure_while_writing_rolls_back_every_write(monkeypatch, store_url) -> None:
    sim, client, store = setup(path=store_url)
    full_index(client, store, sim.clock)
    afternoon(sim)
    before = content(store)

    def explode(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(store, "add_sync_run", explode)  # the last write of the transaction
    with pytest.raises(OSError, match="disk full"):
        incremental_sync(client, store, sim.clock)
    assert content(store) == before


@pytest.mark.slow
def test_a_process_killed_inside_the_write_transaction_leaves_the_previous_index(store_url) -> None:
    path = store_url
    sim, client, store = setup(path=str(path))
    full_index(client, store, sim.clock)
    before = content(store)
    store.close()
    script = textwrap.dedent(f"""
        import os, signal
        from lab.client import NoPacing, NotionClient
        from lab.course.edits import afternoon_edits, apply_edits
        from lab.simulator import in_process_session
        from lab.index import IndexStore
        from lab.ingest.sync import incremental_sync
        from lab.simulator.workspaces import bakery_simulator
        sim = bakery_simulator(seed=6)
        client = NotionClient(sim.token_for("indexador"), session=in_process_session(sim), clock=sim.clock,
                              pacer=NoPacing())
        store = IndexStore({str(path)!r})
        apply_edits(sim.workspace, afternoon_edits())
        sim.clock.set(7200)
        store.set_watermark_original = store.set_watermark
        def die(*args, **kwargs):
            os.kill(os.getpid(), signal.SIGKILL)  # killed after the deletes and inserts, before commit
        store.set_watermark = die
        incremental_sync(client, store, sim.clock)
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == -9, result.stderr
    assert content(IndexStore(path)) == before


@pytest.mark.slow
def test_a_sync_under_heavy_faults_reaches_the_same_index_as_a_clean_one() -> None:
    expected, _ = _reference_final_state()
    heavy = LimitsConfig(p_workspace=0.20, p_overload=0.05, p_server_error=0.02)
    sim, client, store = setup(limits=heavy, retry=RetryPolicy(max_attempts=20), pacer=FixedRate(3.0))
    full_index(client, store, sim.clock)
    afternoon(sim)
    incremental_sync(client, store, sim.clock)
    assert store.state() == expected
    assert (client.log.frame()["status"] != 200).sum() > 10


def test_the_guardrail_refuses_a_mass_deletion_unless_forced() -> None:
    sim, client, store = setup()
    full_index(client, store, sim.clock)
    ws = sim.workspace
    for page in list(ws.pages.values())[:30]:
        if page.parent_type == "data_source_id" and page.publishable:
            ws.set_publishable(page.id, False)
    before = content(store)
    with pytest.raises(GuardrailError, match=r"would delete \d+ of the \d+ chunks .* force=True"):
        incremental_sync(client, store, sim.clock)
    assert content(store) == before
    report = incremental_sync(client, store, sim.clock, force=True)
    assert report.chunks_deleted > report.chunks_total


def test_the_guardrail_share_is_configurable() -> None:
    sim, client, store = setup()
    full_index(client, store, sim.clock)
    sim.workspace.set_publishable(sim.workspace.page_id("politica-cancelaciones"), False)
    with pytest.raises(GuardrailError):
        incremental_sync(client, store, sim.clock, SyncConfig(max_delete_share=0.01))
    assert incremental_sync(client, store, sim.clock).pages_removed == ["Política de cancelaciones"]


def test_a_path_or_a_session_passed_for_the_store_or_the_client_is_a_clear_type_error() -> None:
    sim, client, store = setup()
    with pytest.raises(TypeError, match=r"writes into an IndexStore \(IndexStore\('kb.sqlite'\)\), not str"):
        full_index(client, "kb.sqlite", sim.clock)
    with pytest.raises(TypeError, match="reads through a NotionClient"):
        incremental_sync(in_process_session(sim), store, sim.clock)
    assert store.watermark("notion") is None


def test_blocks_nested_past_the_depth_fuse_are_named_in_the_report_of_an_index_and_of_a_sync() -> None:
    ws = small_workspace()
    nested: dict = {"type": "paragraph", "text": "Al fondo del todo."}
    for level in range(DEFAULT_MAX_DEPTH + 2):
        nested = {"type": "toggle", "text": f"Nivel {level}", "children": [nested]}
    page = ws.page_id("hours")
    ws.add_child_page(page, {"key": "deep", "title": "Muy anidada", "blocks": [nested]})
    sim = NotionSimulator(ws, seed=1)
    store = IndexStore(":memory:")
    first = full_index(_client(sim, None), store, sim.clock, config())
    assert len(first.blocks_too_deep) == 1
    sim.clock.advance(70)
    ws.edit_block_text(ws.find_block(ws.page_id("deep"), "Nivel 0").id, "Nivel cero")
    sim.clock.advance(70)
    again = incremental_sync(_client(sim, None), store, sim.clock, config())
    assert again.blocks_too_deep == first.blocks_too_deep
    assert "Al fondo del todo." not in str(store.state())


def test_a_sync_whose_dense_model_answers_nan_fails_and_leaves_the_index_as_it_was() -> None:
    import dataclasses

    import numpy as np

    from lab.services.voyage import EmbeddingResult

    class NaNEmbedder:
        name = "nan-4"

        def embed_documents(self, texts):
            return EmbeddingResult(np.full((len(texts), 4), np.nan, dtype=np.float32), len(texts), requests=1)

    ws = small_workspace()
    sim = NotionSimulator(ws, seed=1)
    store = IndexStore(":memory:")
    with pytest.raises(ValueError, match="holds NaN or infinity"):
        full_index(_client(sim, None), store, sim.clock, dataclasses.replace(config(), dense=NaNEmbedder()))
    assert store.count_chunks() == 0 and store.watermark("notion") is None


def test_an_empty_data_source_id_is_refused_as_an_id_not_taken_for_no_id() -> None:
    import dataclasses

    from lab.client import InvalidObjectId

    sim = NotionSimulator(small_workspace(), seed=1)
    with pytest.raises(InvalidObjectId, match="data_source_id '' is not a Notion id"):
        full_index(_client(sim, None), IndexStore(":memory:"), sim.clock,
                   dataclasses.replace(config(), data_source_id=""))


def test_a_page_type_is_read_from_the_select_the_config_names_whatever_it_is_called() -> None:
    from lab.datasets.bakery import load_bakery_workspace

    spec = load_bakery_workspace()
    source = spec["data_sources"][0]
    source["properties"] = {("Kind" if name == "Tipo" else name): prop for name, prop in source["properties"].items()}
    sim = bakery_simulator(seed=6, spec=spec)

    def types(config: SyncConfig) -> set[str]:
        client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                              pacer=NoPacing())
        store = IndexStore(":memory:")
        full_index(client, store, sim.clock, config)
        return {page.type for page in store.pages().values()}

    assert types(SyncConfig()) == {""}  # the default, Tipo, is not there: no page has a type
    assert types(SyncConfig(type_property="Kind")) == {"ficha", "politica", "faq", "aviso", "alergenos"}


def test_the_labels_of_a_lines_role_are_in_the_language_the_config_names() -> None:
    from lab.chunking import MARKERS_EN

    sim, client, store = setup()
    full_index(client, store, sim.clock, SyncConfig(markers=MARKERS_EN))
    texts = " ".join(row["text"] for row in store.chunks("tfidf"))
    assert "Question: " in texts and "Pregunta: " not in texts
