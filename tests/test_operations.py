"""Operations: a scheduled ``python -m lab sync`` tells success, a guardrail refusal and a failure
apart by its exit code and by a one-line JSON status file, and ``python -m lab audit`` lists what
each integration can see. Each case runs the real command in a subprocess, as cron would."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from lab.cli import ExitCode, main
from lab.clock import WallClock
from lab.course.paths import REPO_ROOT
from lab.ingest.run_status import RUN_COUNTS, RunStatus, read_status_file, write_status_file
from lab.index import IndexStore
from lab.simulator import BATCH_INTEGRATION, KB_INTEGRATION, LimitsConfig
from lab.simulator.server import serve_in_background
from lab.simulator.workspaces import bakery_simulator

TOKEN = "ntn_operations_token"
ROOMY = LimitsConfig(connection_budget=100_000, workspace_budget=100_000)


def roomy_simulator():
    return bakery_simulator(seed=0, clock=WallClock(), limits=ROOMY, tokens={KB_INTEGRATION: TOKEN})


@pytest.fixture(scope="module")
def served():
    with serve_in_background(roomy_simulator()) as server:
        yield server


@pytest.fixture(scope="module")
def built_index(served, tmp_path_factory) -> Path:
    """The bakery indexed once, in process (the runs under test are the subprocesses); tests use copies."""
    db = tmp_path_factory.mktemp("built") / "kb.sqlite"
    with mock.patch.dict(os.environ, {"NOTION_TOKEN": TOKEN}), contextlib.redirect_stdout(io.StringIO()):
        assert main(["index", "--base-url", served.base_url, "--db", str(db), "--rate", "1000"]) == ExitCode.OK
    return db


def cli(*args: str, env: dict[str, str] | None = None, token: str | None = TOKEN) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k != "NOTION_TOKEN"}
    if token is not None:
        clean["NOTION_TOKEN"] = token
    return subprocess.run([sys.executable, "-m", "lab", *args], cwd=REPO_ROOT, env={**clean, **(env or {})},
                          capture_output=True, text=True, timeout=120)


def copy_of(index: Path, folder: Path) -> Path:
    target = folder / "copy.sqlite"
    shutil.copyfile(index, target)
    return target


def status_line(path: Path) -> dict:
    """The status file's content: exactly one line of JSON, nothing else in its folder."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1, lines
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []  # no temporary file left
    return json.loads(lines[0])


# ---------------------------------------------------------------------- exit codes and status file


@pytest.mark.slow
def test_a_sync_that_succeeds_exits_0_and_its_status_line_repeats_the_runs_counts(served, built_index,
                                                                                 tmp_path) -> None:
    db, status = copy_of(built_index, tmp_path), tmp_path / "status" / "sync.json"
    run = cli("sync", "--base-url", served.base_url, "--db", str(db), "--status-file", str(status))
    assert run.returncode == ExitCode.OK, run.stderr
    line = status_line(status)
    last = IndexStore(db).sync_runs()[-1]
    assert line["outcome"] == "ok" and line["exit_code"] == 0 and line["command"] == "sync"
    assert line["finished_at"] == last["ran_at"] and line["watermark"] == last["watermark"]
    assert line["counts"] == {name: last[name] for name in RUN_COUNTS} and line["counts"]["chunks_total"] == 315
    assert TOKEN not in status.read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_guardrail_refusal_exits_with_its_own_code_and_is_not_reported_as_success(built_index, tmp_path) -> None:
    db, status = copy_of(built_index, tmp_path), tmp_path / "sync.json"
    write_status_file(status, RunStatus(command="sync", outcome="ok", exit_code=0, finished_at="earlier",
                                        watermark=None))
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    indexed = sorted(IndexStore(db).pages())
    sim = roomy_simulator()
    for page_id in indexed[:30]:  # the integration loses access to three pages in four
        sim.workspace.unshare(KB_INTEGRATION, page_id)
    with serve_in_background(sim) as server:
        run = cli("sync", "--base-url", server.base_url, "--db", str(db), "--status-file", str(status))
    assert run.returncode == ExitCode.GUARDRAIL == 7
    assert run.stderr.startswith("refused: this sync would delete") and len(run.stderr.splitlines()) == 1
    assert "--force" in run.stderr and hashlib.sha256(db.read_bytes()).hexdigest() == before
    line = status_line(status)
    assert line["outcome"] == "refused" and line["exit_code"] == 7 and line["message"] == run.stderr.strip()
    assert line["watermark"] == IndexStore(db).watermark("notion") and line["counts"] == {"chunks_total": 315}
    assert TOKEN not in status.read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_failed_sync_exits_with_its_failure_code_and_writes_a_failed_status_without_the_token(
        served, built_index, tmp_path) -> None:
    db, status = copy_of(built_index, tmp_path), tmp_path / "sync.json"
    wrong = "ntn_wrong_operations_token"
    run = cli("sync", "--base-url", served.base_url, "--db", str(db), "--status-file", str(status), token=wrong)
    assert run.returncode == ExitCode.FAILED
    line = status_line(status)
    assert line["outcome"] == "failed" and line["exit_code"] == 1 and "401" in line["message"]
    assert line["counts"] == {"chunks_total": 315} and line["watermark"] is not None
    assert wrong not in status.read_text(encoding="utf-8") + run.stderr
    missing = cli("sync", "--base-url", served.base_url, "--db", str(db), "--status-file", str(status), token=None)
    assert missing.returncode == ExitCode.TOKEN and status_line(status)["exit_code"] == ExitCode.TOKEN


