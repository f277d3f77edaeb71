"""Quick syncs between reconciliations: the watermark query alone, on both backends.

A quick sync picks up what stamps a row (an edit, a new page, an unpublish) and what those pages' edits
reach (sub-pages, synced blocks); a page trashed or unshared stays until the next reconciliation, which
runs when the cadence is due on the simulated clock, when asked, or when the index was never reconciled.
When the last reconciliation happened is written in the run's one transaction. Random histories of edits
and quick syncs (some crashing, some answered with 429, 529 and 5xx) end with a forced reconciliation that
must equal a full index (40 histories; set ``LAB_QUICK_SYNC_HISTORIES`` for more).
"""

from __future__ import annotations

import datetime
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lab.client import NoPacing, NotionClient
from lab.index import IndexStore
from lab.ingest.page_reads import read_page, retrieve_page
from lab.ingest.quick_sync import MissingPropertyError
from lab.ingest.sync import SyncConfig, full_index, incremental_sync, reconciled_key
from lab.simulator import InjectedCrash, LimitsConfig, NotionSimulator, crashing_session, in_process_session
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator
from sync_histories import EDITS, _client, apply_edit, config, content, reference, small_workspace, sub_page_in_toggle
from test_sync_reconciliation import fresh_full_index, without_watermark

DAY = datetime.timedelta(hours=24)
QUICK = SyncConfig(reconcile_every=DAY)
POLICY, ROLL, CHEESECAKE = "politica-cancelaciones", "ficha-rol-de-canela", "ficha-pay-de-queso"


def bakery(store_url: str):
    sim = bakery_simulator(seed=6)
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    store = IndexStore(store_url)
    full_index(client, store, sim.clock, QUICK)
    return sim, client, store


def new_row(key: str, title: str) -> dict:
    return {"key": key, "title": title, "type": "faq", "publishable": True,
            "parent": {"type": "data_source", "key": "base-de-conocimiento"},
            "blocks": [{"type": "paragraph",
                        "text": "Los domingos abrimos de nueve a una, sólo para recoger encargos."}]}


def test_a_quick_sync_picks_up_an_edit_a_new_page_and_an_unpublish_by_edit(store_url) -> None:
    sim, client, store = bakery(store_url)
    ws = sim.workspace
    sim.clock.set(600)
    ws.edit_block_text(ws.find_block(ws.page_id(ROLL), "lleva nuez en la receta").id,
                       "Este rol de canela lleva nuez y pasas.")
    ws.add_page(new_row("domingos", "Aviso: domingos"))
    ws.set_publishable(ws.page_id(POLICY), False)
    sim.clock.set(1200)
    report = incremental_sync(client, store, sim.clock, QUICK)
    assert report.reconciled is False
    assert sorted(report.pages_reread) == ["Aviso: domingos", "Ficha: Rol de canela"]
    assert report.pages_removed == ["Política de cancelaciones"]
    assert [page.title for page in report.retired] == ["Política de cancelaciones"]
    assert without_watermark(store) == fresh_full_index(sim)


def test_a_trashed_or_unshared_page_stays_until_the_next_reconciliation_which_the_cadence_brings(store_url) -> None:
    sim, client, store = bakery(store_url)
    ws = sim.workspace
    reconciled = store.get_meta(reconciled_key("notion"))
    sim.clock.set(600)
    ws.move_to_trash(ws.page_id(POLICY))
    ws.unshare(KB_INTEGRATION, ws.page_id(CHEESECAKE))
    report = incremental_sync(client, store, sim.clock, QUICK)
    assert report.reconciled is False and report.pages_removed == []
    assert {ws.page_id(POLICY), ws.page_id(CHEESECAKE)} <= set(store.pages())
    assert store.get_meta(reconciled_key("notion")) == reconciled  # a quick sync leaves it
    started = datetime.datetime.fromisoformat(reconciled)
    sim.clock.set(sim.clock.now() + (started + DAY - sim.clock.datetime()).total_seconds() - 1)
    assert incremental_sync(client, store, sim.clock, QUICK).reconciled is False  # a second short of a day
    sim.clock.advance(1)
    began = sim.clock.datetime().isoformat()
    report = incremental_sync(client, store, sim.clock, QUICK)
    assert report.reconciled is True
    assert sorted(report.pages_removed) == ["Ficha: Pay de queso", "Política de cancelaciones"]
    assert store.get_meta(reconciled_key("notion")) == began
    assert without_watermark(store) == fresh_full_index(sim)


