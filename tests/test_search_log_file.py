"""The search log as a file: a torn last line is never a record and never swallows the next one,
every line is checked field by field, appenders in several processes lose nothing, and a full
disk leaves the file ending on a whole record."""

from __future__ import annotations

import errno
import json
import multiprocessing
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lab.clock import SimulatedClock
from lab.retrieval import search_log
from lab.retrieval.search_log import SearchLog, SearchLogFileError, SearchRecord
from lab.vectors.search import Hit

KEY = "a key kept apart from the log"
RECORD = {"at": "2026-04-09T16:00:00+00:00", "asked_by": "chat", "audience": "clientes",
          "query_hmac": "0123456789abcdef", "k": 3, "page_ids": ["pa", "pb"]}


def hits(*pages: str) -> list[Hit]:
    return [Hit(id=f"{page}:0", score=1.0, title=page.upper(), page_id=page) for page in pages]


def log_at(path: Path) -> SearchLog:
    return SearchLog(path, key=KEY, clock=SimulatedClock())


def test_a_record_appended_after_a_crash_cut_line_starts_on_its_own_line_and_is_read_back(tmp_path) -> None:
    log = log_at(tmp_path / "searches.jsonl")
    log.record(asked_by="web", query="entregas", hits=hits("pa"), k=2)
    whole = log.path.read_bytes()
    with log.path.open("ab") as handle:  # a process killed halfway through its append
        handle.write(whole[: len(whole) // 2])
    assert [r.asked_by for r in log.records()] == ["web"]  # the torn line is not a record yet
    log.record(asked_by="chat", query="alergias", hits=hits("pb"), k=2)
    assert [(r.asked_by, r.page_ids) for r in log.records()] == [("web", ["pa"]), ("chat", ["pb"])]
    assert log.path.read_bytes().count(b"\n") == 2 and log.path.read_bytes().endswith(b"\n")


def test_a_torn_line_alone_in_the_file_is_cut_and_the_next_record_is_the_first(tmp_path) -> None:
    log = log_at(tmp_path / "searches.jsonl")
    log.path.write_bytes(b'{"at": null, "asked_by": "w')
    assert log.records() == []
    log.record(asked_by="chat", query="pan", hits=hits("pa"), k=1)
    assert [r.asked_by for r in log.records()] == ["chat"]


@pytest.mark.parametrize("field, value, problem", [
    ("k", "3", "its 'k' is a str"), ("k", True, "its 'k' is a bool"), ("k", 2.5, "its 'k' is a float"),
    ("k", -1, "its 'k' is negative"), ("k", None, "its 'k' is a NoneType"),
    ("page_ids", "pa", "its 'page_ids' is a str"), ("page_ids", [1, 2], "hold something other than strings"),
    ("asked_by", 7, "its 'asked_by' is a int"), ("asked_by", None, "its 'asked_by' is a NoneType"),
    ("audience", ["clientes"], "its 'audience' is a list"), ("at", 1712678400, "its 'at' is a int"),
    ("query_hmac", "mi hijo Mateo", "not 16 hex digits"), ("query_hmac", {"x": 1}, "its 'query_hmac' is a dict"),
])
def test_a_line_with_the_right_keys_but_a_wrong_type_is_named_not_read_as_a_record(tmp_path, field, value,
                                                                                  problem) -> None:
    log = log_at(tmp_path / "searches.jsonl")
    log.path.write_text(json.dumps(RECORD) + "\n" + json.dumps({**RECORD, field: value}) + "\n", encoding="utf-8")
    with pytest.raises(SearchLogFileError, match=r"line 2 of .* is not a search record") as raised:
        log.records()
    assert problem in str(raised.value) and "Mateo" not in str(raised.value)


@pytest.mark.parametrize("line, problem", [
    (b"[1, 2]", "not a JSON object"), (b'{"at": null}', "keys are not"),
    (json.dumps({**RECORD, "query": "mi hijo Mateo"}).encode(), "1 unknown"),
    (json.dumps(RECORD).replace('"k": 3', '"k": ' + "9" * 5000).encode(), "5000 digits"),
    (json.dumps(RECORD).replace('"k": 3', '"k": NaN').encode(), "NaN"),
    (b"[" * 100_000 + b"]" * 100_000, "deeper than"),
])
def test_a_line_that_is_no_record_is_named_by_its_problem_without_its_content(tmp_path, line, problem) -> None:
    log = log_at(tmp_path / "searches.jsonl")
    log.path.write_bytes(line + b"\n")
    with pytest.raises(SearchLogFileError, match=r"line 1 of .* is not a search record") as raised:
        log.records()
    assert problem in str(raised.value) and "Mateo" not in str(raised.value)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300))
