"""Every way ``python -m lab`` can fail ends in one line on stderr that names the file, the cause
and the fix, with its own exit code, and leaves the index as it was. Each case runs the real
command in a subprocess, as a user would."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lab.cli import ExitCode, main
from lab.clock import WallClock
from lab.course.paths import REPO_ROOT
from lab.index import IndexStore
from lab.simulator import LimitsConfig
from lab.simulator.server import serve_in_background
from lab.simulator.workspaces import bakery_simulator
from tests.unprivileged import run_refusable

TOKEN = "ntn_cli_failures_token"
ROOMY = LimitsConfig(connection_budget=100_000, workspace_budget=100_000)


@pytest.fixture(scope="module")
def served():
    sim = bakery_simulator(seed=0, clock=WallClock(), limits=ROOMY, tokens={"indexador": TOKEN})
    with serve_in_background(sim) as server:
        yield server


@pytest.fixture(scope="module")
def built_index(served, tmp_path_factory) -> Path:
    """A complete index of the bakery, built once; tests work on copies."""
    db = tmp_path_factory.mktemp("built") / "kb.sqlite"
    done = cli("index", "--base-url", served.base_url, "--db", str(db), "--rate", "1000")
    assert done.returncode == 0, done.stderr
    return db


def cli(*args: str, token: str | None = TOKEN, timeout: float = 120) -> subprocess.CompletedProcess:
    """The command as a user runs it, file permissions applying even when the tests run as root."""
    env = {k: v for k, v in os.environ.items() if k != "NOTION_TOKEN"}
    if token is not None:
        env["NOTION_TOKEN"] = token
    return run_refusable([sys.executable, "-m", "lab", *args], cwd=REPO_ROOT, env=env, capture_output=True,
                         text=True, timeout=timeout)


def one_line(run: subprocess.CompletedProcess, code: int, *fragments: str) -> str:
    """The failure's stderr: exactly one line, no traceback, holding each fragment."""
    assert run.returncode == code, (run.returncode, run.stderr)
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def published(path: Path) -> list[str]:
    """The index as searches and syncs see it: the whole file but the pages an unfinished index kept."""
    return [line for line in IndexStore(path).dump().splitlines() if "staged_pages" not in line]


def copy_of(index: Path, folder: Path) -> Path:
    target = folder / "copy.sqlite"
    shutil.copyfile(index, target)
    return target


# ---------------------------------------------------------------------- the database file


@pytest.mark.slow
def test_a_folder_given_as_the_database_is_refused(served, tmp_path) -> None:
    run = cli("index", "--base-url", served.base_url, "--db", str(tmp_path))
    one_line(run, ExitCode.DATABASE, str(tmp_path), "is a folder", "kb.sqlite")


@pytest.mark.slow
def test_a_file_of_random_bytes_is_refused_and_left_alone(served, tmp_path) -> None:
    db = tmp_path / "noise.sqlite"
    db.write_bytes(bytes(range(256)) * 20)
    before = digest(db)
    run = cli("sync", "--base-url", served.base_url, "--db", str(db))
    one_line(run, ExitCode.DATABASE, str(db), "not a SQLite file")
    assert digest(db) == before