def test_the_status_file_is_replaced_whole_and_read_back_and_never_holds_a_secret(tmp_path) -> None:
    path = tmp_path / "status.json"
    path.write_text("half a line from an old version", encoding="utf-8")
    first = RunStatus(command="sync", outcome="failed", exit_code=1, finished_at="2026-04-08T14:00:00.000Z",
                      watermark=None, message="error: ntn_secret_value was refused")
    write_status_file(path, first, "ntn_secret_value")
    assert "ntn_secret_value" not in path.read_text(encoding="utf-8") and status_line(path)["exit_code"] == 1
    second = RunStatus(command="sync", outcome="ok", exit_code=0, finished_at="2026-04-08T14:05:00.000Z",
                       watermark="2026-04-08T13:55:00.000Z", counts={"chunks_total": 315})
    write_status_file(path, second)
    assert read_status_file(path) == second and sorted(p.name for p in tmp_path.iterdir()) == ["status.json"]
    with pytest.raises(ValueError, match="outcome"):
        RunStatus(command="sync", outcome="fine", exit_code=0, finished_at="", watermark=None)


# ---------------------------------------------------------------------- the permission audit


@pytest.mark.slow
def test_the_audit_of_the_bakery_shows_each_integration_the_three_drafts_its_data_source_shares() -> None:
    run = cli("audit", "--simulator", token=None)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "  TL Indexador KB: sees 43 pages, 40 publishable, 3 drafts, 0 private" in lines
    assert "  TL Lote nocturno: sees 43 pages, 40 publishable, 3 drafts, 0 private" in lines
    assert [line for line in lines if line.startswith("    roots:")] == [
        "    roots: Base de conocimiento (data source)"] * 2  # shared the data source, nothing else
    drafts = [line.split("(")[0].split(maxsplit=1)[1].strip() for line in lines if line.startswith("    draft")]
    assert drafts == ["Ficha: Pan de muerto", "Política de programa de lealtad",
                      "Preguntas frecuentes: talleres de panadería"] * 2


@pytest.mark.slow
def test_a_private_page_shared_with_one_integration_is_flagged_for_that_integration_only(tmp_path) -> None:
    sim = roomy_simulator()
    notes = sim.workspace.page_id("notas-de-clientes")
    sim.workspace.share(BATCH_INTEGRATION, notes)  # customer notes, shared with the batch job by mistake
    batch_token = sim.token_for(BATCH_INTEGRATION)
    with serve_in_background(sim) as server:
        run = cli("audit", "--base-url", server.base_url, "--token-env", "NOTION_TOKEN", "--token-env",
                  "BATCH_TOKEN", "--rate", "1000", env={"BATCH_TOKEN": batch_token})
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "  TL Indexador KB: sees 43 pages, 40 publishable, 3 drafts, 0 private" in lines
    assert "  TL Lote nocturno: sees 44 pages, 40 publishable, 3 drafts, 1 private" in lines
    assert "    roots: Base de conocimiento (data source); Notas de clientes" in lines  # the extra root shows
    private = [line for line in lines if line.startswith("    private")]
    assert private == [f"    private Notas de clientes  (a page outside the knowledge base; {notes})"]
    assert TOKEN not in run.stdout + run.stderr and batch_token not in run.stdout + run.stderr


@pytest.mark.slow
def test_the_audit_of_a_token_that_is_refused_is_one_line_without_the_token(served) -> None:
    wrong = "ntn_wrong_audit_token"
    run = cli("audit", "--base-url", served.base_url, token=wrong)
    assert run.returncode == ExitCode.FAILED and len(run.stderr.splitlines()) == 1
    assert "401" in run.stderr and wrong not in run.stderr + run.stdout
