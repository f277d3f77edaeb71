"""One interface: every chunker takes a Document and returns chunks that are exact slices of its text."""

from __future__ import annotations

import pytest

from fake_embedders import HashEmbedder
from lab.chunking import (
    ChunkerParameterError, ChunkingError, Document, MarkdownHeaderChunker, Note, ParagraphChunker,
    SectionTokenChunker, SemanticChunker, WordWindowChunker, flatten_blocks,
)
from lab.notion import PageMetadata
from notion_blocks import Blocks, traverse

MARKDOWN = """<!-- url: /guides/quickstart | version: 2.3 -->
# Quickstart

Shiftloom plans shifts.

## Install

Run the installer. Then sign in.
"""
PAGE = PageMetadata(id="p1", title="Política de cancelaciones", type="politica", edited="2026-03-20T17:42:00.000Z")
NOTES = [("n1", "uno dos tres"), ("n2", "cuatro  cinco"), ("n3", "seis")]


def notion_page() -> Document:
    b = Blocks()
    blocks = traverse([b.paragraph("Intro."), b.heading(2, "Plazos"), b.paragraph("Cancela con 48 horas.")])
    return Document.from_notion_page(flatten_blocks(blocks), PAGE)


DOCUMENTS = {
    "notion page": notion_page(),
    "markdown file": Document.from_markdown(MARKDOWN, "guides/quickstart.md"),
    "plain text": Document.from_text("Una nota.\n\nOtra nota.", "n01", title="Notas"),
    "stream of notes": Document.from_notes(NOTES),
}
CHUNKERS = [SectionTokenChunker(5, 1), MarkdownHeaderChunker(40, 10), ParagraphChunker(30, 5), WordWindowChunker(3, 1),
            SemanticChunker(HashEmbedder(), max_chars=30)]
# What each chunker reads beyond the text: the page's sections, the file's headers.
NEEDS = {SectionTokenChunker: "notion page", MarkdownHeaderChunker: "markdown file"}


def cases() -> list[tuple[object, str]]:
    return [(chunker, kind) for chunker in CHUNKERS for kind in DOCUMENTS
            if NEEDS.get(type(chunker), kind) == kind]


@pytest.mark.parametrize(("chunker", "kind"), cases(), ids=lambda x: x if isinstance(x, str) else type(x).__name__)
def test_every_chunker_cuts_exact_slices_with_unique_ids_the_same_way_twice(chunker, kind) -> None:
    document = DOCUMENTS[kind]
    chunks = chunker.split(document)
    assert chunks and all(document.text[c.start:c.end] == c.body for c in chunks)
    assert len({c.id for c in chunks}) == len(chunks)
    assert chunker.split(document) == chunks


@pytest.mark.parametrize(("chunker", "constructor"), [(SectionTokenChunker(), "from_notion_page"),
                                                      (MarkdownHeaderChunker(), "from_markdown")])
def test_a_chunker_that_needs_a_structure_names_the_constructor_that_gives_it(chunker, constructor) -> None:
    with pytest.raises(ChunkingError, match=constructor):
        chunker.split(DOCUMENTS["plain text"])


def test_split_refuses_what_is_not_a_document_and_says_how_to_build_one() -> None:
    with pytest.raises(ChunkingError, match="takes a Document.*Document.from_notes"):
        WordWindowChunker().split(NOTES)


@pytest.mark.parametrize(("chunker", "name"), [(SectionTokenChunker(10, 10), "overlap"),
                                               (MarkdownHeaderChunker(0, 0), "max_chars"),
                                               (ParagraphChunker(50, 60), "overlap_chars"),
                                               (WordWindowChunker(0, 0), "size")])
def test_parameters_are_checked_first_under_their_own_names(chunker, name) -> None:
    with pytest.raises(ChunkerParameterError, match=f"^{name} must be"):
        chunker.split(DOCUMENTS["plain text"])


def test_a_stream_of_notes_keeps_where_each_note_is_in_the_joined_text() -> None:
    stream = Document.from_notes(NOTES, stream_id="s")
    assert stream.text == "uno dos tres\n\ncuatro  cinco\n\nseis"
    assert [(n.id, stream.text[n.start:n.end]) for n in stream.notes] == NOTES
    assert stream.id == "s" and stream.title is None


def test_any_other_document_is_one_note_so_its_word_windows_never_mix_sources() -> None:
    page = DOCUMENTS["notion page"]
    assert page.notes == (Note("p1", 0, len(page.text)),)
    assert {source for c in WordWindowChunker(3, 1).split(page) for source in c.source["sources"]} == {"p1"}


def test_a_notion_page_carries_its_description_to_every_chunk() -> None:
    page = DOCUMENTS["notion page"]
    assert (page.id, page.title, page.type, page.edited) == (PAGE.id, PAGE.title, PAGE.type, PAGE.edited)
    assert {(c.page_id, c.title, c.type, c.edited) for c in SectionTokenChunker().split(page)} == {
        (PAGE.id, PAGE.title, PAGE.type, PAGE.edited)}


def test_a_markdown_file_is_read_once_with_its_publication_metadata() -> None:
    file = DOCUMENTS["markdown file"].markdown
    assert file.path == "guides/quickstart.md" and file.outline.title == "Quickstart"
    assert (file.publication.url, file.publication.version, file.publication.fallbacks) == (
        "/guides/quickstart", "2.3", ("updated",))


def test_a_markdown_file_is_plain_text_named_by_its_path_to_a_chunker_blind_to_headers() -> None:
    (only,) = ParagraphChunker().split(DOCUMENTS["markdown file"])
    assert (only.id, only.title, only.text) == ("guides/quickstart.md:00", "guides/quickstart.md", only.body)


@pytest.mark.parametrize("build", [lambda: Document.from_text(b"bytes", "n1"),
                                   lambda: Document.from_markdown(None, "a.md"),
                                   lambda: Document.from_notion_page("text", PAGE)])
def test_a_document_is_built_from_text_or_a_flattened_page_only(build) -> None:
    with pytest.raises(ChunkingError, match="pass"):
        build()
