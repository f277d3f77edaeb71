"""Fixed word windows over several documents, recording which document every word came from."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lab.chunking import ChunkerParameterError, ChunkingError, Document, WordWindowChunker
from lab.course.chunk_tables import word_window_summary
from lab.datasets.study_notes import load_study_notes, note_documents

DOCS = [("n1", "uno dos tres cuatro"), ("n2", "cinco  seis\nsiete"), ("n3", "ocho")]
NOTES = Document.from_notes(DOCS)


def test_windows_advance_size_minus_overlap_words_and_keep_the_last_partial_one() -> None:
    chunks = WordWindowChunker(size=4, overlap=1).split(NOTES)
    assert [c.body.split() for c in chunks] == [
        ["uno", "dos", "tres", "cuatro"], ["cuatro", "cinco", "seis", "siete"], ["siete", "ocho"]]


def test_every_word_records_its_source_and_sources_are_listed_once_in_order() -> None:
    second = WordWindowChunker(size=4, overlap=1).split(NOTES)[1]
    assert second.source == {"words": 4, "word_sources": ["n1", "n2", "n2", "n2"], "sources": ["n1", "n2"]}


def test_offsets_point_into_the_joined_documents_and_keep_their_whitespace() -> None:
    stream = NOTES.text
    for chunk in WordWindowChunker(size=4, overlap=1).split(NOTES):
        assert stream[chunk.start:chunk.end] == chunk.body
    assert WordWindowChunker(size=4, overlap=1).split(NOTES)[1].body == "cuatro\n\ncinco  seis\nsiete"


@pytest.mark.parametrize(("n", "size", "overlap", "expected"),
                         [(0, 20, 0, 0), (20, 20, 10, 1), (238, 20, 0, 12), (238, 20, 10, 23), (238, 80, 10, 4)])
def test_expected_chunks_follows_the_formula(n: int, size: int, overlap: int, expected: int) -> None:
    assert WordWindowChunker(size, overlap).expected_chunks(n) == expected


def test_study_notes_give_the_formula_count_for_every_size_and_overlap() -> None:
    docs = note_documents(load_study_notes())
    n = sum(len(text.split()) for _, text in docs)
    table = word_window_summary(Document.from_notes(docs))
    assert list(table.columns) == ["size", "overlap", "chunks", "words_indexed", "chunks_mixing_sources",
                                   "sources_per_chunk"]
    assert [(r.size, r.overlap) for r in table.itertuples()] == [
        (20, 0), (20, 10), (40, 0), (40, 10), (80, 0), (80, 10)]
    for row in table.itertuples():
        assert row.chunks == math.ceil((n - row.size) / (row.size - row.overlap)) + 1
    no_overlap = table[table["overlap"] == 0]
    assert (no_overlap["words_indexed"] == n).all()


def test_documents_must_be_pairs_of_strings() -> None:
    with pytest.raises(ChunkingError, match=r"\(source_id, text\) pairs"):
        Document.from_notes([("n1", 3)])


def test_sizes_that_cannot_advance_are_refused() -> None:
    with pytest.raises(ChunkerParameterError, match="overlap must be"):
        WordWindowChunker(size=10, overlap=10).split(NOTES)


WORD = st.text(alphabet="abcñé0.,¿?", min_size=1, max_size=6)
DOCUMENT = st.lists(WORD, max_size=30).map(lambda ws: " ".join(ws))


@settings(max_examples=150, deadline=None)
@given(st.lists(DOCUMENT, max_size=8), st.integers(1, 25), st.data())
def test_windows_cover_every_word_share_exactly_s_words_and_match_the_formula(texts, size, data) -> None:
    overlap = data.draw(st.integers(0, size - 1))
    docs = [(f"d{k}", text) for k, text in enumerate(texts)]
    words = [(source, word) for source, text in docs for word in text.split()]
    chunker = WordWindowChunker(size, overlap)
    chunks = chunker.split(Document.from_notes(docs))
    assert len(chunks) == chunker.expected_chunks(len(words))
    assert len({c.id for c in chunks}) == len(chunks)
    stream = Document.from_notes(docs).text
    position = 0
    for k, chunk in enumerate(chunks):
        assert stream[chunk.start:chunk.end] == chunk.body
        mine = words[position:position + chunk.source["words"]]
        assert chunk.body.split() == [w for _, w in mine] and chunk.source["word_sources"] == [s for s, _ in mine]
        assert chunk.source["words"] <= size
        if k + 1 < len(chunks):
            assert chunk.source["words"] == size
            position += size - overlap
    if chunks:
        assert position + chunks[-1].source["words"] == len(words)
