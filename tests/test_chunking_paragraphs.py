"""Paragraph chunking: whole paragraphs up to a character budget, overlap on a word boundary."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunking_strategies import block_stream, paragraph
from lab.chunking import ChunkerParameterError, Document, ParagraphChunker, flatten_blocks
from lab.notion import PageMetadata
from notion_blocks import Blocks, traverse

PAGE = PageMetadata(id="p7", title="Preguntas frecuentes: conservación", type="faq", edited="2026-04-08T13:55:00.000Z")


def flat_page(*nodes):
    return flatten_blocks(traverse(list(nodes)))


def document(flat) -> Document:
    return Document.from_notion_page(flat, PAGE)


def test_paragraphs_are_accumulated_up_to_the_budget() -> None:
    text = "\n\n".join(["a" * 300, "b" * 300, "c" * 300, "d" * 300])
    chunks = ParagraphChunker(max_chars=650, overlap_chars=0).split(Document.from_text(text, "doc"))
    assert [c.body for c in chunks] == [f"{'a' * 300}\n\n{'b' * 300}", f"{'c' * 300}\n\n{'d' * 300}"]


def test_each_chunk_starts_with_the_end_of_the_previous_one_on_a_word_boundary() -> None:
    text = "\n\n".join(" ".join(f"w{p}x{k}" for k in range(40)) for p in range(6))
    chunks = ParagraphChunker(max_chars=400, overlap_chars=80).split(Document.from_text(text, "doc"))
    for prev, nxt in zip(chunks, chunks[1:]):
        shared = text[nxt.start:prev.end]
        assert 0 < len(shared) <= 80 and prev.body.endswith(shared) and nxt.body.startswith(shared)
        assert text[nxt.start - 1].isspace()


def test_a_title_heads_plain_text_chunks() -> None:
    (only,) = ParagraphChunker().split(Document.from_text("Short note.", "n01", title="Summary statistics"))
    assert (only.id, only.text, only.title, only.section) == (
        "n01:00", "Summary statistics\nShort note.", "Summary statistics", None)


def test_chinese_paragraphs_are_cut_at_sentence_ends() -> None:
    text = "营业时间为早上八点到晚上七点。周一休息！节假日是否营业？请查看公告。" * 20
    chunks = ParagraphChunker(max_chars=80, overlap_chars=20).split(Document.from_text(text, "zh"))
    assert len(chunks) > 1 and all(c.body[-1] in "。？！" for c in chunks)
    for prev, nxt in zip(chunks, chunks[1:]):
        assert text[nxt.start - 1] in "。？！，" and nxt.start <= prev.end


def test_flattened_pages_are_cut_section_by_section_with_a_breadcrumb() -> None:
    b = Blocks()
    flat = flat_page(b.heading(2, "Pan"), *[b.paragraph(f"El pan número {k} dura tres días.") for k in range(20)],
                     b.heading(2, "Pasteles"), b.paragraph("Refrigerar."))
    chunks = ParagraphChunker(max_chars=200, overlap_chars=40).split(document(flat))
    assert {c.section for c in chunks} == {"Pan", "Pasteles"}
    assert chunks[-1].text == "Preguntas frecuentes: conservación > Pasteles\nRefrigerar."
    assert [c.id for c in chunks][-2:] == [f"p7:pan:{len(chunks) - 2:02d}", "p7:pasteles:00"]
    assert all(len(c.body) <= 200 for c in chunks)


def test_a_toggle_question_stays_with_its_indented_answer() -> None:
    b = Blocks()
    toggles = [b.toggle(f"¿Pregunta {k}?", b.paragraph(f"Respuesta {k} con algo de detalle.")) for k in range(10)]
    flat = flat_page(b.heading(2, "FAQ"), *toggles)
    chunks = ParagraphChunker(max_chars=120, overlap_chars=0).split(document(flat))
    for c in chunks:
        questions = [line for line in c.body.split("\n") if line.startswith("Pregunta:")]
        assert len(questions) == c.body.count("  Respuesta")


def test_a_code_block_is_never_cut_and_may_stand_alone_over_the_budget() -> None:
    b = Blocks()
    code = "\n".join(f"linea_{k} = {k}" for k in range(30))
    flat = flat_page(b.paragraph("Antes."), b.code(code, "python"), b.paragraph("Después."))
    bodies = [c.body for c in ParagraphChunker(max_chars=100, overlap_chars=20).split(document(flat))]
    assert f"```python\n{code}\n```" in bodies


def test_a_chunk_that_starts_inside_a_table_repeats_the_header_row() -> None:
    b = Blocks()
    rows = [["Pieza", "Días"]] + [[f"Pieza número {k}", f"{k} días"] for k in range(30)]
    flat = flat_page(b.heading(2, "Tabla"), b.table(rows))
    chunks = ParagraphChunker(max_chars=150, overlap_chars=30).split(document(flat))
    assert len(chunks) > 2
    assert all(c.text.split("\n")[1] == "Pieza | Días" for c in chunks)


@pytest.mark.parametrize(("size", "overlap"), [(0, 0), (50, 50)])
def test_budgets_that_cannot_advance_are_refused(size: int, overlap: int) -> None:
    with pytest.raises(ChunkerParameterError):
        ParagraphChunker(size, overlap).split(Document.from_text("x", "doc"))


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.lists(paragraph(), min_size=1, max_size=12), st.integers(10, 300), st.data())
def test_plain_text_chunks_cover_every_character_within_budget_and_overlap(paragraphs, size, data) -> None:
    overlap = data.draw(st.integers(0, size - 1))
    text = "\n\n".join(paragraphs)
    chunks = ParagraphChunker(max_chars=size, overlap_chars=overlap).split(Document.from_text(text, "doc"))
    covered = bytearray(len(text))
    for c in chunks:
        assert text[c.start:c.end] == c.body and len(c.body) <= size
        covered[c.start:c.end] = b"\x01" * (c.end - c.start)
    assert all(covered[k] or ch.isspace() for k, ch in enumerate(text))
    assert len({c.id for c in chunks}) == len(chunks)
    for prev, nxt in zip(chunks, chunks[1:]):
        assert prev.start < nxt.start and prev.end - nxt.start <= overlap


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(block_stream(), st.integers(10, 300), st.data())
def test_flattened_chunks_cover_every_body_character_and_stay_in_their_section(stream, size, data) -> None:
    overlap = data.draw(st.integers(0, size - 1))
    flat = flatten_blocks(stream)
    chunks = ParagraphChunker(max_chars=size, overlap_chars=overlap).split(document(flat))
    assert len({c.id for c in chunks}) == len(chunks)
    code = [(line.start, line.end) for line in flat.lines if line.block_type == "code"]
    for section in flat.sections:
        mine = [c for c in chunks if section.body_start <= c.start and c.end <= section.body_end]
        covered = set()
        for c in mine:
            assert flat.text[c.start:c.end] == c.body
            assert len(c.body) <= size or (c.start, c.end) in code
            covered.update(range(c.start, c.end))
        body = range(section.body_start, section.body_end)
        assert all(k in covered or flat.text[k].isspace() for k in body)
    placed = [c for s in flat.sections for c in chunks if s.body_start <= c.start and c.end <= s.body_end]
    assert len(placed) == len(chunks)


def test_ids_stay_put_when_an_unrelated_section_grows() -> None:
    b = Blocks()

    def page(n: int):
        return flat_page(b.heading(2, "Pan"), *[b.paragraph(f"Frase {k} sobre el pan.") for k in range(n)],
                         b.heading(2, "Pasteles"), *[b.paragraph(f"Frase {k} sobre pasteles.") for k in range(12)])

    chunker = ParagraphChunker(max_chars=120, overlap_chars=30)
    before = {c.id: c.fingerprint for c in chunker.split(document(page(3))) if c.section == "Pasteles"}
    after = {c.id: c.fingerprint for c in chunker.split(document(page(30))) if c.section == "Pasteles"}
    assert before == after and len(before) > 1


def test_flattened_chunks_name_their_blocks_and_plain_text_chunks_have_none() -> None:
    b = Blocks()
    toggle = b.toggle("¿Se congela?", b.paragraph("Sí, hasta un mes."))
    (chunk,) = ParagraphChunker().split(document(flat_page(b.heading(2, "Frío"), toggle)))
    assert chunk.source == {"block_ids": [toggle.block["id"], toggle.children[0].block["id"]]}
    assert ParagraphChunker().split(Document.from_text("Hola.", "doc"))[0].source == {}
