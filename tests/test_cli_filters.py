"""``search`` and ``ask`` narrowed to one version of the documentation or a window of edit dates: filtered
before ranking, each hit's version in the JSON, and a bad value one line with the usage exit code."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from lab.cli import ExitCode, main
from lab.datasets.docs_corpus import DOCS_DIR, load_docs_corpus
from lab.embedders import LsaEmbedder
from lab.index import IndexStore
from lab.ingest import ingest_folder
from lab.retrieval import IndexSearcher

QUESTION = "How do I send the API token?"


@pytest.fixture(scope="module")
def docs_index(tmp_path_factory) -> Path:
    """The docs corpus ingested (LSA vectors) into an index searched with the lexical recipe, its search fitted
    once here (the state is kept in the index: each command loads it)."""
    db = tmp_path_factory.mktemp("filters") / "docs.sqlite"
    paragraphs = [p for _, text in load_docs_corpus() for p in text.split("\n\n") if p.strip()]
    with IndexStore(db) as store:
        ingest_folder(store, DOCS_DIR, LsaEmbedder(n_components=16).fit(paragraphs))
        store.set_search_recipe("lexical")
        IndexSearcher(store)
    return db


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_search_json_gives_each_hits_version_and_a_version_filter_keeps_that_version(docs_index, capsys) -> None:
    code, out, _ = run(capsys, ["search", "--db", str(docs_index), "-k", "8", "--json", QUESTION])
    everything = json.loads(out)["hits"]
    assert code == ExitCode.OK and "2.1" in {hit["version"] for hit in everything}  # the API pages lead
    code, out, _ = run(capsys, ["search", "--db", str(docs_index), "-k", "8", "--json", "--doc-version", "3.2",
                                QUESTION])
    filtered = json.loads(out)["hits"]
    assert code == ExitCode.OK and len(filtered) == 8 and {hit["version"] for hit in filtered} == {"3.2"}
    assert len([hit for hit in everything if hit["version"] == "3.2"]) < 8  # filtered after ranking: fewer


def test_the_plain_output_names_each_hit_s_version_and_nothing_for_a_page_without_one(docs_index, capsys) -> None:
    code, out, _ = run(capsys, ["search", "--db", str(docs_index), "-k", "50", QUESTION])
    links = [line.strip() for line in out.splitlines() if line.startswith("      ")]
    assert code == ExitCode.OK and len(links) == 50
    assert {link.rpartition("(version ")[2].rstrip(")") for link in links if "(version " in link} == {"2.1", "3.2"}
    assert any("(version " not in link for link in links)  # the pages whose comment names no version


def test_a_date_window_keeps_the_chunks_edited_in_it_and_leaves_out_the_undated(docs_index, capsys) -> None:
    code, out, _ = run(capsys, ["search", "--db", str(docs_index), "-k", "50", "--json", "--edited-from",
                                "2026-02-12", "--edited-until", "2026-02-28", QUESTION])
    hits = json.loads(out)["hits"]
    assert code == ExitCode.OK and hits
    assert all("2026-02-12" <= hit["edited"] <= "2026-02-28" for hit in hits)


def test_ask_answers_only_from_the_version_asked_for(docs_index, capsys) -> None:
    with IndexStore(docs_index) as store:
        version_of = {row["title"]: row["version"] for row in store.chunks()}
    code, out, _ = run(capsys, ["ask", "--db", str(docs_index), "--doc-version", "2.1", QUESTION])
    sources = out.split("sources (* cited):")[1]
    assert code == ExitCode.OK
    assert {version for title, version in version_of.items() if title in sources} == {"2.1"}


def test_a_version_no_chunk_has_is_one_line_listing_the_versions_before_any_question(docs_index, capsys,
                                                                                     monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("token\nbilling\n"))
    code, out, err = run(capsys, ["search", "--db", str(docs_index), "--doc-version", "4.0"])
    assert code == ExitCode.USAGE and out == ""
    assert err == "error: no chunk of the index has version '4.0'; the versions it holds are '2.1', '3.2'\n"
    code, _, err = run(capsys, ["ask", "--db", str(docs_index), "--doc-version", "4.0", QUESTION])
    assert code == ExitCode.USAGE and err.count("\n") == 1 and "'3.2'" in err


@pytest.mark.parametrize("date", ["2026-2-28", "28/02/2026", "2026-02-30"])
@pytest.mark.parametrize("command", ["search", "ask"])
def test_a_malformed_date_is_a_usage_error_naming_the_option_and_the_value(docs_index, capsys, command,
                                                                          date) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([command, "--db", str(docs_index), "--edited-until", date, QUESTION])
    err = capsys.readouterr().err
    assert exit_.value.code == ExitCode.USAGE and err.count("\n") == 1
    assert "--edited-until" in err and f"got '{date}'" in err and "YYYY-MM-DD" in err


def test_a_window_that_ends_before_it_starts_is_one_line_and_the_usage_exit_code(docs_index, capsys) -> None:
    code, _, err = run(capsys, ["search", "--db", str(docs_index), "--edited-from", "2026-03-02", "--edited-until",
                                "2026-03-01", QUESTION])
    assert code == ExitCode.USAGE
    assert err == ("error: --edited-from 2026-03-02 is after --edited-until 2026-03-01: no day is in that window; "
                   "swap them\n")
