"""An alert when pages are retired: a run that takes pages out of the index says how many and which
(ids and titles, never their text), the command line warns in one line, and the sync run row and
the status file record it; the guardrail against large deletions still refuses first."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from lab.cli import DEFAULT_SERVE_TOKEN, ExitCode, main
from lab.client import NoPacing, NotionClient
from lab.clock import WallClock
from lab.index import IndexStore
from lab.ingest.run_status import RunStatus, read_status_file, write_status_file
from lab.ingest.sync import GuardrailError, RetiredPage, SyncConfig, full_index, incremental_sync
from lab.simulator import KB_INTEGRATION, bakery_simulator, in_process_session
from lab.simulator.server import serve_in_background


def _client(sim) -> NotionClient:
    return NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                        pacer=NoPacing())


def _rows(sim) -> list:
    """The publishable rows of the bakery's knowledge base, in id order."""
    return sorted((p for p in sim.workspace.pages.values() if p.parent_type == "data_source_id" and p.publishable),
                  key=lambda p: p.id)


@pytest.fixture
def indexed():
    sim, store = bakery_simulator(seed=0), IndexStore(":memory:")
    full_index(_client(sim), store, sim.clock)
    return sim, store


def _retire_three(sim) -> dict[str, str]:
    """Trash one row, untick another's publishable box, unshare a third: their ids and titles."""
    trashed, unpublished, unshared = _rows(sim)[:3]
    sim.workspace.move_to_trash(trashed.id)
    sim.workspace.set_publishable(unpublished.id, False)
    sim.workspace.unshare(KB_INTEGRATION, unshared.id)
    sim.clock.advance(120)
    return {page.id: page.title for page in (trashed, unpublished, unshared)}


def test_a_sync_that_retires_pages_reports_each_by_id_and_title_and_counts_them_in_its_row(indexed) -> None:
    sim, store = indexed
    gone = _retire_three(sim)
    report = incremental_sync(_client(sim), store, sim.clock)
    assert {page.id: page.title for page in report.retired} == gone
    assert [page.id for page in report.retired] == sorted(gone)
    assert store.sync_runs()[-1]["pages_removed"] == 3 and not set(gone) & set(store.page_ids())


def test_a_retired_page_carries_its_id_and_title_only_never_its_text() -> None:
    assert [field.name for field in fields(RetiredPage)] == ["id", "title"]


def test_the_alert_is_one_line_naming_the_count_and_the_titles(indexed) -> None:
    sim, store = indexed
    gone = _retire_three(sim)
    alert = incremental_sync(_client(sim), store, sim.clock).retirement_alert()
    assert alert.startswith("warning: 3 pages retired from the index") and "\n" not in alert
    assert all(repr(title) in alert for title in gone.values())


def test_a_long_list_of_retired_pages_is_named_in_part_and_counted_whole() -> None:
    sim, store = bakery_simulator(seed=0), IndexStore(":memory:")
    full_index(_client(sim), store, sim.clock)
    for page in _rows(sim)[:8]:
        sim.workspace.move_to_trash(page.id)
    sim.clock.advance(120)
    report = incremental_sync(_client(sim), store, sim.clock, SyncConfig(max_delete_share=1.0))
    alert = report.retirement_alert()
    assert len(report.retired) == 8 and alert.startswith("warning: 8 pages retired") and alert.endswith("and 3 more")


def test_a_run_that_retires_nothing_raises_no_alert(indexed) -> None:
    sim, store = indexed
    report = incremental_sync(_client(sim), store, sim.clock)
    assert report.retired == [] and report.retirement_alert() is None


def test_a_full_index_also_reports_and_counts_the_pages_it_retires(indexed) -> None:
    sim, store = indexed
    gone = _retire_three(sim)
    report = full_index(_client(sim), store, sim.clock)
    assert {page.id: page.title for page in report.retired} == gone
    assert sorted(report.pages_removed) == sorted(gone.values()) and store.sync_runs()[-1]["pages_removed"] == 3


def test_the_guardrail_still_refuses_a_large_deletion_before_any_alert_and_writes_nothing(indexed) -> None:
    sim, store = indexed
    before = store.state()
    for page in _rows(sim)[:3]:
        sim.workspace.move_to_trash(page.id)
    sim.clock.advance(120)
    with pytest.raises(GuardrailError, match="would delete"):
        incremental_sync(_client(sim), store, sim.clock, SyncConfig(max_delete_share=0.01))
    assert store.state() == before and len(store.sync_runs()) == 1


def test_the_status_of_a_run_that_retired_pages_carries_their_ids_and_a_warning(tmp_path) -> None:
    run = {"kind": "incremental", "ran_at": "2026-04-08T14:05:00.000Z", "watermark": "2026-04-08T14:00:00.000Z",
           "pages_removed": 2, "pages_reread": 0, "requests": 3}
    status = RunStatus.from_run(run, retired_pages=["a-1", "b-2"])
    assert status.outcome == "ok" and status.retired_pages == ["a-1", "b-2"]
    assert status.message == "incremental run; warning: 2 pages retired from the index"
    path = write_status_file(tmp_path / "status.json", status)
    assert read_status_file(path) == status
    quiet = RunStatus.from_run(run | {"pages_removed": 0})
    assert quiet.message == "incremental run" and quiet.retired_pages == []


def test_the_status_says_when_removed_text_is_still_in_the_file(tmp_path) -> None:
    run = {"kind": "incremental", "ran_at": "2026-04-08T14:05:00.000Z", "watermark": "2026-04-08T14:00:00.000Z",
           "pages_removed": 1, "pages_reread": 0, "requests": 3}
    status = RunStatus.from_run(run, retired_pages=["a-1"], erased=False)
    assert status.alert.startswith("1 page removed from the index") and "still in the index file" in status.alert
    assert read_status_file(write_status_file(tmp_path / "status.json", status)) == status
    pending = RunStatus.from_run(run | {"pages_removed": 0}, erased=False)  # an earlier run's, still kept there
    assert pending.alert.startswith("removed text is still in the index file")
    assert RunStatus.from_run(run, retired_pages=["a-1"]).alert.count(";") == 0


