"""The index in PostgreSQL: workspaces side by side in one database, refusals as clear as SQLite's, and
failures to connect said in one line without the password."""

from __future__ import annotations

import pytest

from lab.cli import ExitCode, main
from lab.index import SCHEMA_VERSION, IndexOpenError, IndexStore, SchemaVersionError

pytestmark = pytest.mark.usefixtures("postgres_cluster")


def connect(url: str):
    import psycopg  # only where the cluster started: psycopg is there

    return psycopg.connect(url)


def in_workspace(url: str, workspace: str) -> str:
    return f"{url}&workspace={workspace}"


def test_two_workspaces_in_one_database_keep_their_own_watermarks_and_pages(postgres_url) -> None:
    bakery, school = IndexStore(in_workspace(postgres_url, "bakery")), IndexStore(in_workspace(postgres_url, "school"))
    bakery.set_watermark("notion", "2026-04-09T17:00:00.000Z")
    bakery.bump_generation()
    assert school.watermark("notion") is None and school.generation() == 0 and bakery.generation() == 1
    assert IndexStore(postgres_url).watermark("notion") is None  # the default workspace is a third one
    with connect(postgres_url) as db:
        schemas = {row[0] for row in db.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'lab_%'")}
    assert schemas == {"lab_bakery", "lab_school", "lab_default"}


def test_a_workspace_from_another_schema_version_is_refused_untouched(postgres_url) -> None:
    IndexStore(postgres_url).close()
    with connect(postgres_url) as db:
        db.execute("UPDATE lab_default.meta SET value = '0' WHERE key = 'schema_version'")
    with pytest.raises(SchemaVersionError, match=f"schema version 0; this lab reads version {SCHEMA_VERSION}"):
        IndexStore(postgres_url)
    with connect(postgres_url) as db:
        assert db.execute("SELECT value FROM lab_default.meta WHERE key = 'schema_version'").fetchone() == ("0",)


def test_a_schema_another_program_wrote_is_refused(postgres_url) -> None:
    with connect(postgres_url) as db:
        db.execute("CREATE SCHEMA lab_invoices")
        db.execute("CREATE TABLE lab_invoices.invoices (id INTEGER)")
    with pytest.raises(SchemaVersionError, match="PostgreSQL schema with tables but not a lab index"):
        IndexStore(in_workspace(postgres_url, "invoices"))


def test_a_workspace_name_that_is_not_a_plain_word_is_refused(postgres_url) -> None:
    with pytest.raises(IndexOpenError, match="workspace 'a;b'"):
        IndexStore(in_workspace(postgres_url, "a;b"))


def test_the_command_line_says_in_one_line_why_it_cannot_reach_the_server_and_never_prints_the_password(
        capsys, monkeypatch) -> None:
    monkeypatch.delenv("PGPASSWORD", raising=False)
    code = main(["search", "--db", "postgresql://lab:s3cret-pw@127.0.0.1:1/kb", "horario"])
    err = capsys.readouterr().err
    assert code == ExitCode.DATABASE and err.count("\n") == 1
    assert "cannot be reached" in err and "s3cret-pw" not in err and "Traceback" not in err


@pytest.mark.parametrize("command", [["search", "horario"], ["index"], ["ingest-folder", "."]])
def test_a_postgresql_url_that_cannot_be_taken_apart_is_the_database_exit_code_without_the_url(command, capsys,
                                                                                               monkeypatch) -> None:
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("NOTION_TOKEN", "ntn_postgres_cli_token")
    url = "postgresql://lab:s3cret-pw@[::1/kb"  # a bracket left open: no form of it without the password is known
    code = main([command[0], "--db", url, *command[1:]])
    err = capsys.readouterr().err
    assert code == ExitCode.DATABASE and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("error: --db is not a PostgreSQL URL") and "s3cret-pw" not in err


def test_the_command_line_names_wrong_credentials_and_a_missing_database(postgres_url, capsys) -> None:
    assert main(["search", "--db", postgres_url.replace("lab@", "intruder@"), "horario"]) == ExitCode.DATABASE
    assert "refused the credentials" in capsys.readouterr().err
    assert main(["search", "--db", postgres_url.replace("/test_", "/nothing_"), "horario"]) == ExitCode.DATABASE
    assert "names a database that does not exist" in capsys.readouterr().err


def test_a_workspace_name_with_a_final_line_break_is_refused_and_creates_no_schema(postgres_url) -> None:
    with pytest.raises(IndexOpenError, match=r"workspace 'probe\\n'"):
        IndexStore(f"{postgres_url}&workspace=probe%0A")
    with connect(postgres_url) as db:
        assert not db.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'lab_probe%'").fetchall()


PASSWORD = "pw-in-the-query-5ecret"


@pytest.fixture(scope="module")
def served():
    from lab.clock import WallClock
    from lab.simulator import LimitsConfig
    from lab.simulator.server import serve_in_background
    from lab.simulator.workspaces import bakery_simulator

    sim = bakery_simulator(seed=0, clock=WallClock(), limits=LimitsConfig(connection_budget=100_000,
                           workspace_budget=100_000), tokens={"indexador": "ntn_postgres_cli_token"})
    with serve_in_background(sim) as server:
        yield server


@pytest.mark.slow
@pytest.mark.parametrize("where", ["query", "address"])
def test_no_output_of_any_command_shows_a_password_given_in_the_url(postgres_url, served, tmp_path, capsys,
                                                                    monkeypatch, where) -> None:
    monkeypatch.setenv("NOTION_TOKEN", "ntn_postgres_cli_token")
    monkeypatch.delenv("PGPASSWORD", raising=False)
    if where == "query":
        url = f"{postgres_url}&password={PASSWORD}&workspace=w"
    else:
        url = f"{postgres_url.replace('lab@', f'lab:{PASSWORD}@')}&workspace=w"
    status = tmp_path / "status.json"
    source = ["--base-url", served.base_url, "--rate", "1000", "--recipe", "lexical"]
    runs = [["sync", "--db", url, *source, "--status-file", str(status)], ["sync", "--db", url, *source],
            ["index", "--db", url, *source], ["search", "--db", url, "horario"], ["search", "--db", url, "--json", "pan"],
            ["ask", "--db", url, "¿Abren el 1 de mayo?"],
            ["search", "--db", url.replace("/test_", "/nothing_"), "horario"],
            ["sync", "--db", url.replace("/test_", "/nothing_"), *source, "--status-file", str(status)]]
    codes = []
    for run in runs:
        codes.append(main(run))
        out = capsys.readouterr()
        shown = out.out + out.err + (status.read_text() if status.exists() else "")
        assert PASSWORD not in shown, (run[0], shown)
        assert "Traceback" not in shown
    assert codes == [0, 0, 0, 0, 0, 0, ExitCode.DATABASE, ExitCode.DATABASE]
