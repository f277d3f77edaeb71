"""The two hand-written corpora of lesson 04: study notes with queries, and the Shiftloom docs."""

from __future__ import annotations

import json
import re

from lab.chunking import Document, MarkdownHeaderChunker, parse_outline, parse_publication_comment
from lab.datasets.docs_corpus import DOCS_DIR, load_docs_corpus
from lab.datasets.study_notes import STUDY_NOTES_PATH, load_study_notes, note_documents


def test_there_are_twelve_notes_in_four_topics_of_three() -> None:
    notes = load_study_notes()["notes"]
    assert [n["id"] for n in notes] == [f"n{k:02d}" for k in range(1, 13)]
    topics = [n["topic"] for n in notes]
    assert len(set(topics)) == 4 and all(topics.count(t) == 3 for t in topics)
    assert all(set(n) == {"id", "topic", "title", "text"} for n in notes)


def test_each_note_has_between_60_and_140_words() -> None:
    assert all(60 <= len(n["text"].split()) <= 140 for n in load_study_notes()["notes"])


def test_queries_are_labelled_with_existing_notes() -> None:
    corpus = load_study_notes()
    ids = {n["id"] for n in corpus["notes"]}
    queries = corpus["queries"]
    assert 6 <= len(queries) <= 8 and len({q["id"] for q in queries}) == len(queries)
    assert all(set(q["relevant"]) <= ids for q in queries)


def test_one_query_shares_no_word_with_the_notes_and_has_nothing_relevant() -> None:
    corpus = load_study_notes()
    vocabulary = set(re.findall(r"\w+", " ".join(n["title"] + " " + n["text"] for n in corpus["notes"]).lower()))
    unmatched = [q for q in corpus["queries"] if not set(re.findall(r"\w+", q["query"].lower())) & vocabulary]
    assert [q["relevant"] for q in unmatched] == [[]]


def test_one_query_asks_about_statistics_in_pandas_and_points_at_the_pandas_notes() -> None:
    corpus = load_study_notes()
    topic = {n["id"]: n["topic"] for n in corpus["notes"]}
    pandas = [q for q in corpus["queries"] if "pandas" in q["query"].lower() and "statistic" in q["query"].lower()]
    assert pandas and all(topic[i] == "pandas statistics" for q in pandas for i in q["relevant"])


def test_the_notes_file_is_canonical_json() -> None:
    raw = STUDY_NOTES_PATH.read_text(encoding="utf-8")
    assert raw == json.dumps(json.loads(raw), ensure_ascii=False, indent=2) + "\n"


def test_note_documents_are_id_text_pairs_in_file_order() -> None:
    docs = note_documents()
    assert docs[0][0] == "n01" and len(docs) == 12 and all(isinstance(t, str) for _, t in docs)


def test_the_docs_corpus_has_eleven_pages_in_four_folders_sorted_by_path() -> None:
    docs = load_docs_corpus()
    paths = [p for p, _ in docs]
    assert len(paths) == 11 and paths == sorted(paths)
    assert {p.split("/")[0] for p in paths} == {"guides", "admin", "api", "integrations"}
    assert all(text.endswith("\n") and "\r" not in text for _, text in docs)


def test_most_pages_open_with_a_publication_comment_and_two_exercise_the_fallbacks() -> None:
    comments = {path: parse_publication_comment(text)[0] for path, text in load_docs_corpus()}
    complete = [p for p, c in comments.items() if {"url", "version", "updated"} <= c.keys()]
    assert len(complete) == 9
    assert comments["api/webhooks.md"] == {"url": "/api/webhooks"}
    assert comments["integrations/calendar-sync.md"] == {}


def test_the_docs_hold_a_fenced_hash_comment_a_long_table_and_long_sections() -> None:
    docs = dict(load_docs_corpus())
    fenced = [text[s:e] for text in docs.values() for s, e in parse_outline(text).fences]
    assert any(re.search(r"^# ", block, re.M) for block in fenced)
    sections = [(text, s) for text in docs.values() for s in parse_outline(text).sections]
    long = [s.title for text, s in sections if len(text[s.body_start:s.body_end].strip()) > 1800]
    assert len(long) >= 2
    tables = [c for path, text in docs.items()
              for c in MarkdownHeaderChunker().split(Document.from_markdown(text, path))
              if c.text.count("| --- |") > c.body.count("| --- |")]
    assert tables, "a table should be long enough to be split and repeat its header"


def test_docs_live_under_data_corpora() -> None:
    assert DOCS_DIR.parts[-2:] == ("corpora", "docs")