def test_a_status_file_written_before_retired_pages_existed_reads_as_none_retired(tmp_path) -> None:
    line = {"command": "sync", "outcome": "ok", "exit_code": 0, "finished_at": "x", "watermark": None,
            "counts": {}, "message": "incremental run"}
    path = tmp_path / "status.json"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert read_status_file(path).retired_pages == []
    path.write_text(json.dumps(line | {"retired_pages": [1]}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="retired page id that is not a string"):
        read_status_file(path)


@pytest.mark.slow
def test_the_command_line_sync_warns_in_one_line_and_its_status_file_records_the_retired_ids(
        tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("NOTION_TOKEN", DEFAULT_SERVE_TOKEN)
    sim = bakery_simulator(seed=0, clock=WallClock(), tokens={KB_INTEGRATION: DEFAULT_SERVE_TOKEN})
    db, status = tmp_path / "kb.sqlite", tmp_path / "status.json"
    with serve_in_background(sim) as server:
        common = ["--base-url", server.base_url, "--db", str(db), "--rate", "100"]
        assert main(["index", *common, "--recipe", "lexical"]) == ExitCode.OK
        capsys.readouterr()
        page = _rows(sim)[0]
        sim.workspace.move_to_trash(page.id)
        assert main(["sync", *common, "--status-file", str(status)]) == ExitCode.OK
    captured = capsys.readouterr()
    assert captured.err == f"warning: 1 page retired from the index (no longer publishable and visible to the " \
                           f"integration): {page.title!r}\n"
    assert "removed 1;" in captured.out and DEFAULT_SERVE_TOKEN not in captured.err + captured.out
    written = read_status_file(status)
    assert written.retired_pages == [page.id] and written.counts["pages_removed"] == 1
    assert written.message == "incremental run; warning: 1 page retired from the index"


def test_the_status_of_a_run_that_retired_pages_holds_an_alert_a_monitor_can_test_for_null() -> None:
    run = {"kind": "incremental", "ran_at": "2026-04-08T14:05:00.000Z", "watermark": "2026-04-08T14:00:00.000Z",
           "pages_removed": 2}
    status = RunStatus.from_run(run, exit_code=ExitCode.REMOVED, retired_pages=["a-1", "b-2"])
    assert status.alert.startswith("2 pages removed from the index (ids in retired_pages)")
    assert status.outcome == "ok" and status.exit_code == 10
    assert RunStatus.from_run(run | {"pages_removed": 0}).alert is None
    assert json.loads(status.to_line())["alert"] == status.alert
    assert json.loads(RunStatus.from_run(run | {"pages_removed": 0}).to_line())["alert"] is None


def test_a_status_file_written_before_the_alert_existed_reads_as_no_alert(tmp_path) -> None:
    line = {"command": "sync", "outcome": "ok", "exit_code": 0, "finished_at": "x", "watermark": None,
            "counts": {}, "message": "incremental run", "retired_pages": []}
    path = tmp_path / "status.json"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert read_status_file(path).alert is None
    path.write_text(json.dumps(line | {"alert": 3}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="'alert' as a int"):
        read_status_file(path)


def test_the_removal_exit_code_is_its_own_and_documented() -> None:
    assert ExitCode.REMOVED == 10 and len({int(code) for code in ExitCode}) == len(ExitCode)


@pytest.mark.slow
def test_sync_with_alert_on_removal_exits_10_when_pages_left_and_0_when_none_did(tmp_path, monkeypatch,
                                                                                   capsys) -> None:
    monkeypatch.setenv("NOTION_TOKEN", DEFAULT_SERVE_TOKEN)
    sim = bakery_simulator(seed=0, clock=WallClock(), tokens={KB_INTEGRATION: DEFAULT_SERVE_TOKEN})
    db, status = tmp_path / "kb.sqlite", tmp_path / "status.json"
    with serve_in_background(sim) as server:
        common = ["--base-url", server.base_url, "--db", str(db), "--rate", "100"]
        assert main(["index", *common, "--recipe", "lexical"]) == ExitCode.OK
        alerting = ["sync", *common, "--status-file", str(status), "--alert-on-removal"]
        assert main(alerting) == ExitCode.OK  # nothing left: 0, and no alert
        assert read_status_file(status).alert is None and read_status_file(status).exit_code == 0
        gone = [page.id for page in _rows(sim)[:2]]
        for page_id in gone:
            sim.workspace.move_to_trash(page_id)
        capsys.readouterr()
        assert main(alerting) == ExitCode.REMOVED == 10
        captured = capsys.readouterr()
        assert captured.err.startswith("warning: 2 pages retired from the index")
        written = read_status_file(status)
        assert written.outcome == "ok" and written.exit_code == 10 and sorted(written.retired_pages) == sorted(gone)
        assert written.alert.startswith("2 pages removed from the index") and written.counts["pages_removed"] == 2
        sim.workspace.move_to_trash(_rows(sim)[2].id)
        assert main(["sync", *common, "--status-file", str(status)]) == ExitCode.OK  # without the flag: 0
        assert read_status_file(status).exit_code == 0 and read_status_file(status).alert.startswith("1 page removed")
        sim.workspace.move_to_trash(_rows(sim)[3].id)
        assert main(["sync", *common, "--alert-on-removal"]) == ExitCode.REMOVED  # without a status file too
    assert DEFAULT_SERVE_TOKEN not in status.read_text(encoding="utf-8")