def test_a_reconciliation_asked_for_runs_whatever_the_cadence_and_none_means_only_when_asked(store_url) -> None:
    sim, client, store = bakery(store_url)
    ws = sim.workspace
    never = SyncConfig(reconcile_every=None)
    sim.clock.set(30 * 86400)  # a month later: no cadence, no reconciliation
    ws.unshare(KB_INTEGRATION, ws.page_id(CHEESECAKE))
    assert incremental_sync(client, store, sim.clock, never).reconciled is False
    report = incremental_sync(client, store, sim.clock, never, force_reconcile=True)
    assert report.reconciled is True and report.pages_removed == ["Ficha: Pay de queso"]
    assert without_watermark(store) == fresh_full_index(sim)


def test_the_default_reconciles_on_every_run_and_an_index_never_reconciled_reconciles_first(store_url) -> None:
    sim, client, store = bakery(store_url)
    assert SyncConfig().reconcile_every == datetime.timedelta(0)
    assert incremental_sync(client, store, sim.clock).reconciled is True
    with store.transaction():  # an index written before reconciliations were recorded
        store._db.execute("DELETE FROM meta WHERE key = ?", (reconciled_key("notion"),))
    assert incremental_sync(client, store, sim.clock, QUICK).reconciled is True
    assert store.get_meta(reconciled_key("notion")) is not None
    assert incremental_sync(client, store, sim.clock, QUICK).reconciled is False


def test_a_quick_sync_told_a_publishable_property_the_rows_lack_refuses_and_writes_nothing(store_url) -> None:
    sim, client, store = bakery(store_url)
    ws = sim.workspace
    sim.clock.set(600)
    ws.set_publishable(ws.page_id(POLICY), False)
    before = store.dump()
    with pytest.raises(MissingPropertyError, match="Publicado"):
        incremental_sync(client, store, sim.clock, SyncConfig(reconcile_every=DAY, publishable_property="Publicado"))
    assert store.dump() == before


def test_a_run_keeps_the_chunk_count_for_the_next_and_a_write_by_anything_else_makes_it_count_again(store_url):
    sim, client, store = bakery(store_url)
    ws = sim.workspace
    assert store.chunk_total("notion") == store.count_chunks() == 315
    store.delete_chunks([next(iter(store.chunk_ids()))])  # another writer: the content's stamp moves
    sim.clock.set(600)
    ws.edit_block_text(ws.find_block(ws.page_id(ROLL), "lleva nuez en la receta").id, "Lleva nuez y pasas.")
    report = incremental_sync(client, store, sim.clock, QUICK)
    assert report.chunks_total == store.count_chunks() == store.chunk_total("notion") == 314


def test_a_negative_cadence_is_refused() -> None:
    with pytest.raises(ValueError, match="reconcile_every"):
        SyncConfig(reconcile_every=datetime.timedelta(seconds=-1))
    with pytest.raises(ValueError, match="reconcile_every"):
        SyncConfig(reconcile_every=3600)


def test_a_quick_sync_makes_the_watermark_query_and_one_read_per_changed_page_and_nothing_else(store_url) -> None:
    sim, client, store = bakery(store_url)
    ws = sim.workspace
    sim.clock.set(600)
    ws.edit_block_text(ws.find_block(ws.page_id(ROLL), "lleva nuez en la receta").id, "Lleva nuez y pasas.")
    ws.edit_block_text(ws.find_block(ws.page_id(POLICY), "").id, "Cancelar sin costo vale hasta 72 horas antes.")
    sim.clock.set(1200)
    reads = {}
    for key in (ROLL, POLICY):  # what one read of each page costs, by another client
        other = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                             pacer=NoPacing())
        read_page(other, retrieve_page(other, ws.page_id(key)))
        reads[key] = len(other.log) - 1
    sim.clock.set(1800)
    before = len(client.log)
    report = incremental_sync(client, store, sim.clock, QUICK)
    log = client.log.frame().iloc[before:]
    assert report.requests == len(log) == 1 + reads[ROLL] + reads[POLICY]
    assert log["endpoint"].tolist().count("data_sources.query") == 1  # the watermark query, one page of rows
    assert set(log["endpoint"]) == {"data_sources.query", "blocks.children.list"}
    sim.clock.set(2400)
    before = len(client.log)
    assert incremental_sync(client, store, sim.clock, QUICK).requests == 1  # nothing changed: the query alone
    assert client.log.frame().iloc[before:]["endpoint"].tolist() == ["data_sources.query"]


