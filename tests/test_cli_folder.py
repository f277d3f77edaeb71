"""``notion-lab ingest-folder``: a folder of documents into the index of a knowledge base, refused files
skipped and named (exit code 8), ``--strict`` all or nothing, the files found by ``search`` beside the pages."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import pytest

from lab.cli import DEFAULT_SERVE_TOKEN, ExitCode, main
from lab.clock import WallClock
from lab.embedders import E5_MODEL
from lab.index import IndexStore
from lab.ingest import ingest_folder
from lab.simulator.server import serve_in_background
from lab.simulator.workspaces import bakery_simulator
from tests.fake_embedders import HashEmbedder

GOOD = {"turnos.md": "# Turnos de reparto\n\nLa furgoneta azul sale a las siete con el repartidor Anselmo.\n",
        "guias/horno.md": "# Horno de leña\n\nEl horno de leña del obrador se enciende a las cuatro y media.\n"}
PASSWORD = "pw-in-the-folder-5ecret"


class Hashed(HashEmbedder):
    """The tests' hash embedder, saying what its calls cost (nothing) as an ingestion run reads it."""

    def embed_documents(self, texts):
        return SimpleNamespace(vectors=super().embed_documents(texts).vectors, tokens=0)


class FastE5(Hashed):
    """A stand-in stored under e5's name, so that a test does not load the model; searches of a lexical index
    read no vector, and one test runs the real model."""

    name = E5_MODEL


@pytest.fixture
def fast_e5(monkeypatch) -> None:
    monkeypatch.setattr("lab.embedders.e5_embedder", lambda: FastE5())


@pytest.fixture(scope="module")
def served_bakery():
    from lab.simulator import LimitsConfig

    # budgets no test exhausts: the module indexes the bakery several times against this one server
    sim = bakery_simulator(seed=0, clock=WallClock(), tokens={"indexador": DEFAULT_SERVE_TOKEN},
                           limits=LimitsConfig(connection_budget=100_000, workspace_budget=100_000))
    with serve_in_background(sim) as server:
        yield server


def build_lexical(server, db: str) -> None:
    """The bakery's pages indexed with the lexical recipe (no model), into ``db``."""
    with mock.patch.dict(os.environ, {"NOTION_TOKEN": DEFAULT_SERVE_TOKEN}):
        assert main(["index", "--base-url", server.base_url, "--db", db, "--rate", "1000", "--recipe", "lexical"]) == 0


