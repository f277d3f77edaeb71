"""The search audit log: one JSON line per search, who asked and which pages came back, and the
query only as a keyed hash."""

from __future__ import annotations

import json

import pytest

from lab.clock import SimulatedClock
from lab.retrieval import BM25Retriever, SearchCorpus
from lab.retrieval.search_log import (AuditedRetriever, SearchLog, SearchLogFileError, SearchLogKeyError,
                                      query_digest)

CORPUS = SearchCorpus(
    ids=("a:0", "a:1", "b:0", "c:0"), page_ids=("pa", "pa", "pb", "pc"),
    titles=("Entregas", "Entregas", "Alergias", "Nómina"), sections=(None, None, None, None),
    texts=("Entregas a domicilio en la zona 1", "Entregas los sábados en la zona 2",
           "Alergias: nuez y cacahuate en la zona de horneado", "Nómina del equipo de mostrador"),
    audiences=("clientes", "clientes", "clientes", "equipo"))
KEY = "a key kept apart from the log"


def test_each_search_appends_who_asked_the_audience_and_the_page_ids_in_rank_order(tmp_path) -> None:
    log = SearchLog(tmp_path / "searches.jsonl", key=KEY, clock=SimulatedClock())
    customer = AuditedRetriever(BM25Retriever(), log, asked_by="chat-clientes").fit(CORPUS)
    staff = AuditedRetriever(BM25Retriever(), log, asked_by="lote-nocturno").fit(CORPUS)
    hits = customer.search("entregas zona", k=3, audience="clientes")
    assert hits == BM25Retriever().fit(CORPUS).search("entregas zona", k=3, audience="clientes")  # unchanged
    staff.search("nómina", k=2)
    first, second = log.records()
    assert (first.asked_by, first.audience, first.k, first.page_ids) == ("chat-clientes", "clientes", 3, ["pa", "pb"])
    assert (second.asked_by, second.audience, second.page_ids) == ("lote-nocturno", None, ["pc"])
    assert first.at == SimulatedClock().datetime().isoformat()
    assert [json.loads(line)["asked_by"] for line in log.path.read_text().splitlines()] == ["chat-clientes",
                                                                                           "lote-nocturno"]
    assert list(log.frame().columns) == ["at", "asked_by", "audience", "query_hmac", "k", "page_ids", "where"]
    assert first.where is None and second.where is None  # no version or date filter


def test_a_search_under_a_version_or_date_filter_records_the_conditions_it_set(tmp_path) -> None:
    from dataclasses import replace

    from lab.retrieval import ChunkFilter

    corpus = replace(CORPUS, versions=("3.2", "2.1", "3.2", None),
                     edited=("2026-03-01T10:00:00.000Z", "2026-01-05T10:00:00.000Z", "2026-04-01T10:00:00.000Z", None))
    log = SearchLog(tmp_path / "searches.jsonl", key=KEY)
    audited = AuditedRetriever(BM25Retriever(), log, asked_by="docs").fit(corpus)
    where = ChunkFilter(version="3.2", edited_from="2026-02-01")
    hits = audited.search("zona", k=3, where=where)
    assert hits == BM25Retriever().fit(corpus).search("zona", k=3, where=where)  # unchanged
    audited.search("zona", k=3)
    filtered, plain = log.records()
    assert filtered.where == {"version": "3.2", "edited_from": "2026-02-01"} and plain.where is None
    assert json.loads(log.path.read_text().splitlines()[0])["where"] == {"version": "3.2", "edited_from": "2026-02-01"}


def test_a_log_written_before_records_held_the_filter_still_reads_and_a_bad_filter_is_named(tmp_path) -> None:
    log = SearchLog(tmp_path / "searches.jsonl", key=KEY)
    old = {"at": None, "asked_by": "web", "audience": None, "query_hmac": "0123456789abcdef", "k": 2, "page_ids": []}
    log.path.write_text(json.dumps(old) + "\n" + json.dumps(old | {"where": {"colour": "red"}}) + "\n")
    with pytest.raises(SearchLogFileError, match=r"line 2 of .*\(its 'where' is not a filter's conditions\)"):
        log.records()
    log.path.write_text(json.dumps(old) + "\n")
    assert log.records()[0].where is None


def test_the_query_is_stored_as_a_keyed_hash_that_matches_repeats_but_not_guesses_without_the_key(tmp_path) -> None:
    log = SearchLog(tmp_path / "searches.jsonl", key=KEY)
    retriever = AuditedRetriever(BM25Retriever(), log, asked_by="chat").fit(CORPUS)
    retriever.search("Mi hijo Mateo es alérgico a la nuez")
    retriever.search("  mi hijo MATEO es alérgico a la nuez ")
    text = log.path.read_text(encoding="utf-8")
    assert "Mateo" not in text and "MATEO" not in text and "nuez" not in text
    first, second = log.records()
    assert first.query_hmac == second.query_hmac == query_digest("mi hijo mateo es alérgico a la nuez", KEY.encode())
    assert query_digest("mi hijo mateo es alérgico a la nuez", b"another key") != first.query_hmac
    assert first.at is None and KEY not in repr(log)


def test_a_search_log_without_a_key_is_refused() -> None:
    with pytest.raises(SearchLogKeyError, match="key"):
        SearchLog("searches.jsonl", key="")


@pytest.mark.parametrize("key", [5, [1, 2], 3.5])
def test_a_key_that_is_not_a_str_or_bytes_secret_is_refused_rather_than_turned_into_zero_bytes(key) -> None:
    with pytest.raises(SearchLogKeyError, match="key is a str or bytes secret"):
        SearchLog("searches.jsonl", key=key)


def test_a_log_path_that_is_a_folder_is_refused_before_any_search(tmp_path) -> None:
    with pytest.raises(SearchLogFileError, match="is a folder; the search log is a file"):
        SearchLog(tmp_path, key=KEY)


@pytest.mark.parametrize("damage", ['not json at all: mi hijo Mateo\n', '{"query": "mi hijo Mateo"}\n', "\xff\n"])
def test_a_damaged_line_is_named_by_number_without_showing_what_it_holds(tmp_path, damage) -> None:
    log = SearchLog(tmp_path / "searches.jsonl", key=KEY)
    AuditedRetriever(BM25Retriever().fit(CORPUS), log, "web").search("entregas", k=2)
    with log.path.open("a", encoding="utf-8", errors="surrogateescape") as handle:
        handle.write(damage)
    with pytest.raises(SearchLogFileError, match=r"line 2 of .* is not a search record") as raised:
        log.records()
    assert "Mateo" not in str(raised.value)