def test_a_quick_sync_another_sync_overtook_plans_again_and_keeps_every_edit(store_url) -> None:
    sim, client, store_a = bakery(store_url)
    ws, clock = sim.workspace, sim.clock
    store_b = IndexStore(store_url)  # a second connection to the same index
    clock.set(1800)
    ws.edit_block_text(ws.find_block(ws.page_id(ROLL), "lleva nuez en la receta").id, "Lleva nuez y pasas.")
    policy = ws.find_block(ws.page_id(POLICY), "").id
    ws.edit_block_text(policy, "Cancelar sin costo vale hasta veinticuatro horas antes.")
    clock.set(3600)
    overtaken = []

    def overtake(read) -> None:  # sync A has read the policy; it is edited again; sync B reads and publishes
        if overtaken or read.id != ws.page_id(POLICY):
            return
        clock.set(3840)
        ws.edit_block_text(policy, "Cancelar sin costo vale hasta setenta y dos horas antes.")
        clock.set(3900)
        overtaken.append(incremental_sync(client, store_b, clock, QUICK))

    report = incremental_sync(client, store_a, clock, SyncConfig(reconcile_every=DAY, on_page=overtake))
    assert report.attempts == 2 and report.reconciled is False and overtaken[0].reconciled is False
    texts = " ".join(row["text"] for row in store_a.chunks("tfidf"))
    assert "setenta y dos horas" in texts and "veinticuatro horas" not in texts and "nuez y pasas" in texts
    assert store_a.watermark("notion") == overtaken[0].watermark
    assert without_watermark(store_a) == fresh_full_index(sim)


def test_a_crashed_reconciliation_leaves_the_time_of_the_last_one_and_the_watermark_unmoved(store_url) -> None:
    sim, client, store = bakery(store_url)
    ws = sim.workspace
    reconciled, watermark = store.get_meta(reconciled_key("notion")), store.watermark("notion")
    sim.clock.set(2 * 86400)
    ws.edit_block_text(ws.find_block(ws.page_id(ROLL), "lleva nuez en la receta").id, "Lleva nuez y pasas.")
    before = store.dump()
    crashing = NotionClient(sim.token_for(KB_INTEGRATION), session=crashing_session(sim, 3), clock=sim.clock,
                            pacer=NoPacing())
    with pytest.raises(InjectedCrash):
        incremental_sync(crashing, store, sim.clock, QUICK)
    assert store.get_meta(reconciled_key("notion")) == reconciled and store.watermark("notion") == watermark
    assert store.dump() == before


def test_a_failure_inside_the_write_rolls_back_the_time_of_the_reconciliation_with_everything_else(
        store_url, monkeypatch) -> None:
    sim, client, store = bakery(store_url)
    ws = sim.workspace
    reconciled, watermark = store.get_meta(reconciled_key("notion")), store.watermark("notion")
    sim.clock.set(2 * 86400)
    ws.set_publishable(ws.page_id(POLICY), False)

    def fail(run) -> None:
        raise RuntimeError("the disk filled up")

    monkeypatch.setattr(store, "add_sync_run", fail)  # the last write of the transaction
    with pytest.raises(RuntimeError, match="disk"):
        incremental_sync(client, store, sim.clock, QUICK)
    assert store.get_meta(reconciled_key("notion")) == reconciled and store.watermark("notion") == watermark
    assert ws.page_id(POLICY) in store.pages()
    monkeypatch.undo()
    report = incremental_sync(client, store, sim.clock, QUICK)
    assert report.reconciled is True and report.pages_removed == ["Política de cancelaciones"]
    assert store.get_meta(reconciled_key("notion")) > reconciled