@pytest.fixture(scope="module")
def lexical_index(served_bakery, tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("folder") / "kb.sqlite"
    build_lexical(served_bakery, str(db))
    return db


@pytest.fixture
def db(lexical_index, tmp_path) -> Path:
    return Path(shutil.copy(lexical_index, tmp_path / "kb.sqlite"))


@pytest.fixture
def folder(tmp_path) -> Path:
    root = tmp_path / "docs"
    for path, text in GOOD.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root


def add_refused_files(folder: Path) -> None:
    """A PDF cut short and a web page nested 300 elements deep (the limit is 100)."""
    from lab.datasets.document_samples import pdf_bytes

    (folder / "guias" / "cut.pdf").write_bytes(pdf_bytes()[:1500])
    (folder / "deep.html").write_text("<main>" + "<div>" * 300 + "x" + "</div>" * 300 + "</main>", encoding="utf-8")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def best_titles(db: Path | str, questions: list[str], capsys, monkeypatch) -> list[str]:
    """The title of ``search``'s best hit for each question, asked in one process (the search is fitted once)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{question}\n" for question in questions)))
    code, out, _ = run(["search", "--db", str(db), "-k", "3", "--json"], capsys)
    assert code == ExitCode.OK
    return [json.loads(line)["hits"][0]["title"] for line in out.splitlines()]


@pytest.mark.slow
def test_refused_files_are_skipped_and_named_the_others_ingested_and_found_with_exit_code_8(db, folder, fast_e5,
                                                                                            capsys, monkeypatch) -> None:
    add_refused_files(folder)
    pages = IndexStore(db).count_chunks()
    code, out, err = run(["ingest-folder", str(folder), "--db", str(db)], capsys)
    assert code == ExitCode.SKIPPED == 8
    skipped = [line for line in err.splitlines() if line.startswith("skipped: ")]
    assert len(skipped) == 2 and "Traceback" not in err
    assert skipped[0].startswith("skipped: deep.html nests its elements more than 100 levels deep")
    assert skipped[1].startswith("skipped: guias/cut.pdf is not a PDF pdfminer can read")
    assert out.startswith("done: 4 files read, 2 cut, 2 skipped, 0 removed; chunks new 2, changed 0")
    assert "exit code 8" in out
    assert IndexStore(db).count_chunks() == pages + 2  # the pages stay beside the files
    assert best_titles(db, ["furgoneta azul Anselmo", "horno de leña obrador"], capsys, monkeypatch) == [
        "Turnos de reparto", "Horno de leña"]


def test_a_file_name_with_a_line_break_or_an_escape_sequence_is_named_on_one_line_escaped(db, folder, fast_e5,
                                                                                         capsys) -> None:
    (folder / "new\nline.md").write_bytes(b"\xff\xfe binary")
    (folder / "clear\x1b[2J.pdf").write_bytes(b"%PDF-1.4 cut short")  # the converter's message names it too
    code, _, err = run(["ingest-folder", str(folder), "--db", str(db)], capsys)
    assert code == ExitCode.SKIPPED
    skipped = [line for line in err.splitlines() if line.startswith("skipped: ")]
    assert len(skipped) == 2 and "\x1b" not in err and "line.md" not in err.replace(r"new\nline.md", "")
    assert skipped[0].startswith(r"skipped: clear\x1b[2J.pdf is not a PDF")
    assert skipped[1].startswith(r"skipped: new\nline.md is not UTF-8 text")
    code, _, err = run(["ingest-folder", str(folder), "--db", str(db), "--strict"], capsys)
    assert code == ExitCode.FAILED and "\x1b" not in err and len(err.splitlines()) == 2


def test_a_file_whose_chunks_e5_cannot_read_whole_is_skipped_and_named_not_the_whole_run_refused(db, folder,
                                                                                                 fast_e5,
                                                                                                 capsys,
                                                                                                 monkeypatch) -> None:
    monkeypatch.setattr(FastE5, "max_input_tokens", 512, raising=False)  # e5's own limit
    (folder / "rules.md").write_text("# Tabla\n\n" + "|---" * 400 + "|\n", encoding="utf-8")  # each sign a token
    code, out, err = run(["ingest-folder", str(folder), "--db", str(db)], capsys)
    assert code == ExitCode.SKIPPED and "Traceback" not in err
    skipped = [line for line in err.splitlines() if line.startswith("skipped: ")]
    assert skipped == [line for line in skipped if line.startswith("skipped: rules.md gives 1 chunk(s) longer than "
                                                                   "the 512 tokens")] and len(skipped) == 1
    assert out.startswith("done: 3 files read, 2 cut, 1 skipped")
    before = digest(db)
    code, out, err = run(["ingest-folder", str(folder), "--db", str(db), "--strict", "--force"], capsys)
    assert code == ExitCode.FAILED and out == "" and digest(db) == before
    assert "refused: rules.md gives 1 chunk(s)" in err


def test_a_file_holding_one_word_of_thousands_of_model_tokens_is_skipped_and_named(db, folder, fast_e5, capsys,
                                                                                   monkeypatch) -> None:
    from lab.embedders import e5_token_counter

    monkeypatch.setattr(FastE5, "max_input_tokens", 512, raising=False)
    monkeypatch.setattr(FastE5, "count_tokens", lambda self, text: e5_token_counter().count_tokens(text),
                        raising=False)  # counted as e5 counts it: the lab's count sees one word
    (folder / "blob.md").write_text("# Datos\n\n" + "QUJD" * 5_000 + "\n", encoding="utf-8")  # a pasted blob
    code, out, err = run(["ingest-folder", str(folder), "--db", str(db)], capsys)
    assert code == ExitCode.SKIPPED and "Traceback" not in err
    skipped = [line for line in err.splitlines() if line.startswith("skipped: ")]
    assert len(skipped) == 1 and skipped[0].startswith("skipped: blob.md gives ") and "longer than the 512" in skipped[0]
    assert out.startswith("done: 3 files read, 2 cut, 1 skipped")


def test_strict_ends_the_run_at_the_refused_file_and_leaves_the_index_byte_for_byte(db, folder, fast_e5,
                                                                                     capsys) -> None:
    add_refused_files(folder)
    before = digest(db)
    code, out, err = run(["ingest-folder", str(folder), "--db", str(db), "--strict"], capsys)
    assert code == ExitCode.FAILED and out == ""
    refusal = [line for line in err.splitlines() if not line.startswith("ingest-folder of ")]
    assert len(refusal) == 1 and refusal[0].startswith("refused: deep.html nests its elements more than 100")
    assert f"folder; nothing was written ({db} is unchanged)" in refusal[0]  # one sentence, no ".;"
    assert digest(db) == before
    fresh = db.with_name("new.sqlite")  # a new index that fails leaves no file behind
    assert main(["ingest-folder", str(folder), "--db", str(fresh), "--strict"]) == ExitCode.FAILED
    assert not fresh.exists()


def test_a_second_run_with_nothing_changed_reports_nothing_new_and_writes_nothing(db, folder, fast_e5,
                                                                                 capsys) -> None:
    code, out, _ = run(["ingest-folder", str(folder), "--db", str(db), "--json"], capsys)
    first = json.loads(out)
    assert code == ExitCode.OK and first["chunks_new"] == 2 and first["files_skipped"] == []
    before = digest(db)
    code, out, _ = run(["ingest-folder", str(folder), "--db", str(db), "--json"], capsys)
    again = json.loads(out)
    assert code == ExitCode.OK and again["exit_code"] == 0
    assert (again["chunks_new"], again["chunks_changed"], again["chunks_deleted"], again["texts_embedded"]) == (
        0, 0, 0, 0)
    assert again["chunks_unchanged"] == again["chunks_total"] == 2 and digest(db) == before


def test_json_lists_each_skipped_file_with_its_reason(db, folder, fast_e5, capsys) -> None:
    add_refused_files(folder)
    code, out, err = run(["ingest-folder", str(folder), "--db", str(db), "--json", "--source", "manual"], capsys)
    report = json.loads(out)  # the whole of standard output is the one object
    assert code == report["exit_code"] == ExitCode.SKIPPED
    assert report["source"] == "manual" and report["files_read"] == 4 and report["chunks_total"] == 2
    assert [(s["path"], s["reason"].split(" ")[1]) for s in report["files_skipped"]] == [
        ("deep.html", "nests"), ("guias/cut.pdf", "is")]
    assert "skipped: deep.html" in err


def test_files_that_left_the_folder_past_the_guardrail_are_refused_unless_forced(db, folder, fast_e5,
                                                                                 capsys) -> None:
    assert main(["ingest-folder", str(folder), "--db", str(db)]) == ExitCode.OK
    capsys.readouterr()
    (folder / "turnos.md").unlink()
    (folder / "guias" / "horno.md").unlink()
    before = digest(db)
    code, out, err = run(["ingest-folder", str(folder), "--db", str(db)], capsys)
    assert code == ExitCode.GUARDRAIL and out == "" and "(on the command line: --force)" in err
    assert digest(db) == before
    code, out, _ = run(["ingest-folder", str(folder), "--db", str(db), "--force"], capsys)
    assert code == ExitCode.OK and "2 removed; chunks new 0, changed 0, unchanged 0, deleted 2" in out


def test_an_index_that_serves_another_model_is_refused_before_anything_is_read(folder, tmp_path, capsys) -> None:
    db = tmp_path / "hashed.sqlite"
    with IndexStore(db) as store:
        ingest_folder(store, folder, Hashed())
    before = digest(db)
    code, _, err = run(["ingest-folder", str(folder), "--db", str(db)], capsys)
    assert code == ExitCode.DATABASE and "'text-hash'" in err and digest(db) == before


def test_a_path_that_is_not_a_folder_is_a_usage_error_and_creates_no_index(tmp_path, capsys) -> None:
    db = tmp_path / "kb.sqlite"
    code, _, err = run(["ingest-folder", str(tmp_path / "nowhere"), "--db", str(db)], capsys)
    assert code == ExitCode.USAGE and "is not a folder" in err and not db.exists()


def test_a_run_refused_on_its_arguments_loads_neither_the_ingestion_the_model_nor_pandas(tmp_path) -> None:
    code = ("import sys\nfrom lab.cli import main\n"
            f"print(main(['ingest-folder', {str(tmp_path / 'nowhere')!r}, '--db', 'x.sqlite']), "
            "sorted(m for m in ('pandas', 'lab.ingest', 'lab.embedders', 'lab.retrieval') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.stdout.splitlines() == [f"{int(ExitCode.USAGE)} []"], done.stdout + done.stderr


def test_a_run_on_an_index_another_run_holds_gives_up_after_lock_wait(db, folder, fast_e5, capsys) -> None:
    from lab.file_lock import exclusive_lock

    before = digest(db)
    with exclusive_lock(db):
        code, out, err = run(["ingest-folder", str(folder), "--db", str(db), "--lock-wait", "0.2", "--json"], capsys)
    assert code == ExitCode.BUSY and out == "" and digest(db) == before
    assert f"another index, sync or ingest-folder of {db} was still running after --lock-wait 0.2 s" in err


@pytest.mark.slow
def test_with_multilingual_e5_a_new_index_of_files_alone_is_searched_with_the_tuned_recipe(folder, tmp_path,
                                                                                           capsys, monkeypatch) -> None:
    db = tmp_path / "files.sqlite"
    code, out, err = run(["ingest-folder", str(folder), "--db", str(db)], capsys)
    assert code == ExitCode.OK and "embedding new and changed chunks with multilingual-e5-small" in err
    assert best_titles(db, ["¿A qué hora sale la furgoneta de reparto?"], capsys, monkeypatch) == ["Turnos de reparto"]


@pytest.mark.slow
def test_no_output_shows_a_password_given_in_a_postgresql_url(postgres_url, served_bakery, folder, fast_e5,
                                                              monkeypatch, capsys) -> None:
    monkeypatch.delenv("PGPASSWORD", raising=False)
    url = f"{postgres_url}&password={PASSWORD}&workspace=files"
    build_lexical(served_bakery, url)
    monkeypatch.delenv("PGPASSWORD", raising=False)
    capsys.readouterr()
    add_refused_files(folder)
    runs = [["ingest-folder", str(folder), "--db", url], ["ingest-folder", str(folder), "--db", url, "--json"],
            ["ingest-folder", str(folder), "--db", url, "--strict"],
            ["ingest-folder", str(folder), "--db", url.replace("/test_", "/nothing_")]]
    codes = []
    for argv in runs:
        codes.append(main(argv))
        captured = capsys.readouterr()
        assert PASSWORD not in captured.out + captured.err and "Traceback" not in captured.err, argv
        monkeypatch.delenv("PGPASSWORD", raising=False)
    assert codes == [ExitCode.SKIPPED, ExitCode.SKIPPED, ExitCode.FAILED, ExitCode.DATABASE]
    assert best_titles(url.replace(f"&password={PASSWORD}", ""), ["furgoneta azul Anselmo"], capsys,
                       monkeypatch) == ["Turnos de reparto"]


@pytest.mark.slow
def test_after_index_rebuilds_the_pages_alone_the_next_run_ingests_the_files_again(served_bakery, db, folder,
                                                                                  fast_e5, capsys,
                                                                                  monkeypatch) -> None:
    assert main(["ingest-folder", str(folder), "--db", str(db)]) == ExitCode.OK
    build_lexical(served_bakery, str(db))  # a full index replaces the whole index: the files' chunks go
    capsys.readouterr()
    code, out, _ = run(["ingest-folder", str(folder), "--db", str(db), "--json"], capsys)
    again = json.loads(out)
    assert code == ExitCode.OK and (again["files_cut"], again["chunks_new"], again["chunks_total"]) == (2, 2, 2)
    assert best_titles(db, ["furgoneta azul Anselmo"], capsys, monkeypatch) == ["Turnos de reparto"]
