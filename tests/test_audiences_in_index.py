"""Permissions as data: the index stores each page's audience, a sync keeps it current, and the served
search filters on it before ranking, from Python and from the command line.

The Chinese handbook is indexed through the real simulator with its 受众 select as the audience
property: ten pages for support agents (客服) and one for HR (人事).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from unittest import mock

import pytest

from lab.answering import Answerer
from lab.cli import DEFAULT_SERVE_TOKEN, ExitCode, main
from lab.client import NoPacing, NotionClient
from lab.clock import WallClock
from handbook_read import AUDIENCE_PROPERTY, KNOWLEDGE_BASE, PUBLISHABLE_PROPERTY
from lab.datasets.handbook import AUDIENCES, SUPPORT_INTEGRATION, load_handbook_questions, load_handbook_workspace
from lab.index import IndexStore
from lab.ingest.page_reads import page_essentials
from lab.ingest.sync import SyncConfig, full_index, incremental_sync
from lab.notion.pages import PageMetadata
from lab.retrieval import IndexSearcher
from lab.retrieval.corpus import UnknownAudienceError
from lab.retrieval.offline_index import ask_index
from lab.retrieval.retrievers import TfidfRetriever
from lab.simulator import InjectedCrash, NotionSimulator, Workspace, crashing_session, in_process_session
from lab.simulator.server import serve_in_background

SUPPORT, HR = AUDIENCES  # 客服, 人事
QUESTIONS = [q["question"] for q in load_handbook_questions()]


def _config(**changes) -> SyncConfig:
    fields = {"title": KNOWLEDGE_BASE, "publishable_property": PUBLISHABLE_PROPERTY,
              "audience_property": AUDIENCE_PROPERTY} | changes
    return SyncConfig(**fields)


def _simulator(spec: dict | None = None) -> NotionSimulator:
    return NotionSimulator(Workspace.from_spec(spec or load_handbook_workspace()), seed=0)


def _client(sim: NotionSimulator, session=None) -> NotionClient:
    return NotionClient(sim.token_for(SUPPORT_INTEGRATION), session=session or in_process_session(sim),
                        clock=sim.clock, pacer=NoPacing())


def _spec_audiences(sim: NotionSimulator) -> dict[str, str]:
    return {page.id: page.type for page in sim.workspace.pages.values()}


@pytest.fixture(scope="module")
def indexed() -> tuple[NotionSimulator, IndexStore]:
    sim, store = _simulator(), IndexStore(":memory:")
    full_index(_client(sim), store, sim.clock, _config())
    return sim, store


def test_page_metadata_reads_the_audience_from_the_select_it_is_told_to_and_none_without_a_name() -> None:
    page = {"object": "page", "id": "p", "properties": {
        "Name": {"type": "title", "title": [{"plain_text": "Refunds"}]},
        "Audience": {"type": "select", "select": {"name": "support"}},
        "Empty": {"type": "select", "select": None}}}
    assert PageMetadata.from_page(page, audience_property="Audience").audience == "support"
    assert PageMetadata.from_page(page).audience is None
    assert PageMetadata.from_page(page, audience_property="Empty").audience is None
    assert PageMetadata.from_page(page, audience_property="Missing").audience is None


def test_a_listing_keeps_the_audience_select_of_each_page(indexed) -> None:
    sim, _ = indexed
    page = next(iter(sim.workspace.pages.values()))
    kept = page_essentials(_client(sim).pages.retrieve(page.id))
    assert kept["properties"][AUDIENCE_PROPERTY] == {"type": "select", "select": {"name": page.type}}


def test_a_full_index_stores_the_audience_of_every_page(indexed) -> None:
    sim, store = indexed
    assert store.audiences() == _spec_audiences(sim)
    assert sorted(set(store.audiences().values())) == sorted(AUDIENCES)
    assert {page.audience for page in store.pages().values()} == set(AUDIENCES)


def test_an_index_built_without_an_audience_property_stores_none() -> None:
    sim, store = _simulator(), IndexStore(":memory:")
    full_index(_client(sim), store, sim.clock, _config(audience_property=None))
    assert store.audiences() == {}
    assert {page.audience for page in store.pages().values()} == {None}


def test_a_first_index_resumed_after_a_crash_stores_the_same_audiences() -> None:
    sim, store = _simulator(), IndexStore(":memory:")
    with pytest.raises(InjectedCrash):
        full_index(_client(sim, crashing_session(sim, 8)), store, sim.clock, _config())
    assert store.staged_count() > 0
    report = full_index(_client(sim), store, sim.clock, _config())
    assert report.pages_resumed > 0
    assert store.audiences() == _spec_audiences(sim)


@pytest.mark.slow
def test_a_sync_republishes_a_page_whose_audience_changed_and_equals_a_full_index() -> None:
    sim, store = _simulator(), IndexStore(":memory:")
    full_index(_client(sim), store, sim.clock, _config())
    hr_page = next(pid for pid, audience in store.audiences().items() if audience == HR)
    sim.clock.advance(120)
    sim.workspace.set_select(hr_page, SUPPORT)
    sim.clock.advance(120)
    report = incremental_sync(_client(sim), store, sim.clock, _config())
    assert report.pages_reread == [store.pages()[hr_page].title]
    assert store.audiences()[hr_page] == SUPPORT
    fresh = IndexStore(":memory:")
    full_index(_client(sim), fresh, sim.clock, _config())
    assert store.state()["pages"] == fresh.state()["pages"]
    assert store.state()["chunks"] == fresh.state()["chunks"]


def test_a_sync_with_an_audience_property_the_index_lacked_reads_every_page_again() -> None:
    sim, store = _simulator(), IndexStore(":memory:")
    full_index(_client(sim), store, sim.clock, _config(audience_property=None))
    sim.clock.advance(120)
    report = incremental_sync(_client(sim), store, sim.clock, _config())
    assert len(report.pages_reread) == len(sim.workspace.pages)
    assert store.audiences() == _spec_audiences(sim)


def test_an_agent_of_one_audience_never_gets_a_chunk_of_the_other_audiences_pages(indexed) -> None:
    _, store = indexed
    searcher, audience_of = IndexSearcher(store, TfidfRetriever()), store.audiences()
    for audience in AUDIENCES:
        for hits in searcher.search_many(QUESTIONS, k=50, audience=audience):
            assert {audience_of[hit.page_id] for hit in hits} <= {audience}
    unfiltered = {audience_of[hit.page_id] for hits in searcher.search_many(QUESTIONS, k=50) for hit in hits}
    assert unfiltered == set(AUDIENCES)  # no audience: every page, as every retriever does


def test_the_filter_comes_before_ranking_so_an_agent_still_gets_k_hits_of_its_own(indexed) -> None:
    _, store = indexed
    searcher = IndexSearcher(store, TfidfRetriever())
    hr_chunks = sum(1 for audience in searcher.corpus_.audiences if audience == HR)
    hits = searcher.search("退款 审批 客服 主管", k=hr_chunks, audience=HR)  # support words: HR ranks low unfiltered
    assert len(hits) == hr_chunks and all(store.audiences()[hit.page_id] == HR for hit in hits)


def test_the_stored_audiences_follow_a_sync_into_a_searcher_already_loaded() -> None:
    sim, store = _simulator(), IndexStore(":memory:")
    full_index(_client(sim), store, sim.clock, _config())
    searcher = IndexSearcher(store, TfidfRetriever())
    hr_page = next(pid for pid, audience in store.audiences().items() if audience == HR)
    assert hr_page not in {h.page_id for h in searcher.search("薪酬", k=50, audience=SUPPORT)}
    sim.clock.advance(120)
    sim.workspace.set_select(hr_page, SUPPORT)
    sim.clock.advance(120)
    incremental_sync(_client(sim), store, sim.clock, _config())
    assert hr_page in {h.page_id for h in searcher.search("薪酬", k=50, audience=SUPPORT)}


def test_a_page_without_an_audience_is_shown_to_no_named_audience_only_to_an_unfiltered_search() -> None:
    spec = load_handbook_workspace()
    spec["pages"][0]["type"] = ""  # nobody chose an audience for this page
    sim, store = _simulator(spec), IndexStore(":memory:")
    full_index(_client(sim), store, sim.clock, _config())
    unlabelled = sim.workspace.page_id(spec["pages"][0]["key"])
    assert unlabelled not in store.audiences() and store.pages()[unlabelled].audience is None
    searcher = IndexSearcher(store, TfidfRetriever())
    for audience in AUDIENCES:
        assert all(unlabelled not in {h.page_id for h in hits}
                   for hits in searcher.search_many(QUESTIONS, k=50, audience=audience))
    assert any(unlabelled in {h.page_id for h in hits} for hits in searcher.search_many(QUESTIONS, k=50))


def test_an_audience_no_page_has_is_refused_with_the_ones_the_index_holds(indexed) -> None:
    _, store = indexed
    with pytest.raises(UnknownAudienceError, match="客服"):
        IndexSearcher(store, TfidfRetriever()).search("退款", audience="财务")


def test_the_offline_index_and_the_answerer_take_the_askers_audience(indexed) -> None:
    _, store = indexed
    audience_of = store.audiences()
    page_of = {row["id"]: row["page_id"] for row in store.chunks()}
    table = ask_index(store, "工资 审批", k=20, audience=SUPPORT)
    assert len(table) and {audience_of[page_of[chunk_id]] for chunk_id in table["id"]} == {SUPPORT}
    answerer = Answerer(IndexSearcher(store, TfidfRetriever()), k=5, audience=SUPPORT).fit()
    assert {audience_of[source.page_id] for source in answerer.sources("工资 审批")} == {SUPPORT}


# ---------------------------------------------------------------------- the command line

@pytest.fixture(scope="module")
def served_index(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """The handbook indexed by ``python -m lab index --audience-property 受众`` from the served simulator."""
    db = tmp_path_factory.mktemp("audiences") / "kb.sqlite"
    sim = NotionSimulator(Workspace.from_spec(load_handbook_workspace(), WallClock()), seed=0,
                          tokens={SUPPORT_INTEGRATION: DEFAULT_SERVE_TOKEN})
    with serve_in_background(sim) as server, mock.patch.dict(os.environ, {"NOTION_TOKEN": DEFAULT_SERVE_TOKEN}):
        assert main(["index", "--base-url", server.base_url, "--db", str(db), "--rate", "100", "--recipe", "lexical",
                     "--title", KNOWLEDGE_BASE, "--publishable-property", PUBLISHABLE_PROPERTY,
                     "--audience-property", AUDIENCE_PROPERTY]) == ExitCode.OK
    with IndexStore(str(db)) as store:
        return db, store.audiences()


def _search_json(db: Path, extra: list[str], capsys, monkeypatch) -> tuple[list[dict], str]:
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("\n".join(QUESTIONS) + "\n"))
    assert main(["search", "--db", str(db), "-k", "20", "--json", *extra]) == ExitCode.OK
    captured = capsys.readouterr()
    return [json.loads(line) for line in captured.out.splitlines()], captured.err


def test_the_command_line_index_stores_the_audiences(served_index) -> None:
    _, audiences = served_index
    assert sorted(set(audiences.values())) == sorted(AUDIENCES) and len(audiences) == 11


@pytest.mark.parametrize("audience", AUDIENCES)
def test_search_with_an_audience_never_prints_a_chunk_of_the_other_audiences_pages(
        served_index, audience, capsys, monkeypatch) -> None:
    db, audiences = served_index
    answers, err = _search_json(db, ["--audience", audience], capsys, monkeypatch)
    assert len(answers) == len(QUESTIONS) and err == ""
    assert {audiences[hit["page_id"]] for answer in answers for hit in answer["hits"]} == {audience}


def test_search_without_an_audience_searches_every_page_and_says_so_on_stderr(served_index, capsys,
                                                                            monkeypatch) -> None:
    db, audiences = served_index
    answers, err = _search_json(db, [], capsys, monkeypatch)
    assert {audiences[hit["page_id"]] for answer in answers for hit in answer["hits"]} == set(AUDIENCES)
    assert err.startswith("note: no --audience") and "客服" in err and "人事" in err and err.count("\n") == 1


def test_search_with_an_unknown_audience_is_one_line_naming_the_known_ones(served_index, capsys) -> None:
    db, _ = served_index
    assert main(["search", "--db", str(db), "--audience", "财务", "退款"]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "财务" in err and "客服" in err


def test_ask_with_an_audience_cites_only_that_audiences_pages(served_index, capsys) -> None:
    db, audiences = served_index
    with IndexStore(str(db)) as store:
        titles = {page.title: audiences[pid] for pid, page in store.pages().items()}
    assert main(["ask", "--db", str(db), "--audience", SUPPORT, "-k", "8", "工资 审批 金额"]) == ExitCode.OK
    out = capsys.readouterr().out
    cited = [title for title in titles if title in out.split("sources (* cited):")[1]]
    assert cited and {titles[title] for title in cited} == {SUPPORT}