def test_a_quick_sync_interrupted_mid_read_leaves_the_index_and_the_next_one_completes(store_url) -> None:
    sim, client, store = bakery(store_url)
    ws = sim.workspace
    sim.clock.set(600)
    ws.edit_block_text(ws.find_block(ws.page_id(ROLL), "lleva nuez en la receta").id, "Lleva nuez y pasas.")
    ws.set_publishable(ws.page_id(POLICY), False)
    before = store.dump()
    crashing = NotionClient(sim.token_for(KB_INTEGRATION), session=crashing_session(sim, 2), clock=sim.clock,
                            pacer=NoPacing())
    with pytest.raises(InjectedCrash):
        incremental_sync(crashing, store, sim.clock, QUICK)
    assert store.dump() == before
    report = incremental_sync(client, store, sim.clock, QUICK)
    assert report.reconciled is False and report.pages_removed == ["Política de cancelaciones"]
    assert without_watermark(store) == fresh_full_index(sim)


@pytest.mark.slow
def test_the_sync_command_reconciles_on_its_cadence_or_when_told(tmp_path, monkeypatch, capsys) -> None:
    from lab.cli import DEFAULT_SERVE_TOKEN, main
    from lab.clock import WallClock
    from lab.simulator.server import serve_in_background

    sim = bakery_simulator(seed=0, clock=WallClock(), tokens={"indexador": DEFAULT_SERVE_TOKEN})
    monkeypatch.setenv("NOTION_TOKEN", DEFAULT_SERVE_TOKEN)
    db = str(tmp_path / "kb.sqlite")
    with serve_in_background(sim) as server:
        assert main(["index", "--base-url", server.base_url, "--db", db, "--rate", "50"]) == 0
        capsys.readouterr()
        assert main(["sync", "--base-url", server.base_url, "--db", db, "--reconcile-every", "24"]) == 0
        out = capsys.readouterr().out
        assert "done: incremental run, 1 requests" in out and "quick sync" in out
        assert main(["sync", "--base-url", server.base_url, "--db", db, "--reconcile-every", "24",
                     "--reconcile"]) == 0
        out = capsys.readouterr().out
        assert "done: incremental run, 2 requests" in out and "quick sync" not in out
        assert main(["sync", "--base-url", server.base_url, "--db", db]) == 0  # the default: every run reconciles
        assert "done: incremental run, 2 requests" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["sync", "--db", db, "--reconcile-every", "-1"])


# ---------------------------------------------------------------------- the small workspace: sub-pages, synced blocks


def small(store_url: str, reconcile_every: datetime.timedelta | None = None):
    ws = small_workspace()
    sim = NotionSimulator(ws, seed=5)
    store = IndexStore(store_url)
    settings_ = config()
    settings_.reconcile_every = reconcile_every
    full_index(_client(sim, None), store, sim.clock, settings_)
    return ws, sim, store, settings_


def test_a_quick_sync_reads_an_edited_sub_page_and_a_new_one_and_drops_one_its_parent_no_longer_shows(store_url):
    ws, sim, store, settings_ = small(store_url)
    sim.clock.set(600)
    ws.edit_block_text(ws.find_block(ws.page_id("rare"), "Sección").id, "Sección revisada")  # two levels down
    sub_page_in_toggle(ws, "hours")
    ws.move_to_trash(ws.page_id("cases"))  # its parent is edited; "Casos raros" goes with it
    sim.clock.set(1200)
    report = incremental_sync(_client(sim, None), store, sim.clock, settings_)
    assert report.reconciled is False
    assert sorted(report.pages_removed) == ["Cancelaciones > Casos", "Cancelaciones > Casos > Casos raros"]
    assert "Horarios > Zonas" in report.pages_reread
    assert content(store) == reference(ws, sim.clock.now())


def test_a_renamed_row_s_sub_pages_are_read_again_under_their_new_breadcrumb(store_url):
    ws, sim, store, settings_ = small(store_url)
    sim.clock.set(600)
    ws.rename(ws.page_id("policy"), "Cancelaciones y cambios")
    sim.clock.set(1200)
    report = incremental_sync(_client(sim, None), store, sim.clock, settings_)
    assert sorted(report.pages_reread) == ["Cancelaciones y cambios", "Cancelaciones y cambios > Casos",
                                           "Cancelaciones y cambios > Casos > Casos raros"]
    assert content(store) == reference(ws, sim.clock.now())


