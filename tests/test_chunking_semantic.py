"""Semantic chunking: cuts where consecutive sentences' meanings jump, within a budget, with stable ids.

Most tests embed with ``TopicEmbedder``, whose vector of a text counts its topic words ("pan", "envío",
"pago"), so the place where the topic changes is known; one test runs multilingual-e5-small on six sentences.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunking_strategies import block_stream, markdown_page, paragraph
from fake_embedders import HashEmbedder, TopicEmbedder
from lab.chunking import (ChunkerParameterError, ChunkingError, Document, InputTooLongError, SemanticChunker,
                          find_fences, flatten_blocks)
from lab.embedders import E5Embedder, e5_unavailable_reason
from lab.notion import PageMetadata
from notion_blocks import Blocks, traverse

PAGE = PageMetadata(id="p7", title="Ficha: Pan de muerto", type="product", edited="2026-04-08T13:55:00.000Z")


def topic_text(*runs: tuple[str, int]) -> str:
    """Sentences about each topic in turn: ``("pan", 4)`` gives four sentences naming "pan"."""
    return " ".join(f"Frase {k} sobre {topic} y nada más." for topic, count in runs for k in range(count))


def page_document(*nodes) -> Document:
    return Document.from_notion_page(flatten_blocks(traverse(list(nodes))), PAGE)


def test_cuts_land_where_the_topic_changes() -> None:
    text = topic_text(("pan", 6), ("envío", 6), ("pago", 6))
    chunks = SemanticChunker(TopicEmbedder(), breakpoint_percentile=80).split(Document.from_text(text, "doc"))
    assert [c.body.count("pan") for c in chunks] == [6, 0, 0]
    assert [c.body.count("envío") for c in chunks] == [0, 6, 0]
    assert [c.body.count("pago") for c in chunks] == [0, 0, 6]
    assert [c.source["cut"] for c in chunks] == ["start", "jump", "jump"]
    assert [c.id for c in chunks] == ["doc:00", "doc:01", "doc:02"]


def test_the_jumps_show_each_distance_and_the_percentile_that_cuts() -> None:
    text = topic_text(("pan", 5), ("envío", 5))
    jumps = SemanticChunker(TopicEmbedder(), buffer_size=0).sentence_jumps(Document.from_text(text, "doc"))
    assert len(jumps.spans) == 10 and jumps.distances.shape == (9,) and jumps.embedded == 10
    assert jumps.distances[4] > 0.5 and np.allclose(np.delete(jumps.distances, 4), 0.0, atol=1e-6)
    assert jumps.threshold == pytest.approx(np.percentile(jumps.distances, 95))
    assert jumps.breakpoints == [4]


def test_each_sentence_is_embedded_with_its_neighbours() -> None:
    embedder = TopicEmbedder()
    text = "Uno sobre pan. Dos sobre pan. Tres sobre envío. Cuatro sobre envío."
    SemanticChunker(embedder, buffer_size=1).split(Document.from_text(text, "doc"))
    assert embedder.calls == [["Uno sobre pan. Dos sobre pan.", "Uno sobre pan. Dos sobre pan. Tres sobre envío.",
                               "Dos sobre pan. Tres sobre envío. Cuatro sobre envío.",
                               "Tres sobre envío. Cuatro sobre envío."]]


def test_a_page_is_cut_section_by_section_with_a_breadcrumb_and_section_ids() -> None:
    b = Blocks()
    embedder = TopicEmbedder()
    doc = page_document(b.heading(2, "Pan"), *[b.paragraph(f"El pan {k} dura tres días.") for k in range(4)],
                        *[b.paragraph(f"El envío {k} sale el martes.") for k in range(4)],
                        b.heading(2, "Pagos"), b.paragraph("Aceptamos pago con tarjeta."))
    chunks = SemanticChunker(embedder, buffer_size=0).split(doc)
    assert [c.id for c in chunks] == ["p7:pan:00", "p7:pan:01", "p7:pagos:00"]
    assert [c.source["cut"] for c in chunks] == ["start", "jump", "start"]
    assert chunks[1].text.startswith("Ficha: Pan de muerto > Pan\nEl envío 0 sale el martes.")
    assert chunks[2].text == "Ficha: Pan de muerto > Pagos\nAceptamos pago con tarjeta."
    assert all(doc.text[c.start:c.end] == c.body for c in chunks)
    assert len(chunks[0].source["block_ids"]) == 4
    # a window never reaches across a heading, and a lone sentence in its section is not embedded
    assert not any("envío" in t and "Aceptamos" in t for call in embedder.calls for t in call)
    assert sum(len(call) for call in embedder.calls) == 8


def test_a_table_header_row_stays_with_the_first_row_and_heads_a_chunk_starting_inside_the_table() -> None:
    b = Blocks()
    rows = [["Pieza", "Días"]] + [[f"pan número {k}", f"{k} días."] for k in range(6)] \
        + [[f"envío número {k}", f"{k} días."] for k in range(6)]
    doc = page_document(b.heading(2, "Tabla"), b.table(rows))
    chunker = SemanticChunker(TopicEmbedder(), buffer_size=0)
    assert doc.text[slice(*chunker.sentence_jumps(doc).spans[0])] == "Pieza | Días\npan número 0 | 0 días."
    chunks = chunker.split(doc)
    assert len(chunks) == 2 and chunks[1].body.startswith("envío número 0")
    assert chunks[1].text.split("\n")[:2] == ["Ficha: Pan de muerto > Tabla", "Pieza | Días"]


def test_a_markdown_heading_and_a_table_head_stay_with_the_sentence_after_them() -> None:
    markdown = ("# Guía\n\nTodo sobre pan aquí. Más pan.\n\n## Envíos\n\nEl envío sale el martes.\n\n"
                "| Zona | envío |\n| --- | --- |\n| Centro | 45 |\n| Norte | 60 |")
    doc = Document.from_markdown(markdown, "guides/guia.md")
    jumps = SemanticChunker(TopicEmbedder()).sentence_jumps(doc)
    sentences = [markdown[a:b] for a, b in jumps.spans]
    assert sentences == ["# Guía\n\nTodo sobre pan aquí.", "Más pan.", "## Envíos\n\nEl envío sale el martes.",
                         "| Zona | envío |\n| --- | --- |\n| Centro | 45 |", "| Norte | 60 |"]
    chunks = SemanticChunker(TopicEmbedder(), breakpoint_percentile=0, max_chars=60).split(doc)
    assert chunks[-1].body == "| Norte | 60 |" and chunks[-1].text == "| Zona | envío |\n| --- | --- |\n| Norte | 60 |"


def test_a_sentence_ending_in_a_period_inside_a_table_row_is_not_cut() -> None:
    markdown = "| Campo | Tipo |\n| --- | --- |\n| `end` | Fin del turno. |\n| `role` | Rol. |"
    jumps = SemanticChunker(TopicEmbedder()).sentence_jumps(Document.from_markdown(markdown, "api/x.md"))
    assert [markdown[a:b] for a, b in jumps.spans][-1] == "| `role` | Rol. |"


def test_a_long_topic_is_cut_again_to_fit_the_budget_at_its_largest_jump() -> None:
    text = topic_text(("pan", 4), ("envío", 1), ("pan", 4))
    chunker = SemanticChunker(TopicEmbedder(), breakpoint_percentile=100, buffer_size=0, max_chars=200)
    chunks = chunker.split(Document.from_text(text, "doc"))
    assert all(len(c.body) <= 200 for c in chunks)
    assert chunks[0].body.endswith("Frase 3 sobre pan y nada más.") and chunks[1].source["cut"] == "budget"
    assert chunks[1].body.startswith("Frase 0 sobre envío")


def test_identical_sentences_give_no_jump_and_balanced_pieces_under_the_budget() -> None:
    text = " ".join(["El pan se hornea cada mañana."] * 12)
    chunker = SemanticChunker(TopicEmbedder(), buffer_size=0, max_chars=100)
    jumps = chunker.sentence_jumps(Document.from_text(text, "doc"))
    assert np.ptp(jumps.distances) == 0 and jumps.breakpoints == []
    sizes = [len(c.body) for c in chunker.split(Document.from_text(text, "doc"))]
    assert max(sizes) <= 100 and len(sizes) == 4 and max(sizes) - min(sizes) <= 30


def test_one_sentence_or_none_needs_no_embedding() -> None:
    embedder = TopicEmbedder()
    (only,) = SemanticChunker(embedder).split(Document.from_text("Sólo una frase sobre pan.", "doc", title="Nota"))
    assert (only.id, only.text, only.source) == ("doc:00", "Nota\nSólo una frase sobre pan.",
                                                 {"cut": "start", "distance": None})
    assert SemanticChunker(embedder).split(Document.from_text("  \n\n ", "doc")) == []
    b = Blocks()
    assert SemanticChunker(embedder).split(page_document(b.heading(2, "Vacía"), b.heading(2, "También"))) == []
    assert embedder.calls == []
    assert SemanticChunker(embedder).sentence_jumps(Document.from_text("Una.", "doc")).threshold is None


def test_a_code_block_is_one_sentence_and_may_stand_alone_over_the_budget() -> None:
    code = "```python\n" + "\n".join(f"x_{k} = {k}. y = 2" for k in range(20)) + "\n```"
    markdown = f"Antes del código, sobre pan.\n\n{code}\n\nDespués, sobre envío."
    chunks = SemanticChunker(TopicEmbedder(), max_chars=80).split(Document.from_markdown(markdown, "a.md"))
    assert code in [c.body for c in chunks]
    assert all(len(c.body) <= 80 for c in chunks if c.body != code)


def test_chinese_sentences_end_at_the_full_width_stops() -> None:
    text = "面包每天早上烤。面包可以冷冻吗？可以！"
    jumps = SemanticChunker(TopicEmbedder()).sentence_jumps(Document.from_text(text, "zh"))
    assert [text[a:b] for a, b in jumps.spans] == ["面包每天早上烤。", "面包可以冷冻吗？", "可以！"]


def test_the_same_document_gives_the_same_ids_and_fingerprints() -> None:
    text = topic_text(("pan", 5), ("envío", 7), ("pago", 3))
    first = SemanticChunker(HashEmbedder(), max_chars=150).split(Document.from_text(text, "doc"))
    again = SemanticChunker(HashEmbedder(), max_chars=150).split(Document.from_text(text, "doc"))
    assert [(c.id, c.fingerprint, c.start, c.end) for c in first] == [(c.id, c.fingerprint, c.start, c.end)
                                                                      for c in again]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(paragraph(), min_size=1, max_size=10), st.integers(20, 400), st.integers(0, 2),
       st.floats(0, 100))
def test_chunks_are_exact_slices_covering_every_character_once_within_budget(paragraphs, size, buffer,
                                                                             percentile) -> None:
    text = "\n\n".join(paragraphs)
    chunker = SemanticChunker(HashEmbedder(), breakpoint_percentile=percentile, buffer_size=buffer, max_chars=size)
    chunks = chunker.split(Document.from_text(text, "doc"))
    covered = bytearray(len(text))
    for c in chunks:
        assert text[c.start:c.end] == c.body and len(c.body) <= size
        assert not any(covered[c.start:c.end])
        covered[c.start:c.end] = b"\x01" * (c.end - c.start)
    assert all(covered[k] or ch.isspace() for k, ch in enumerate(text))
    assert [c.id for c in chunks] == [f"doc:{k:02d}" for k in range(len(chunks))]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(block_stream(), st.integers(20, 400), st.integers(0, 2))
def test_page_chunks_stay_in_their_section_and_cover_every_body_character(stream, size, buffer) -> None:
    flat = flatten_blocks(stream)
    chunks = SemanticChunker(HashEmbedder(), buffer_size=buffer, max_chars=size).split(
        Document.from_notion_page(flat, PAGE))
    assert len({c.id for c in chunks}) == len(chunks)
    code = [(line.start, line.end) for line in flat.lines if line.block_type == "code"]
    covered = set()
    for c in chunks:
        (section,) = [s for s in flat.sections if s.body_start <= c.start and c.end <= s.body_end]
        assert c.section == section.title and flat.text[c.start:c.end] == c.body
        assert len(c.body) <= size or (c.start, c.end) in code
        covered.update(range(c.start, c.end))
    bodies = (k for s in flat.sections for k in range(s.body_start, s.body_end))
    assert all(k in covered or flat.text[k].isspace() for k in bodies)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(markdown_page(), st.integers(20, 400))
def test_markdown_chunks_keep_fences_whole_and_the_budget_otherwise(markdown, size) -> None:
    chunks = SemanticChunker(HashEmbedder(), max_chars=size).split(Document.from_markdown(markdown, "a.md"))
    fences = find_fences(markdown)
    for c in chunks:
        assert markdown[c.start:c.end] == c.body
        assert len(c.body) <= size or any(c.start <= a and b <= c.end for a, b in fences)
        assert not any(a < c.start < b or a < c.end < b for a, b in fences)


@pytest.mark.parametrize(("params", "message"), [
    ({"embedder": object()}, "embedder must have embed_documents"),
    ({"breakpoint_percentile": 101}, "breakpoint_percentile must be a number between 0 and 100"),
    ({"breakpoint_percentile": float("nan")}, "breakpoint_percentile"),
    ({"breakpoint_percentile": True}, "breakpoint_percentile"),
    ({"buffer_size": -1}, "buffer_size must be a whole number"),
    ({"buffer_size": 1.5}, "buffer_size"),
    ({"max_chars": 0}, "max_chars must be a positive integer"),
    ({"input_limit": 0}, "input_limit must be a positive whole number"),
])
def test_parameters_that_cannot_work_are_refused_when_splitting(params, message) -> None:
    chunker = SemanticChunker(**({"embedder": TopicEmbedder()} | params))
    with pytest.raises(ChunkerParameterError, match=message):
        chunker.split(Document.from_text("Una frase. Otra frase.", "doc"))


def test_an_embedder_that_returns_the_wrong_rows_is_named() -> None:
    class Short:
        def embed_documents(self, texts):
            return SimpleNamespace(vectors=np.ones((1, 3), dtype=np.float32))

    with pytest.raises(ChunkingError, match=r"vectors of shape \(1, 3\) for 2 sentences"):
        SemanticChunker(Short()).split(Document.from_text("Una frase. Otra frase.", "doc"))


def test_a_chunk_longer_than_the_input_limit_is_refused() -> None:
    text = topic_text(("pan", 8))
    with pytest.raises(InputTooLongError, match="doc:00"):
        SemanticChunker(TopicEmbedder(), input_limit=20).split(Document.from_text(text, "doc"))


@pytest.fixture(scope="module")
def e5() -> E5Embedder:
    """multilingual-e5-small, loaded once (skipped only where its package has no build)."""
    reason = e5_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    return E5Embedder()


def test_e5_cuts_six_sentences_where_allergens_give_way_to_deliveries(e5: E5Embedder) -> None:
    allergens = ("El rol de canela lleva nuez picada en el relleno. Si tienes alergia a la nuez, no lo pidas. "
                 "Tampoco recomendamos el brownie, que lleva nuez encima.")
    deliveries = ("Hacemos envíos a domicilio de martes a domingo. El envío a Narvarte cuesta 45 pesos. "
                  "Los pedidos de más de 500 pesos viajan gratis.")
    chunks = SemanticChunker(e5, buffer_size=0).split(Document.from_text(f"{allergens} {deliveries}", "doc"))
    assert [c.body for c in chunks] == [allergens, deliveries]
