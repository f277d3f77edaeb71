"""The simulator as a test double: ``ServedNotion`` serves a workspace on a free port with a fresh
token, switches limits and faults, and the ``notion_simulator`` pytest fixture (registered by
installing the lab) gives a test its own, configured by a marker or the ini file."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from notion_client import Client
from notion_client.errors import HTTPResponseError

from lab.errors import LabError
from lab.simulator.spec import WorkspaceSpecError
from lab.testing import ServedNotion, served_notion

pytest_plugins = ["pytester"]

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "python"
HEADERS = {"Notion-Version": "2026-03-11"}


def _me(served: ServedNotion, token: str) -> requests.Response:
    return requests.get(f"{served.base_url}/v1/users/me", headers={**HEADERS, "Authorization": f"Bearer {token}"},
                        timeout=5)


def test_each_served_workspace_gets_its_own_port_and_a_fresh_token_never_shown() -> None:
    with served_notion() as first, served_notion() as second:
        assert first.base_url != second.base_url and first.token != second.token
        assert _me(first, first.token).json()["bot"]["workspace_name"] == "Trigo Lento"  # the bakery by default
        assert _me(first, second.token).status_code == 401
        assert first.token not in repr(first) and first.token_for("lote-nocturno") != first.token
    with socket.socket() as probe:  # stopped at the end of the with: the port is free again
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", int(first.base_url.rsplit(":", 1)[1])))


def test_a_spec_file_is_served_to_the_official_sdk_with_its_sharing() -> None:
    with served_notion(EXAMPLE / "notion_workspace.json") as served:
        notion = Client(auth=served.token, base_url=served.base_url)
        titles = {row["properties"]["Name"]["title"][0]["plain_text"]
                  for row in notion.data_sources.query(data_source_id=served.data_source_id("help-center"))["results"]}
        assert "Refunds" in titles and "Draft: switching carriers" in titles
        assert not notion.search(query="Salaries")["results"]  # not shared with the support bot
        finance = Client(auth=served.token_for("finance-bot"), base_url=served.base_url)
        assert [p["id"] for p in finance.search(query="Salaries")["results"]] == [served.page_id("salaries")]


def test_limits_and_faults_switch_from_the_next_request_and_limited_restores_them() -> None:
    with served_notion() as served:
        with served.limited(p_overload=1.0) as limits:
            assert limits.p_overload == 1.0 and _me(served, served.token).status_code == 529
        assert served.limits.p_overload == 0.0 and _me(served, served.token).status_code == 200
        served.set_limits(connection_budget=1, window_seconds=30)
        refused = _me(served, served.token)
        assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 30
        assert [r.status for r in served.requests] == [529, 200, 429]
        with pytest.raises(LabError, match="unknown limit option.*'p_overload'"):
            served.set_limits(p_overloads=1.0)


def test_the_official_sdk_sees_a_529_it_does_not_retry() -> None:
    with served_notion(seed=3) as served, served.limited(p_overload=1.0):
        with pytest.raises(HTTPResponseError) as overloaded:
            Client(auth=served.token, base_url=served.base_url).users.me()
    assert overloaded.value.status == 529


def test_a_bad_spec_stops_before_anything_is_served(tmp_path: Path) -> None:
    spec = tmp_path / "mine.json"
    spec.write_text('{"name": "x", "users": [{"key": "a", "name": "A"}], "integrations": []}', encoding="utf-8")
    with pytest.raises(WorkspaceSpecError, match="mine.json: integrations: should be a list of objects with at "
                                                 "least one"):
        ServedNotion(spec)


@pytest.mark.slow
def test_the_fixture_serves_the_workspace_the_ini_file_names(pytester: pytest.Pytester) -> None:
    shutil.copy(EXAMPLE / "notion_workspace.json", pytester.path / "workspace.json")
    pytester.makeini("[pytest]\nnotion_workspace = workspace.json\n")
    pytester.makepyfile("""
        import requests

        def test_served(notion_simulator):
            me = requests.get(notion_simulator.base_url + "/v1/users/me", timeout=5, headers={
                "Authorization": "Bearer " + notion_simulator.token, "Notion-Version": "2026-03-11"})
            assert me.json()["bot"]["workspace_name"] == "Acme Support"
            assert notion_simulator.limits.plan == "free"
    """)
    pytester.runpytest("-p", "no:nbval", "--strict-markers").assert_outcomes(passed=1)


@pytest.mark.slow
def test_a_marker_sets_the_workspace_seed_and_limits_of_one_test(pytester: pytest.Pytester) -> None:
    shutil.copy(EXAMPLE / "notion_workspace.json", pytester.path / "workspace.json")
    pytester.makepyfile("""
        import pytest

        @pytest.mark.notion_simulator(workspace="workspace.json", plan="business", seed=4, p_workspace=0.5)
        def test_marked(notion_simulator):
            assert notion_simulator.workspace.name == "Acme Support"
            assert notion_simulator.limits.budget == 600 and notion_simulator.limits.p_workspace == 0.5
            assert notion_simulator.simulator.seed == 4

        @pytest.mark.notion_simulator(workspace={"name": "Inline", "users": [{"key": "a", "name": "A"}],
                                                 "integrations": [{"key": "bot", "name": "Bot"}]})
        def test_inline(notion_simulator):
            assert notion_simulator.workspace.name == "Inline" and notion_simulator.integration == "bot"

        def test_unmarked(notion_simulator):
            assert notion_simulator.workspace.name == "Trigo Lento"

        @pytest.mark.notion_simulator(plan="gold")
        def test_bad_plan(notion_simulator):
            pass
    """)
    result = pytester.runpytest("-p", "no:nbval", "--strict-markers")
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines(["*unknown plan 'gold'*"])


@pytest.mark.slow
def test_pytest_lists_the_marker(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--markers", "-p", "no:nbval")
    assert "@pytest.mark.notion_simulator(workspace=None, seed=0, **limits)" in result.stdout.str()


@pytest.mark.slow
def test_serve_from_the_command_line_serves_a_spec_file() -> None:
    process = subprocess.Popen([sys.executable, "-m", "lab", "serve", "--port", "0", "--workspace",
                                str(EXAMPLE / "notion_workspace.json")], stdout=subprocess.PIPE, text=True)
    try:
        banner = process.stdout.readline()
        assert "Notion API simulator for 'Acme Support' at http://127.0.0.1:" in banner
        base_url = banner.split(" at ")[1].split()[0]
        tokens = process.stdout.readline() + process.stdout.readline()  # one line per integration
        assert "integration 'Support bot' (support-bot): token ntn_lab_local_simulator_token" in tokens
        deadline = time.monotonic() + 10
        while True:
            try:
                me = Client(auth="ntn_lab_local_simulator_token", base_url=base_url).users.me()
                break
            except Exception:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert me["name"] == "Support bot"
    finally:
        process.terminate()
        process.wait(timeout=15)
    bad = subprocess.run([sys.executable, "-m", "lab", "serve", "--workspace", "missing.json"], capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.startswith("error: no workspace spec at missing.json")



JAVASCRIPT = EXAMPLE.parent / "javascript"
# @notionhq/client 5.26.0, and 2.3.0 (which sends Notion-Version 2022-06-28) under an npm alias
JAVASCRIPT_PACKAGES = ("@notionhq/client", "notionhq-client-2")


def _need_node() -> None:
    """The JavaScript example needs Node.js and its locked packages; CI installs them (``.ci/run``) and sets
    ``LAB_REQUIRE_NODE=1``, which turns their absence into a failure; elsewhere the test says why it cannot run."""
    missing = ("Node.js" if shutil.which("node") is None
               else "`npm ci` in docs/examples/javascript"
               if not all((JAVASCRIPT / "node_modules" / package).is_dir() for package in JAVASCRIPT_PACKAGES)
               else "")
    if missing and os.environ.get("LAB_REQUIRE_NODE") == "1":
        pytest.fail(f"LAB_REQUIRE_NODE=1 but the JavaScript example lacks {missing}")
    if missing:
        pytest.skip(f"the JavaScript example needs {missing}")


@pytest.mark.slow
def test_the_javascript_example_passes_against_the_served_simulator() -> None:
    _need_node()
    script = Path(sys.executable).with_name("notion-lab")  # the console script of this environment
    run = subprocess.run(["node", "--test"], cwd=JAVASCRIPT, capture_output=True, text=True, timeout=180,
                         env={**os.environ, "NOTION_LAB": str(script)})
    # 3 tests of the help-center reader with @notionhq/client 5.26.0, 4 of the same calls with 2.3.0 at 2022-06-28
    assert run.returncode == 0 and "# pass 7" in run.stdout, run.stdout[-3000:] + run.stderr[-3000:]