@pytest.mark.parametrize("rows_between", [False, True], ids=["showing-row-returned", "showing-row-not-returned"])
def test_a_quick_sync_reads_again_a_page_that_shows_an_edited_synced_original(store_url, rows_between):
    ws, sim, store, settings_ = small(store_url)
    sim.clock.set(600)
    apply_edit(ws, "new_page", 0, 1)  # a new publishable row that shows the original "Entregas" holds
    shows = max(ws.pages.values(), key=lambda page: page.key.startswith("new-")).id
    sim.clock.set(1200)
    incremental_sync(_client(sim, None), store, sim.clock, settings_)
    if rows_between:  # another edit moves the watermark past the page that shows the original
        sim.clock.set(1500)
        ws.edit_block_text(ws.find_block(ws.page_id("hours"), "Sección").id, "Sección de horarios")
        sim.clock.set(1600)
        incremental_sync(_client(sim, None), store, sim.clock, settings_)
        assert store.watermark("notion") > ws.pages[shows].edited
    sim.clock.set(1800)
    original = next(block for block in ws.blocks.values() if block.type == "synced_block" and not block.synced_from)
    ws.edit_block_text(original.children[0], "Las entregas salen también los domingos.")
    sim.clock.set(2400)
    report = incremental_sync(_client(sim, None), store, sim.clock, settings_)
    assert report.reconciled is False and sorted(report.pages_reread) == sorted(["Entregas", ws.pages[shows].title])
    assert content(store) == reference(ws, sim.clock.now())


# ---------------------------------------------------------------------- random histories

step = st.one_of(st.tuples(st.sampled_from(EDITS), st.integers(0, 60), st.integers(0, 60)),
                 st.tuples(st.just("wait"), st.sampled_from([5.0, 45.0, 70.0, 600.0])),
                 st.tuples(st.just("sync"), st.one_of(st.none(), st.none(), st.integers(1, 12))))


HISTORIES = int(os.environ.get("LAB_QUICK_SYNC_HISTORIES", "40"))  # more: LAB_QUICK_SYNC_HISTORIES=1000


@pytest.mark.slow
@settings(max_examples=HISTORIES, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(step, min_size=2, max_size=14), faults=st.booleans(), seed=st.integers(0, 2**16))
def test_after_quick_syncs_of_a_random_history_a_forced_reconciliation_equals_a_full_index(steps, faults,
                                                                                             seed) -> None:
    ws = small_workspace()
    limits = LimitsConfig(p_workspace=0.1, p_overload=0.05, p_server_error=0.05) if faults else None
    sim = NotionSimulator(ws, seed=seed, limits=limits)
    store = IndexStore(":memory:")
    settings_ = config()
    settings_.reconcile_every = None
    full_index(_client(sim, None), store, sim.clock, settings_)
    watermark = store.watermark("notion")
    for kind, *arguments in steps:
        if kind == "wait":
            sim.clock.advance(arguments[0])
        elif kind == "sync":
            before, reconciled = content(store), store.get_meta(reconciled_key("notion"))
            try:
                report = incremental_sync(_client(sim, arguments[0]), store, sim.clock, settings_)
            except InjectedCrash:
                assert content(store) == before, "a crashed quick sync changed the index"
                continue
            finally:
                assert store.get_meta(reconciled_key("notion")) == reconciled, "a quick sync moved the reconciliation"
            assert report.reconciled is False and store.watermark("notion") >= watermark
            watermark = store.watermark("notion")
            assert store.chunk_total("notion") == store.count_chunks() == report.chunks_total  # kept, not counted
            assert store.known_to_hold_sub_pages("notion") >= store.holds_sub_pages()
        else:
            apply_edit(ws, kind, *arguments)
    sim.clock.advance(70.0)
    report = incremental_sync(_client(sim, None), store, sim.clock, settings_, force_reconcile=True)
    assert report.reconciled is True and store.watermark("notion") >= watermark
    assert content(store) == reference(ws, sim.clock.now())