@pytest.mark.slow
def test_a_truncated_index_is_refused_as_damaged_and_left_alone(served, built_index, tmp_path) -> None:
    db = tmp_path / "cut.sqlite"
    db.write_bytes(built_index.read_bytes()[: built_index.stat().st_size // 3])
    before = digest(db)
    run = cli("sync", "--base-url", served.base_url, "--db", str(db))
    one_line(run, ExitCode.DATABASE, str(db), "damaged", "move it aside", f"python -m lab index --db {db}")
    assert digest(db) == before


@pytest.mark.slow
def test_a_sqlite_file_that_is_not_a_lab_index_is_refused(served, tmp_path) -> None:
    import sqlite3

    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as other:
        other.execute("CREATE TABLE notes (x)")
    run = cli("index", "--base-url", served.base_url, "--db", str(db))
    one_line(run, ExitCode.DATABASE, str(db), "not a lab index")


@pytest.mark.slow
def test_a_read_only_index_is_refused_before_any_request(served, built_index, tmp_path) -> None:
    db = copy_of(built_index, tmp_path)
    db.chmod(0o444)
    before = len(served.simulator.served)
    run = cli("sync", "--base-url", served.base_url, "--db", str(db))
    one_line(run, ExitCode.DATABASE, str(db), "cannot be written")
    assert len(served.simulator.served) == before  # found out before asking Notion anything


@pytest.mark.slow
@pytest.mark.parametrize("command", ["index", "sync", "search", "ask"])
def test_an_index_inside_a_folder_the_user_may_not_enter_is_the_database_exit_code(served, tmp_path, command) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    db = locked / "kb.sqlite"
    IndexStore(db).close()
    locked.chmod(0o000)
    try:
        where = ["--base-url", served.base_url] if command in ("index", "sync") else ["what time do you open?"]
        run = cli(command, "--db", str(db), *where)
    finally:
        locked.chmod(0o700)
    one_line(run, ExitCode.DATABASE, str(db), "Permission denied", "give the run read and write access")


@pytest.mark.slow
def test_a_database_path_under_a_file_is_the_database_exit_code(served, tmp_path) -> None:
    plain = tmp_path / "notes.txt"
    plain.write_text("a file, not a folder\n", encoding="utf-8")
    run = cli("index", "--base-url", served.base_url, "--db", str(plain / "kb.sqlite"))
    one_line(run, ExitCode.DATABASE, str(plain / "kb.sqlite"))
    assert plain.read_text(encoding="utf-8") == "a file, not a folder\n"


@pytest.mark.slow
@pytest.mark.parametrize("path", ["", ":memory:", "  "])
def test_an_in_memory_or_empty_database_path_is_refused(served, path) -> None:
    run = cli("index", "--base-url", served.base_url, "--db", path)
    one_line(run, ExitCode.DATABASE, "in memory", "give a file path")


# ---------------------------------------------------------------------- the token


@pytest.mark.slow
def test_a_token_with_a_line_break_is_refused_without_echoing_it(served, tmp_path) -> None:
    run = cli("index", "--base-url", served.base_url, "--db", str(tmp_path / "kb.sqlite"), token="ntn_SECRET1\nSECRET2")
    one_line(run, ExitCode.TOKEN, "NOTION_TOKEN", "line break")
    assert "SECRET" not in run.stderr + run.stdout and not (tmp_path / "kb.sqlite").exists()


@pytest.mark.parametrize("token", ["ntn_SECRET1 SECRET2", "ntn_SECRET1\x1b[2J", "ntn_SECRÉT1", " "],
                         ids=["space", "escape", "non-ASCII", "blank"])
def test_a_token_that_cannot_be_a_notion_token_is_refused_in_one_line(served, tmp_path, monkeypatch, capsys,
                                                                       token) -> None:
    monkeypatch.setenv("NOTION_TOKEN", token)
    assert main(["index", "--base-url", served.base_url, "--db", str(tmp_path / "kb.sqlite")]) == ExitCode.TOKEN
    out, err = capsys.readouterr()
    assert len(err.splitlines()) == 1 and "NOTION_TOKEN" in err and "SECR" not in out + err


@pytest.mark.slow
def test_a_missing_token_says_where_to_put_it(served, tmp_path) -> None:
    run = cli("index", "--base-url", served.base_url, "--db", str(tmp_path / "kb.sqlite"), token=None)
    one_line(run, ExitCode.TOKEN, "NOTION_TOKEN is not set", "export")


# ---------------------------------------------------------------------- numeric options


@pytest.mark.slow
@pytest.mark.parametrize("args", [["index", "--rate", "nan"], ["serve", "--window-seconds", "nan"],
                                  ["serve", "--port", "99999"]], ids=" ".join)
def test_nan_rates_and_windows_and_impossible_ports_are_one_line(tmp_path, args) -> None:
    command, *option = args
    extra = ["--db", str(tmp_path / "kb.sqlite")] if command != "serve" else []
    one_line(cli(command, *option, *extra), ExitCode.USAGE, option[0], "--help")


@pytest.mark.parametrize("args", [
    ["index", "--rate", "inf"], ["index", "--rate", "0"], ["index", "--rate", "-3"], ["sync", "--max-wait", "nan"],
    ["sync", "--max-wait", "0"], ["serve", "--window-seconds", "inf"], ["serve", "--window-seconds", "-1"],
    ["serve", "--port", "-1"], ["serve", "--port", "http"], ["serve", "--p-overload", "2"],
    ["serve", "--p-workspace", "nan"], ["serve", "--idle-timeout", "0"], ["serve", "--seed", "1e3"],
    ["sync", "--data-source", ""], ["index", "--title", " "], ["index", "--token-env", ""], ["audit", "--token-env", " "],
], ids=" ".join)
def test_options_reject_inf_out_of_range_and_blank_values_in_one_line(tmp_path, capsys, args) -> None:
    command, *option = args
    extra = ["--db", str(tmp_path / "kb.sqlite")] if command not in ("serve", "audit") else []
    with pytest.raises(SystemExit) as exited:
        main([command, *option, *extra])
    assert exited.value.code == ExitCode.USAGE
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and option[0] in err and "--help" in err


@pytest.mark.parametrize("url", ["not a url", "ftp://127.0.0.1:8787", "http://127.0.0.1:99999", "http://[::1",
                                 "https://"])
def test_a_base_url_that_is_not_an_http_address_is_refused_naming_the_option(tmp_path, capsys, url) -> None:
    for command in ("index", "sync", "audit"):
        with pytest.raises(SystemExit) as exited:
            main([command, "--base-url", url, *(["--db", str(tmp_path / "kb.sqlite")] if command != "audit" else [])])
        assert exited.value.code == ExitCode.USAGE
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and "--base-url" in err and "http://127.0.0.1:8787" in err
    assert not (tmp_path / "kb.sqlite").exists()


def test_a_base_url_with_a_password_is_refused_without_printing_it(tmp_path, capsys) -> None:
    # it would otherwise be printed in the line that starts the run and in every network error
    for url in ("http://indexer:pw_in_the_url@127.0.0.1:1", "https://pw_in_the_url@api.notion.com",
                "http://127.0.0.1:1/?token=pw_in_the_url", "https://api.notion.com/#pw_in_the_url"):
        with pytest.raises(SystemExit) as exited:
            main(["index", "--base-url", url, "--db", str(tmp_path / "kb.sqlite")])
        assert exited.value.code == ExitCode.USAGE
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and "pw_in_the_url" not in err
        assert ("password" in err) == ("@" in url) and ("query" in err) == ("@" not in url)


@pytest.mark.slow
def test_a_port_in_use_is_one_line_with_its_own_code(served) -> None:
    port = str(served.server_address[1])
    run = cli("serve", "--port", port)
    one_line(run, ExitCode.LISTEN, f"cannot listen on 127.0.0.1:{port}", "--port")


# ---------------------------------------------------------------------- during a run


@pytest.mark.slow
def test_a_server_that_asks_for_an_hour_fails_at_once_instead_of_sleeping(tmp_path) -> None:
    hour = LimitsConfig(p_workspace=1.0, workspace_retry_after=(3598, 3598))
    sim = bakery_simulator(seed=0, clock=WallClock(), limits=hour, tokens={"indexador": TOKEN})
    db = tmp_path / "kb.sqlite"
    with serve_in_background(sim) as server:
        run = cli("index", "--base-url", server.base_url, "--db", str(db), timeout=60)
    one_line(run, ExitCode.WAIT, "3598 s", "--max-wait 300", "is unchanged")
    assert len(sim.served) == 1 and not db.exists()


@pytest.mark.slow
def test_each_long_wait_is_announced_with_its_reason(tmp_path) -> None:
    busy = LimitsConfig(p_workspace=0.02, workspace_retry_after=(1, 1), connection_budget=100_000,
                        workspace_budget=100_000)
    sim = bakery_simulator(seed=9, clock=WallClock(), limits=busy, tokens={"indexador": TOKEN})
    with serve_in_background(sim) as server:
        run = cli("index", "--base-url", server.base_url, "--db", str(tmp_path / "kb.sqlite"), "--rate", "1000")
    assert run.returncode == 0, run.stderr
    waits = [line for line in run.stdout.splitlines() if line.strip().startswith("waiting")]
    assert waits and len(waits) == int((sim.served_frame()["status"] == 429).sum())
    assert "the server answered 429 (rate limited); it asked for Retry-After 1 s" in waits[0]


@pytest.mark.slow
def test_sync_with_another_title_than_the_index_follows_is_refused(served, built_index, tmp_path) -> None:
    db = copy_of(built_index, tmp_path)
    before = digest(db)
    run = cli("sync", "--base-url", served.base_url, "--db", str(db), "--title", "Recetas")
    one_line(run, ExitCode.USAGE, "'Base de conocimiento'", "--title 'Recetas'", "new --db")
    assert digest(db) == before


@pytest.mark.slow
def test_ctrl_c_during_a_run_says_the_index_is_unchanged_and_leaves_it_so(served, built_index, tmp_path) -> None:
    db = copy_of(built_index, tmp_path)
    before = published(db)
    env = {**os.environ, "NOTION_TOKEN": TOKEN}
    process = subprocess.Popen([sys.executable, "-m", "lab", "index", "--base-url", served.base_url, "--db", str(db),
                                "--rate", "20"], cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        for line in process.stdout:
            if "[  2]" in line:  # pages are being read
                process.send_signal(signal.SIGINT)
                break
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == ExitCode.INTERRUPTED
    line, = err.splitlines()
    assert line.startswith(f"interrupted: the index is unchanged ({db})")
    assert published(db) == before  # the pages read so far wait outside it, for the next run to resume from


@pytest.mark.slow
def test_every_exit_code_is_listed_in_the_help() -> None:
    run = cli("--help")
    assert run.returncode == 0
    assert all(f"{code.value} {code.name.lower()}" in " ".join(run.stdout.split()) for code in ExitCode)


@pytest.mark.parametrize("token", ["ntn_SECRET1\nSECRET2", "ntn_SECRET1 SECRET2", ""],
                         ids=["newline", "space", "empty"])
def test_serve_refuses_a_token_with_whitespace_or_control_characters_without_echoing_it(capsys, token) -> None:
    assert main(["serve", "--port", "0", "--token", token]) == ExitCode.TOKEN
    out, err = capsys.readouterr()
    assert len(err.splitlines()) == 1 and "--token" in err and "SECRET" not in out + err


# ---------------------------------------------------------------------- two runs on one index


def test_a_second_sync_waits_for_the_first_and_gives_up_after_lock_wait_leaving_the_index_as_it_was(
        served, built_index, tmp_path, monkeypatch, capsys) -> None:
    from lab.file_lock import exclusive_lock

    db = copy_of(built_index, tmp_path)
    before = digest(db)
    monkeypatch.setenv("NOTION_TOKEN", TOKEN)
    with exclusive_lock(db):  # what the first run holds for as long as it runs
        code = main(["sync", "--base-url", served.base_url, "--db", str(db), "--rate", "1000", "--lock-wait", "0.2"])
    captured = capsys.readouterr()
    assert code == ExitCode.BUSY and len(captured.err.splitlines()) == 1, captured.err
    assert f"another index or sync of {db} was still running after --lock-wait 0.2 s" in captured.err
    assert captured.out.startswith(f"waiting for another index or sync of {db} to end (up to 0.2 s")
    assert digest(db) == before


@pytest.mark.slow
def test_a_second_run_on_a_new_index_path_waits_its_turn_and_then_syncs(served, tmp_path, monkeypatch,
                                                                          capsys) -> None:
    import threading

    from lab.file_lock import exclusive_lock

    db = tmp_path / "new.sqlite"
    monkeypatch.setenv("NOTION_TOKEN", TOKEN)
    held, release = threading.Event(), threading.Event()

    def first_run() -> None:
        with exclusive_lock(db):
            held.set()
            release.wait(30)

    holder = threading.Thread(target=first_run)
    holder.start()
    held.wait(30)
    threading.Timer(0.3, release.set).start()
    code = main(["sync", "--base-url", served.base_url, "--db", str(db), "--rate", "1000", "--recipe", "lexical",
                 "--lock-wait", "30"])
    holder.join()
    captured = capsys.readouterr()
    assert code == ExitCode.OK, captured.err
    assert captured.out.startswith("waiting for another index or sync") and "done: full run" in captured.out
