"""``python -m lab search`` and ``ask``: an index built from the served simulator answers questions."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import sqlite3
from pathlib import Path
from unittest import mock

import pytest

from lab.answering import ANSWER_THRESHOLD
from lab.cli import DEFAULT_SERVE_TOKEN, ExitCode, main
from lab.clock import WallClock
from lab.index import IndexStore
from lab.retrieval import RecallAt, ReciprocalRank, evaluate_search, heldout_bakery_questions
from lab.simulator import bakery_workspace
from lab.simulator.server import serve_in_background
from lab.simulator.workspaces import bakery_simulator
from lab.vectors import Hit

TABLES = Path(__file__).resolve().parents[1] / "data" / "tables"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """An index built by ``python -m lab index`` against the served bakery."""
    db = tmp_path_factory.mktemp("cli") / "kb.sqlite"
    sim = bakery_simulator(seed=0, clock=WallClock(), tokens={"indexador": DEFAULT_SERVE_TOKEN})
    with serve_in_background(sim) as server, mock.patch.dict(os.environ, {"NOTION_TOKEN": DEFAULT_SERVE_TOKEN}):
        assert main(["index", "--base-url", server.base_url, "--db", str(db), "--rate", "50"]) == ExitCode.OK
    return db


def _search(argv: list[str], stdin: str, capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.slow
def test_search_answers_the_held_out_questions_as_lesson_10s_tuned_table_says(built, capsys, monkeypatch) -> None:
    questions = heldout_bakery_questions(bakery_workspace().page_id)
    stdin = "".join(f"{q.question}\n\n" for q in questions)  # blank lines are skipped
    code, out, _ = _search(["search", "--db", str(built), "-k", "50", "--json"], stdin, capsys, monkeypatch)
    assert code == ExitCode.OK
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["question"] for a in answers] == [q.question for q in questions]
    hits = {a["question"]: [Hit(id=h["chunk_id"], score=h["score"], title=h["title"], section=h["section"],
                                page_id=h["page_id"], url=h["url"], edited=h["edited"]) for h in a["hits"]]
            for a in answers}
    scores = evaluate_search(lambda q: hits[q.question], questions, [RecallAt(8), ReciprocalRank()])
    with open(TABLES / "10_ladder_heldout.csv", encoding="utf-8") as table:
        heldout = next(row for row in csv.DictReader(table) if "afterwards" in row["questions"])
    assert round(scores["recall@8"].mean(), 3) == float(heldout["reached recall@8"])
    assert round(scores["MRR"].mean(), 3) == float(heldout["reached MRR"])
    assert all(h["url"].startswith("https://www.notion.so/") and h["edited"] for a in answers for h in a["hits"])


def test_search_prints_title_and_section_url_and_score_for_each_hit(built, capsys, monkeypatch) -> None:
    code, out, _ = _search(["search", "--db", str(built), "-k", "3", "¿Abren", "el", "1", "de", "mayo?"], "",
                           capsys, monkeypatch)
    lines = out.splitlines()
    assert code == ExitCode.OK and lines[0] == "¿Abren el 1 de mayo?"
    assert lines[1].startswith("   1. Aviso: puente del 1 de mayo > ") and lines[1].endswith(")")
    assert lines[2].strip().startswith("https://www.notion.so/Aviso-puente-del-1-de-mayo-")
    assert len([line for line in lines if line.startswith("   ") and ". " in line[:6]]) == 3


def test_a_dash_reads_the_questions_from_standard_input(built, capsys, monkeypatch) -> None:
    code, out, _ = _search(["search", "--db", str(built), "-k", "1", "--json", "-"], "horario\nreembolso\n", capsys,
                           monkeypatch)
    assert code == ExitCode.OK and [json.loads(line)["question"] for line in out.splitlines()] == ["horario",
                                                                                                  "reembolso"]


def test_ask_cites_its_sources_or_abstains_and_says_why(built, capsys) -> None:
    assert main(["ask", "--db", str(built), "¿Puedo pagar con American Express?"]) == ExitCode.OK
    answered = capsys.readouterr().out
    assert answered.splitlines()[0] == "No aceptamos American Express. [1]"
    assert "sources (* cited):" in answered and " *[" in answered and "https://www.notion.so/" in answered
    assert main(["ask", "--db", str(built), "¿Cuál es la contraseña del wifi?"]) == ExitCode.OK
    abstained = capsys.readouterr().out
    assert abstained.startswith("No encuentro la respuesta") and "(abstained: the best sentence" in abstained
    assert f"below the threshold {ANSWER_THRESHOLD:g}" in abstained and " *[" not in abstained


def test_a_missing_file_is_not_created_and_says_how_to_build_an_index(tmp_path, capsys) -> None:
    missing = tmp_path / "none.sqlite"
    assert main(["search", "--db", str(missing), "hola"]) == ExitCode.DATABASE
    assert f"build one first with python -m lab index --db {missing}" in capsys.readouterr().err
    assert not missing.exists()


def test_an_empty_an_older_or_a_foreign_file_is_one_line_with_the_command_that_fixes_it(tmp_path, capsys) -> None:
    empty = tmp_path / "empty.sqlite"
    IndexStore(empty).close()
    assert main(["ask", "--db", str(empty), "hola"]) == ExitCode.DATABASE
    err = capsys.readouterr().err
    assert "holds no chunks yet" in err and f"python -m lab index --db {empty}" in err and len(err.splitlines()) == 1
    older = tmp_path / "older.sqlite"
    IndexStore(older).close()
    with sqlite3.connect(older) as db:
        db.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    assert main(["search", "--db", str(older), "hola"]) == ExitCode.DATABASE
    err = capsys.readouterr().err
    assert "schema version 4" in err and "python -m lab index" in err and len(err.splitlines()) == 1
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE notes (x)")
    assert main(["search", "--db", str(foreign), "hola"]) == ExitCode.DATABASE
    assert "not a lab index" in capsys.readouterr().err


def test_ask_without_a_question_or_with_a_threshold_out_of_range_is_a_usage_error(built, capsys) -> None:
    assert main(["ask", "--db", str(built), " "]) == ExitCode.USAGE
    assert "ask needs a question" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["ask", "--db", str(built), "--threshold", "1.5", "hola"])
    assert exit_.value.code == ExitCode.USAGE


def test_a_blank_question_on_the_command_line_is_a_usage_error_not_a_ranking_of_nothing(built, capsys) -> None:
    for blank in ("", "  "):
        assert main(["search", "--db", str(built), blank]) == ExitCode.USAGE
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and "search needs a question" in err


def test_a_question_past_the_models_input_limit_is_named_as_a_question_too_long(built, capsys, monkeypatch) -> None:
    long = "pan " * 600  # past multilingual-e5-small's 512 tokens
    for command in ("search", "ask"):
        assert main([command, "--db", str(built), long]) == ExitCode.USAGE
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1, err
        assert re.search(r"the question is 6\d\d tokens long, more than the 512 ", err) and "chunk" not in err
    code, out, err = _search(["search", "--db", str(built), "--json", "-k", "1"], f"pan\n{long}\n", capsys,
                             monkeypatch)
    assert code == ExitCode.SKIPPED and len(out.splitlines()) == 1
    assert re.match(r"skipped: line 2 of standard input was refused \(the question is 6\d\d tokens long", err)


def test_a_title_with_an_escape_sequence_is_printed_escaped_by_index_search_and_ask(tmp_path, capsys) -> None:
    # anyone who may edit the workspace writes the titles the commands print on the operator's terminal
    from lab.datasets.bakery import load_bakery_workspace

    spec = load_bakery_workspace()
    page = next(p for p in spec["pages"] if p["key"] == "ficha-rol-de-canela")
    page["title"] = "Ficha: Rol de canela\x1b[2J\x1b]0;owned\x07"
    db = tmp_path / "kb.sqlite"
    sim = bakery_simulator(seed=0, clock=WallClock(), spec=spec, tokens={"indexador": DEFAULT_SERVE_TOKEN})
    with serve_in_background(sim) as server, mock.patch.dict(os.environ, {"NOTION_TOKEN": DEFAULT_SERVE_TOKEN}):
        assert main(["index", "--base-url", server.base_url, "--db", str(db), "--rate", "1000",
                     "--recipe", "lexical"]) == ExitCode.OK
    out = capsys.readouterr().out
    assert "\x1b" not in out and r"Rol de canela\x1b[2J\x1b]0;owned\x07" in out
    for argv in (["search", "--db", str(db), "rol de canela"], ["ask", "--db", str(db), "¿Qué es el rol de canela?"]):
        assert main(argv) == ExitCode.OK
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out and r"Rol de canela\x1b[2J" in out


def test_ask_abstains_below_the_threshold_lesson_11_calibrates() -> None:
    from lab.answering import ANSWER_THRESHOLD

    with open(TABLES / "11_citation_accuracy.csv", encoding="utf-8") as table:
        calibrated = next(row for row in csv.DictReader(table) if row["figure"] == "calibrated threshold")
    assert ANSWER_THRESHOLD == float(calibrated["value"])


def test_ask_never_answers_an_allergy_question_it_goes_to_a_person_with_its_sources(built, capsys) -> None:
    assert main(["ask", "--db", str(built), "¿El rol de canela lleva nuez?"]) == ExitCode.OK
    out = capsys.readouterr().out
    assert out.startswith("Las preguntas de alergias") and "(escalated: allergies and diets always go to a person" in out
    assert "sources (* cited):" in out and " *[" not in out and "Ficha: Rol de canela" in out


def _damaged_copy(built: Path, folder: Path) -> Path:
    """A copy of the index with one page of its chunks table overwritten, as a bad disk sector leaves it."""
    copy = folder / "damaged.sqlite"
    copy.write_bytes(built.read_bytes())
    with sqlite3.connect(copy) as db:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'chunks'").fetchone()[0]
    with open(copy, "r+b") as file:
        file.seek((root - 1) * page_size)
        file.write(b"\x0d" + b"\xa5" * (page_size - 1))
    return copy


@pytest.mark.parametrize("command", [["search", "horario"], ["search", "--json", "-"], ["ask", "¿Abren el 1 de mayo?"],
                                     ["search", "--check"]])
def test_a_damaged_page_is_one_line_naming_the_file_and_the_rebuild_and_the_file_is_left_alone(
        built, tmp_path, capsys, monkeypatch, command) -> None:
    damaged = _damaged_copy(built, tmp_path)
    before = damaged.read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"horario\n")))
    code = main([command[0], "--db", str(damaged), *command[1:]])
    err = capsys.readouterr().err
    assert code == ExitCode.DATABASE and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert str(damaged) in err and "damaged" in err and f"python -m lab index --db {damaged}" in err
    assert damaged.read_bytes() == before


def test_check_says_a_sound_index_is_sound_and_reads_no_question(built, capsys) -> None:
    assert main(["search", "--db", str(built), "--check"]) == ExitCode.OK
    assert capsys.readouterr().out.startswith(f"ok: {built} is a sound index (")
    assert main(["search", "--db", str(built), "--check", "horario"]) == ExitCode.USAGE


@pytest.mark.parametrize("command", [["search", "horario"], ["ask", "horario"], ["search", "--check"]])
def test_an_empty_file_is_never_made_an_index_by_a_search(tmp_path, capsys, command) -> None:
    empty = tmp_path / "zero.sqlite"
    empty.touch()
    assert main([command[0], "--db", str(empty), *command[1:]]) == ExitCode.DATABASE
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "empty file (0 bytes)" in err and f"python -m lab index --db {empty}" in err
    assert empty.stat().st_size == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["zero.sqlite"]


def test_a_line_that_is_not_text_is_skipped_named_and_the_batch_goes_on(built, capsys, monkeypatch) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b"horario\n\xff\xfe caf\xe9\nreembolso\n"))
    monkeypatch.setattr("sys.stdin", stdin)
    code = main(["search", "--db", str(built), "-k", "1", "--json"])
    captured = capsys.readouterr()
    assert code == ExitCode.SKIPPED
    assert [json.loads(line)["question"] for line in captured.out.splitlines()] == ["horario", "reembolso"]
    assert captured.err.splitlines() == ["skipped: line 2 of standard input is not UTF-8 text"]


@pytest.mark.slow
@pytest.mark.parametrize("errors", ["apart", "in the same pipe"])
def test_a_reader_that_stops_early_ends_the_search_quietly_with_its_exit_code(built, errors: str) -> None:
    # | head -c 1, and 2>&1 | head -c 1: then stderr is the same closed pipe, and the line saying why is dropped
    import subprocess
    import sys

    questions = "".join(f"horario {n}\n" for n in range(300)).encode()
    search = subprocess.Popen([sys.executable, "-m", "lab", "search", "--db", str(built), "--json", "-k", "20"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE if errors == "apart" else subprocess.STDOUT)
    search.stdin.write(questions)
    search.stdin.close()
    assert search.stdout.read(1) == b"{"  # what | head -c 1 reads, before it exits
    search.stdout.close()
    err = search.stderr.read().decode() if errors == "apart" else ""
    assert search.wait(timeout=60) == ExitCode.PIPE
    if errors == "apart":
        assert "Traceback" not in err and "Exception ignored" not in err and len(err.splitlines()) == 1, err


def test_an_answer_keeps_its_lines_and_shows_any_other_control_character_escaped() -> None:
    from lab.cli.exits import printable

    quoted = "Abrimos a las 8.\x1b[2J\x1b]0;owned\x07\n\n[1] Horario\tde mayo\r"
    assert printable(quoted) == "Abrimos a las 8.\\x1b[2J\\x1b]0;owned\\x07\n\n[1] Horario\tde mayo\\r"
    assert printable("¿Qué lleva el rol de canela? Nueces.") == "¿Qué lleva el rol de canela? Nueces."


def test_a_page_whose_text_e5_reads_as_thousands_of_tokens_is_cut_into_pieces_e5_reads_whole(tmp_path, capsys) -> None:
    # one "word" of 12,000 letters (a pasted blob) is one token to the lab's chunker and 6,000 to e5's tokenizer:
    # its chunk is cut again until each piece fits, instead of stopping the whole index
    from lab.datasets.bakery import load_bakery_workspace
    from lab.embedders import E5_MAX_TOKENS, e5_token_counter

    spec = load_bakery_workspace()
    page = next(p for p in spec["pages"] if p["key"] == "ficha-rol-de-canela")
    page["blocks"].append({"type": "paragraph", "text": "Código de la foto: " + "QUJD" * 3_000})
    db = tmp_path / "kb.sqlite"
    sim = bakery_simulator(seed=0, clock=WallClock(), spec=spec, tokens={"indexador": DEFAULT_SERVE_TOKEN})
    with serve_in_background(sim) as server, mock.patch.dict(os.environ, {"NOTION_TOKEN": DEFAULT_SERVE_TOKEN}):
        code = main(["index", "--base-url", server.base_url, "--db", str(db), "--rate", "1000"])
    assert code == ExitCode.OK, capsys.readouterr().err
    with sqlite3.connect(db) as index:
        pieces = index.execute("SELECT id, text FROM chunks WHERE section = 'Cambios en esta ficha' AND title = "
                               "'Ficha: Rol de canela' ORDER BY ord").fetchall()
    count, head = e5_token_counter().count_tokens, "Ficha: Rol de canela > Cambios en esta ficha\n"
    assert len(pieces) >= 12 and all(count(text) <= E5_MAX_TOKENS for _, text in pieces)
    assert all(text.startswith(head) for _, text in pieces) and pieces[-1][0].endswith(f".{len(pieces)}")
    blob = "".join(text.removeprefix(head) for _, text in pieces)
    assert blob.count("QUJD") >= 2_999  # every piece kept (a cut may fall inside one "QUJD")


def test_a_page_whose_title_alone_is_past_the_models_limit_is_named_and_nothing_is_written(tmp_path, capsys) -> None:
    # every chunk begins with its "Title > Section" line: a title e5 reads as about 800 tokens leaves no room
    from lab.datasets.bakery import load_bakery_workspace

    spec = load_bakery_workspace()
    page = next(p for p in spec["pages"] if p["key"] == "ficha-rol-de-canela")
    page["title"] = "Ficha " + "QUJD" * 400
    db = tmp_path / "kb.sqlite"
    sim = bakery_simulator(seed=0, clock=WallClock(), spec=spec, tokens={"indexador": DEFAULT_SERVE_TOKEN})
    with serve_in_background(sim) as server, mock.patch.dict(os.environ, {"NOTION_TOKEN": DEFAULT_SERVE_TOKEN}):
        code = main(["index", "--base-url", server.base_url, "--db", str(db), "--rate", "1000"])
    err = capsys.readouterr().err.splitlines()[-1]
    assert code == ExitCode.FAILED and "Traceback" not in err
    assert err.startswith("error: the page 'Ficha QUJDQUJD") and "title and section heading" in err
    with sqlite3.connect(db) as index:  # the pages read are kept to resume; no chunk was written
        assert index.execute("SELECT COUNT(*) FROM chunks").fetchone() == (0,)
