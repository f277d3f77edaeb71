"""An embedding model's input limit: chunks past it are named before any call, never cut in silence."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lab.chunking import (
    ChunkerParameterError, Document, InputTooLongError, MarkdownHeaderChunker, ParagraphChunker,
    SectionTokenChunker, WordWindowChunker, check_input_limit, count_tokens, flatten_blocks,
)
from lab.errors import LabError
from lab.index import CorpusModels, DenseVectors
from lab.notion import PageMetadata
from lab.services.voyage import VOYAGE_INPUT_TOKENS, EmbeddingResult, VoyageEmbedder
from lab.vectors import TfidfVectorizer
from notion_blocks import Blocks, traverse
from tests.fake_transport import ScriptedSession, answer

MARKDOWN = """# Quickstart

## Install

Run the installer on the machine that will plan the shifts, then sign in with the account of
the person who owns the workspace. The installer checks the version of the operating system.
"""
PAGE = PageMetadata(id="p1", title="Política de cancelaciones", type="politica", edited="2026-03-20T17:42:00.000Z")


def notion_page() -> Document:
    b = Blocks()
    words = " ".join(f"palabra{i}" for i in range(40))
    blocks = traverse([b.heading(2, "Plazos para cancelar"), b.paragraph(words)])
    return Document.from_notion_page(flatten_blocks(blocks), PAGE)


DOCUMENTS = {
    SectionTokenChunker: notion_page(),
    MarkdownHeaderChunker: Document.from_markdown(MARKDOWN, "guides/quickstart.md"),
    ParagraphChunker: Document.from_text(MARKDOWN, "q1", title="Quickstart"),
    WordWindowChunker: Document.from_text(MARKDOWN, "q1", title="Quickstart"),
}


class Piece:
    def __init__(self, id: str, text: str) -> None:
        self.id, self.text = id, text


def test_the_report_counts_what_is_embedded_and_names_each_chunk_past_the_limit_in_order() -> None:
    pieces = [Piece("a", "uno dos tres"), Piece("b", "uno dos tres cuatro cinco"), Piece("c", "uno"),
              Piece("d", "uno, dos, tres.")]
    report = check_input_limit(pieces, 3)
    assert report.over == (("b", 5), ("d", 6)) and report.ids == ("b", "d") and report.count == 2
    assert report.checked == 4 and report.tokens_past_limit == 2 + 3 and not report.ok
    assert str(report) == "2 of 4 chunks exceed 3 tokens (5 tokens would be cut): b (5), d (6)"


def test_the_header_lines_count_too_so_a_full_window_passes_a_limit_equal_to_its_size() -> None:
    chunks = SectionTokenChunker(max_tokens=40, overlap=0).split(notion_page())
    assert max(c.tokens for c in chunks) == 40
    report = check_input_limit(chunks, 40)
    assert report.count == 1 and report.over[0][1] == count_tokens(chunks[0].text) > 40


def test_when_everything_fits_the_report_says_so_and_raises_nothing() -> None:
    report = check_input_limit([Piece("a", "uno dos")], 32_000)
    assert report.ok and report.raise_if_over() is report and str(report) == "all 1 chunks fit in 32,000 tokens"


def test_the_error_is_a_lab_error_naming_the_count_the_first_ids_and_the_fix() -> None:
    pieces = [Piece(f"c{i}", "uno dos tres cuatro") for i in range(5)]
    with pytest.raises(InputTooLongError) as caught:
        check_input_limit(pieces, 2).raise_if_over()
    message = str(caught.value)
    assert isinstance(caught.value, LabError) and caught.value.report.count == 5
    assert "5 chunk(s) exceed the model's input limit of 2 tokens: c0 (4), c1 (4), c2 (4) and 2 more" in message
    assert "cut smaller chunks" in message


@pytest.mark.parametrize("limit", [0, -5, 2.5, True, "300"])
def test_a_limit_must_be_a_positive_whole_number(limit: object) -> None:
    with pytest.raises(ChunkerParameterError, match="must be a positive whole number"):
        check_input_limit([Piece("a", "uno")], limit)  # type: ignore[arg-type]


@pytest.mark.parametrize("chunker_type", list(DOCUMENTS), ids=lambda t: t.__name__)
def test_every_chunker_told_the_limit_refuses_chunks_past_it_and_names_them(chunker_type) -> None:
    document = DOCUMENTS[chunker_type]
    chunks = chunker_type().split(document)
    longest = max(count_tokens(c.text) for c in chunks)
    with pytest.raises(InputTooLongError) as caught:
        chunker_type(input_limit=longest - 1).split(document)
    assert caught.value.report.ids == tuple(c.id for c in chunks if count_tokens(c.text) == longest)
    assert chunker_type(input_limit=longest).split(document) == chunks


@pytest.mark.parametrize("chunker_type", list(DOCUMENTS), ids=lambda t: t.__name__)
def test_a_chunkers_input_limit_is_checked_with_its_other_parameters(chunker_type) -> None:
    with pytest.raises(ChunkerParameterError, match="^input_limit must be a positive whole number"):
        chunker_type(input_limit=0).split(DOCUMENTS[chunker_type])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(words=st.lists(st.sampled_from(["pan", "de", "canela", "nuez", ",", "."]), min_size=1, max_size=80),
       size=st.integers(1, 30), limit=st.integers(1, 40))
def test_a_chunker_told_the_limit_returns_only_chunks_that_fit_or_names_exactly_those_that_do_not(
        words: list[str], size: int, limit: int) -> None:
    document = Document.from_text(" ".join(words), "t1", title="Nota")
    chunks = WordWindowChunker(size=size, overlap=0).split(document)
    too_long = tuple(c.id for c in chunks if count_tokens(c.text) > limit)
    try:
        limited = WordWindowChunker(size=size, overlap=0, input_limit=limit).split(document)
    except InputTooLongError as error:
        assert error.report.ids == too_long != ()
    else:
        assert too_long == () and limited == chunks


def test_voyage_models_know_their_published_input_limit_and_it_can_be_overridden() -> None:
    assert VoyageEmbedder("pa-key", model="voyage-4").max_input_tokens == 32_000 == VOYAGE_INPUT_TOKENS["voyage-4-lite"]
    assert VoyageEmbedder("pa-key", model="voyage-unknown").max_input_tokens is None
    assert VoyageEmbedder("pa-key", max_input_tokens=512).max_input_tokens == 512


def test_the_voyage_client_asks_the_service_to_refuse_a_text_past_the_limit_rather_than_cut_it() -> None:
    session = ScriptedSession(answer(200, {"data": [{"index": 0, "embedding": [1.0, 0.0]}],
                                           "usage": {"total_tokens": 3}}))
    VoyageEmbedder("pa-key", dimension=2, session=session).embed_documents(["uno dos tres"])
    assert session.sent[0]["json"]["truncation"] is False


def test_the_offline_models_read_every_token_so_they_have_no_limit() -> None:
    assert TfidfVectorizer.max_input_tokens is None and CorpusModels().max_input_tokens is None


class CountingEmbedder:
    name = "tiny-8"

    def __init__(self, max_input_tokens: int | None) -> None:
        self.max_input_tokens = max_input_tokens
        self.calls = 0

    def embed_documents(self, texts: list[str]) -> EmbeddingResult:
        self.calls += 1
        return EmbeddingResult(np.ones((len(texts), 8), dtype=np.float32), tokens=len(texts), requests=1)


def test_dense_vectors_refuse_chunks_past_the_embedders_limit_before_any_call() -> None:
    chunks = SectionTokenChunker(max_tokens=40, overlap=0).split(notion_page())
    small = CountingEmbedder(max_input_tokens=20)
    with pytest.raises(InputTooLongError, match="input limit of 20 tokens"):
        DenseVectors.embed(small, chunks)
    assert small.calls == 0
    roomy = CountingEmbedder(max_input_tokens=32_000)
    assert DenseVectors.embed(roomy, chunks).vectors.shape == (len(chunks), 8) and roomy.calls == 1


def test_e5_s_limit_is_checked_with_its_own_tokenizer_before_the_model_is_loaded() -> None:
    """One "word" of 20,000 letters is one token to the lab's count and about 4,000 to e5's tokenizer: the
    check before embedding counts as the model does, so the chunk is named before any call, not refused by
    the engine as "text 6" in the middle of a run."""
    from types import SimpleNamespace

    from lab.embedders import check_embedder_limit, e5_embedder, e5_token_counter

    chunk = SimpleNamespace(id="faq:pedidos:00", text="Preguntas > Pedidos\n" + "a" * 20_000)
    assert count_tokens(chunk.text) < 10 and e5_token_counter().count_tokens(chunk.text) > 512
    embedder = e5_embedder()
    with pytest.raises(InputTooLongError) as raised:
        check_embedder_limit(embedder, [SimpleNamespace(id="faq:pedidos:01", text="Preguntas > Pedidos\nSí."), chunk])
    assert raised.value.report.over == (("faq:pedidos:00", e5_token_counter().count_tokens(chunk.text)),)
    assert "faq:pedidos:00" in str(raised.value) and embedder._model is None  # the tokenizer alone, no model
    assert embedder.count_tokens("Sí.") == e5_token_counter().count_tokens("Sí.")
