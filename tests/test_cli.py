"""``python -m lab serve``, ``index`` and ``sync`` work end to end against the served simulator."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest
import requests

from lab.cli import DEFAULT_SERVE_TOKEN, ExitCode, main
from lab.clock import WallClock
from lab.simulator.server import serve_in_background
from lab.index import IndexStore
from lab.simulator import default_token, derived_token
from lab.simulator.workspaces import bakery_simulator


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def served():
    sim = bakery_simulator(seed=0, clock=WallClock(), tokens={"indexador": DEFAULT_SERVE_TOKEN})
    with serve_in_background(sim) as server:
        yield server


@pytest.mark.slow
def test_index_then_sync_against_the_served_simulator(served, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("NOTION_TOKEN", DEFAULT_SERVE_TOKEN)
    db = tmp_path / "kb.sqlite"
    assert main(["index", "--base-url", served.base_url, "--db", str(db), "--rate", "50"]) == 0
    out = capsys.readouterr().out
    assert "done: full run, 71 requests" in out and "315 chunks in the index" in out and "[ 40]" in out
    assert DEFAULT_SERVE_TOKEN not in out
    assert IndexStore(db).count_chunks() == 315  # the count lesson 03 reports
    assert main(["sync", "--base-url", served.base_url, "--db", str(db)]) == 0
    assert "done: incremental run, 2 requests" in capsys.readouterr().out


def test_the_token_comes_from_the_environment_only(served, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.delenv("KB_TOKEN", raising=False)
    assert main(["index", "--base-url", served.base_url, "--db", str(tmp_path / "x.sqlite"),
                 "--token-env", "KB_TOKEN"]) == ExitCode.TOKEN
    assert "KB_TOKEN is not set" in capsys.readouterr().err
    monkeypatch.setenv("KB_TOKEN", "ntn_wrong_token")
    assert main(["index", "--base-url", served.base_url, "--db", str(tmp_path / "x.sqlite"),
                 "--token-env", "KB_TOKEN"]) == ExitCode.FAILED
    err = capsys.readouterr().err
    assert "401 unauthorized" in err and "is unchanged" in err and "ntn_wrong_token" not in err
    assert len(err.splitlines()) == 1 and not (tmp_path / "x.sqlite").exists()  # no empty index left behind


@pytest.mark.slow
def test_serve_prints_its_url_answers_and_stops_cleanly_on_sigterm() -> None:
    port = free_port()
    # the token from the environment (--token-env), so that it is not in the process list
    process = subprocess.Popen([sys.executable, "-m", "lab", "serve", "--port", str(port), "--token-env", "SIM_TOKEN"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=os.environ | {"SIM_TOKEN": "ntn_secret_x"})
    assert "ntn_secret_x" not in " ".join(process.args)
    try:
        first = "".join(process.stdout.readline() for _ in range(4))  # address, two integrations, usage
        assert f"http://127.0.0.1:{port}" in first
        assert "derived_token(<your --token>, 'lote-nocturno')" in first  # the banner says how to get each token
        deadline = time.monotonic() + 10
        while True:
            try:
                me = requests.get(f"http://127.0.0.1:{port}/v1/users/me", timeout=5,
                                  headers={"Authorization": "Bearer ntn_secret_x", "Notion-Version": "2026-03-11"})
                break
            except requests.ConnectionError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert me.status_code == 200 and me.json()["type"] == "bot"
        guessed, derived = default_token("lote-nocturno", 0), derived_token("ntn_secret_x", "lote-nocturno")
        for token, status in ((guessed, 401), (derived, 200)):
            batch = requests.get(f"http://127.0.0.1:{port}/v1/users/me", timeout=5,
                                 headers={"Authorization": f"Bearer {token}", "Notion-Version": "2026-03-11"})
            assert batch.status_code == status  # the other integration's token derives from --token, not the seed
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "simulator stopped" in out and "ntn_secret_x" not in first + out
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))  # the port is free again


def test_every_lab_error_derives_from_one_root_so_the_cli_catches_them_all() -> None:
    import importlib
    import inspect
    import pkgutil

    import lab
    from lab.errors import LabError

    roots = []
    for info in pkgutil.walk_packages(lab.__path__, "lab."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if (inspect.isclass(obj) and issubclass(obj, Exception) and obj.__module__ == info.name
                    and not name.startswith("_") and name != "WordCollision"):
                roots.append(obj)
    strays = [f"{cls.__module__}.{cls.__name__}" for cls in roots if not issubclass(cls, LabError)]
    assert roots and not strays, f"errors outside LabError: {strays}"


@pytest.mark.slow
def test_index_reads_a_data_source_past_the_result_limit_in_windows_and_says_so(served, tmp_path, monkeypatch,
                                                                                  capsys) -> None:
    from lab.simulator import simulator as simulator_module

    monkeypatch.setenv("NOTION_TOKEN", DEFAULT_SERVE_TOKEN)
    monkeypatch.setattr(simulator_module, "QUERY_RESULT_LIMIT", 30)  # the bakery's 40 rows stand for 10,000+
    assert main(["index", "--base-url", served.base_url, "--db", str(tmp_path / "kb.sqlite"), "--rate", "50"]) == 0
    out = capsys.readouterr().out
    assert "the data source was read in 2 queries from a creation time on" in out and "315 chunks in the index" in out


@pytest.mark.slow
def test_version_names_the_command_that_was_run(capsys) -> None:
    import lab

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out == f"notion-lab {lab.__version__}\n"
    run = subprocess.run([sys.executable, "-m", "lab", "--version"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout == f"python -m lab {lab.__version__}\n"


def test_the_command_line_names_the_searchs_recipes_and_threshold_as_the_library_does() -> None:
    from lab.answering import ANSWER_THRESHOLD
    from lab.cli import asking, indexer
    from lab.retrieval import RECIPES
    from lab.retrieval.index_search import DEFAULT_RECIPE

    assert indexer.RECIPE_NAMES == tuple(sorted(RECIPES)) and indexer.DEFAULT_RECIPE == DEFAULT_RECIPE
    assert asking.ANSWER_THRESHOLD == ANSWER_THRESHOLD
    from lab.chunking import MARKERS_BY_LANGUAGE

    assert indexer.LANGUAGES == tuple(sorted(MARKERS_BY_LANGUAGE))


def test_a_command_that_fails_on_its_arguments_does_not_load_the_search_or_pandas() -> None:
    """Parsing and checking the command line is cheap: the search, the model and pandas load only for work."""
    code = ("import sys\nfrom lab.cli import main\n"
            "try:\n    main(['index', '--db', 'x.sqlite', '--rate', 'nan'])\nexcept SystemExit as exit:\n"
            "    print(exit.code, sorted(m for m in ('pandas', 'lab.retrieval', 'lab.answering', 'numba') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == [f"{int(ExitCode.USAGE)} []"], done.stdout + done.stderr