def test_random_bytes_read_as_records_or_a_search_log_error_and_are_left_alone(tmp_path, data) -> None:
    path = tmp_path / "searches.jsonl"
    path.write_bytes(data)
    try:
        records = log_at(path).records()
    except SearchLogFileError:
        records = None
    assert records is None or all(isinstance(r, SearchRecord) for r in records)
    assert path.read_bytes() == data


def test_a_log_cut_at_every_offset_reads_the_whole_records_before_the_cut(tmp_path) -> None:
    log = log_at(tmp_path / "whole.jsonl")
    for n in range(4):
        log.record(asked_by=f"caller-{n}", query=f"pregunta {n}", hits=hits(f"p{n}"), k=n + 1)
    whole, ends = log.path.read_bytes(), []
    ends = [i + 1 for i, byte in enumerate(whole) if byte == ord("\n")]
    cut = log_at(tmp_path / "cut.jsonl")
    for size in range(len(whole) + 1):
        cut.path.write_bytes(whole[:size])
        kept = sum(end <= size for end in ends)
        assert [r.asked_by for r in cut.records()] == [f"caller-{n}" for n in range(kept)]
        cut.record(asked_by="next", query="otra", hits=[], k=1)  # and an append after any cut is read back
        assert [r.asked_by for r in cut.records()] == [*(f"caller-{n}" for n in range(kept)), "next"]


def test_a_full_disk_during_an_append_leaves_the_file_ending_on_a_whole_record(tmp_path, monkeypatch) -> None:
    log = log_at(tmp_path / "searches.jsonl")
    log.record(asked_by="web", query="entregas", hits=hits("pa"), k=2)
    before = log.path.read_bytes()
    real_write = os.write

    def half_then_no_space(descriptor: int, data: bytes) -> int:
        if descriptor <= 2:
            return real_write(descriptor, data)
        real_write(descriptor, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(search_log.os, "write", half_then_no_space)
    with pytest.raises(SearchLogFileError, match=r"searches\.jsonl cannot be written \(No space left on device\)"):
        log.record(asked_by="chat", query="alergias", hits=hits("pb"), k=2)
    monkeypatch.undo()
    assert log.path.read_bytes() == before
    log.record(asked_by="chat", query="alergias", hits=hits("pb"), k=2)
    assert [r.asked_by for r in log.records()] == ["web", "chat"]


def test_a_log_under_a_file_is_a_search_log_error(tmp_path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x\n", encoding="utf-8")
    log = log_at(blocker / "searches.jsonl")
    with pytest.raises(SearchLogFileError, match="cannot be read"):
        log.records()
    with pytest.raises(SearchLogFileError, match="cannot be written"):
        log.record(asked_by="web", query="pan", hits=[], k=1)


def _append_many(path: str, caller: str, count: int, start: multiprocessing.synchronize.Barrier) -> None:
    log = log_at(Path(path))
    start.wait()
    for n in range(count):
        log.record(asked_by=caller, query=f"{caller} {n}", hits=hits(f"p{n}"), k=1)


def test_appenders_in_six_processes_lose_no_record_and_tear_no_line(tmp_path) -> None:
    context, path, count = multiprocessing.get_context("fork"), tmp_path / "searches.jsonl", 40
    start = context.Barrier(6)
    workers = [context.Process(target=_append_many, args=(str(path), f"caller-{w}", count, start)) for w in range(6)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [worker.exitcode for worker in workers] == [0] * 6
    records = log_at(path).records()
    assert sorted((r.asked_by, r.page_ids[0]) for r in records) == sorted(
        (f"caller-{w}", f"p{n}") for w in range(6) for n in range(count))
