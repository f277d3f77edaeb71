"""A PostgreSQL URL's password is never shown, however the URL is written: a password with an unencoded
'/', '?' or '#' (which moves the '@' out of the address), a '#' after a password parameter, a scheme in
capitals. None of these needs a server: each is refused, or fails to connect, before one is reached."""

from __future__ import annotations

import pytest

from lab.cli import ExitCode, main
from lab.index.postgres import PostgresTarget, is_postgres_url

SECRET = "S3cretPass"
CUT = [f"postgresql://lab:{SECRET[:3]}/{SECRET[3:]}@127.0.0.1:1/kb",  # a '/' in the password
       f"postgresql://lab:{SECRET[:3]}#{SECRET[3:]}@127.0.0.1:1/kb",  # a '#'
       f"postgresql://lab:{SECRET[:3]}?{SECRET[3:]}@127.0.0.1:1/kb",  # a '?'
       f"postgresql://lab@127.0.0.1:1/kb?password={SECRET[:3]}#{SECRET[3:]}"]  # a '#' in the parameter


@pytest.mark.parametrize("url", CUT)
def test_shown_hides_a_password_whose_end_an_unencoded_character_hides(url: str) -> None:
    shown = PostgresTarget.shown(url)
    assert SECRET[:3] not in shown and SECRET[3:] not in shown and shown.endswith(("127.0.0.1:1/kb", "/kb"))


@pytest.mark.parametrize("command", [["search", "horario"], ["index"]])
@pytest.mark.parametrize("url", CUT)
def test_the_command_line_refuses_such_a_url_in_one_line_without_any_of_it(url, command, capsys, monkeypatch,
                                                                           tmp_path) -> None:
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("NOTION_TOKEN", "ntn_postgres_url_token")
    monkeypatch.chdir(tmp_path)
    code = main([command[0], "--db", url, *command[1:]])
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert code == ExitCode.DATABASE and captured.err.count("\n") == 1 and "percent-encode" in captured.err
    assert SECRET[:3] not in out and SECRET[3:] not in out and "Traceback" not in out
    assert not list(tmp_path.iterdir())  # nothing was created


def test_a_scheme_in_capitals_is_a_postgresql_url_not_a_file_named_with_the_password(capsys, monkeypatch,
                                                                                   tmp_path) -> None:
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.chdir(tmp_path)
    url = f"POSTGRESQL://lab:{SECRET}@127.0.0.1:1/kb"
    assert is_postgres_url(url) and is_postgres_url("Postgres://x@h/db") and not is_postgres_url("kb.sqlite")
    code = main(["search", "--db", url, "horario"])
    captured = capsys.readouterr()
    assert code == ExitCode.DATABASE and SECRET not in captured.out + captured.err
    assert not list(tmp_path.iterdir())  # no folder "POSTGRESQL:" holding the password in its name
