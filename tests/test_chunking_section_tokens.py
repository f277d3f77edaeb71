"""Token windows within sections: L tokens advancing L - s, stable ids, exact offsets."""

from __future__ import annotations

import dataclasses

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunking_strategies import block_stream
from lab.chunking import (
    ChunkerParameterError, Document, MalformedPageError, SectionTokenChunker, chunks_to_frame, count_tokens,
    flatten_blocks, token_spans,
)
from lab.notion import PageMetadata
from notion_blocks import Blocks, page_object, traverse

PAGE = PageMetadata(id="p1", title="Política de cancelaciones", type="politica", edited="2026-03-20T17:42:00.000Z")


def words(n: int, stem: str = "palabra") -> str:
    return " ".join(f"{stem}{k}" for k in range(n))


def flat_page(*nodes):
    return flatten_blocks(traverse(list(nodes)))


def document(flat, page=PAGE) -> Document:
    return Document.from_notion_page(flat, page)


def test_a_section_of_325_tokens_gives_two_windows_of_300_and_75_sharing_50() -> None:
    b = Blocks()
    flat = flat_page(b.heading(2, "Plazos para cancelar"), b.paragraph(words(325)))
    chunks = SectionTokenChunker().split(document(flat))
    assert [c.tokens for c in chunks] == [300, 75]
    first, second = (set(range(k * 250, k * 250 + c.tokens)) for k, c in enumerate(chunks))
    assert len(first & second) == 50
    assert chunks[1].body.startswith("palabra250 ") and chunks[0].body.endswith(" palabra299")


@pytest.mark.parametrize(("tokens", "expected"), [(0, 0), (1, 1), (300, 1), (301, 2), (550, 2), (551, 3), (1000, 4)])
def test_expected_chunks_follows_the_formula(tokens: int, expected: int) -> None:
    assert SectionTokenChunker().expected_chunks(tokens) == expected


@pytest.mark.parametrize(("size", "overlap"), [(0, 0), (10, 10), (10, -1), (5, 7)])
def test_sizes_that_cannot_advance_are_refused(size: int, overlap: int) -> None:
    with pytest.raises(ChunkerParameterError, match="must be"):
        SectionTokenChunker(size, overlap).split(document(flat_page(Blocks().paragraph("x"))))


def test_parameters_are_stored_unchanged() -> None:
    chunker = SectionTokenChunker(max_tokens=120, overlap=20)
    assert (chunker.max_tokens, chunker.overlap) == (120, 20)


def test_windows_never_cross_a_section() -> None:
    b = Blocks()
    flat = flat_page(b.heading(2, "Uno"), b.paragraph(words(8, "a")), b.heading(2, "Dos"), b.paragraph(words(8, "b")))
    chunks = SectionTokenChunker(max_tokens=5, overlap=1).split(document(flat))
    assert [c.section for c in chunks] == ["Uno", "Uno", "Dos", "Dos"]
    for chunk in chunks:
        assert {word[0] for word in chunk.body.split()} == {"a" if chunk.section == "Uno" else "b"}


def test_chunk_text_is_a_page_and_section_header_then_the_body() -> None:
    b = Blocks()
    flat = flat_page(b.paragraph("Intro."), b.heading(2, "Alérgenos"), b.callout("Lleva nuez en la receta."))
    lead, allergens = SectionTokenChunker().split(document(flat))
    assert lead.text == "Política de cancelaciones\nIntro."
    assert allergens.text == "Política de cancelaciones > Alérgenos\nAviso: Lleva nuez en la receta."
    assert allergens.fingerprint == hashlib.sha256(allergens.text.encode()).hexdigest()[:16]
    assert (allergens.page_id, allergens.title, allergens.type, allergens.edited, allergens.chunker) == (
        "p1", "Política de cancelaciones", "politica", "2026-03-20T17:42:00.000Z", "section_tokens")


def test_ids_name_the_page_the_section_and_the_window() -> None:
    b = Blocks()
    flat = flat_page(b.paragraph("Intro"), b.heading(2, "Cómo cancelar"), b.paragraph(words(12)),
                     b.heading(2, "Cómo cancelar"), b.paragraph("Otra"), b.heading(3, "¿¿??"), b.paragraph("x"))
    ids = [c.id for c in SectionTokenChunker(max_tokens=10, overlap=2).split(document(flat))]
    assert ids == ["p1:_:00", "p1:como-cancelar:00", "p1:como-cancelar:01", "p1:como-cancelar-2:00", "p1:section:00"]


def test_ids_stay_put_when_an_unrelated_section_grows_while_order_moves() -> None:
    b = Blocks()
    short = [b.heading(2, "Plazos"), b.paragraph(words(20)), b.heading(2, "Anticipos"), b.paragraph(words(30, "c"))]
    grown = [b.heading(2, "Plazos"), b.paragraph(words(60)), b.heading(2, "Anticipos"), b.paragraph(words(30, "c"))]
    chunker = SectionTokenChunker(max_tokens=25, overlap=5)
    before = {c.id: c for c in chunker.split(document(flat_page(*short))) if c.section == "Anticipos"}
    after = {c.id: c for c in chunker.split(document(flat_page(*grown))) if c.section == "Anticipos"}
    assert before.keys() == after.keys()
    assert all(before[k].fingerprint == after[k].fingerprint for k in before)
    assert [c.order for c in before.values()] != [c.order for c in after.values()]


def test_ids_do_not_depend_on_other_pages() -> None:
    b = Blocks()
    chunker = SectionTokenChunker(max_tokens=10, overlap=3)
    page_a = flat_page(b.heading(2, "Horario"), b.paragraph(words(25)))
    alone = [c.id for c in chunker.split(document(page_a))]
    chunker.split(document(flat_page(b.heading(2, "Horario"), b.paragraph(words(90))), dataclasses.replace(PAGE, id="p2")))
    assert [c.id for c in chunker.split(document(page_a))] == alone


def test_a_window_that_starts_inside_a_table_repeats_the_table_header() -> None:
    b = Blocks()
    rows = [["Pieza", "Precio"]] + [[f"Pieza{k}", f"${k}"] for k in range(10)]
    flat = flat_page(b.heading(2, "Precios"), b.table(rows))
    chunks = SectionTokenChunker(max_tokens=12, overlap=4).split(document(flat))
    assert chunks[0].text.startswith("Política de cancelaciones > Precios\nPieza | Precio\nPieza0")
    for chunk in chunks[1:]:
        assert chunk.text.startswith("Política de cancelaciones > Precios\nPieza | Precio\n")
        assert "Pieza | Precio" not in chunk.body


def test_bodies_keep_the_page_whitespace_and_code_indentation() -> None:
    b = Blocks()
    code = "def total(piezas):\n    suma = 0\n    for p in piezas:\n        suma += p\n    return suma"
    flat = flat_page(b.heading(2, "Plantilla"), b.code(code), b.toggle("¿Y luego?", b.paragraph("Se  paga.")))
    chunk, = SectionTokenChunker().split(document(flat))
    assert chunk.body == f"```python\n{code}\n```\nPregunta: ¿Y luego?\n  Se  paga."


def test_the_page_is_described_by_its_page_metadata() -> None:
    b = Blocks()
    page = PageMetadata.from_page(page_object(title="Ficha: Rol de canela"))
    chunk, = SectionTokenChunker().split(document(flat_page(b.paragraph("Hola")), page))
    assert chunk.title == "Ficha: Rol de canela" and chunk.type == "ficha"


def test_a_page_description_without_id_or_title_is_refused() -> None:
    with pytest.raises(MalformedPageError, match="expected the page's PageMetadata"):
        document(flat_page(Blocks().paragraph("x")), {"title": "Sin id"})
    with pytest.raises(MalformedPageError, match="has no id"):
        document(flat_page(Blocks().paragraph("x")), PageMetadata(id="", title="Sin id"))


def test_chunks_convert_to_dicts_and_a_frame_with_one_column_per_field() -> None:
    b = Blocks()
    chunks = SectionTokenChunker(max_tokens=3, overlap=1).split(document(flat_page(b.paragraph(words(7)))))
    frame = chunks_to_frame(chunks)
    assert list(frame.columns) == list(chunks[0].to_dict())
    assert frame["tokens"].tolist() == [3, 3, 3]
    assert list(chunks_to_frame([]).columns) == list(frame.columns)


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(block_stream(), st.integers(1, 30), st.data())
def test_windows_cover_every_token_share_exactly_s_tokens_and_match_the_formula(stream, size, data) -> None:
    overlap = data.draw(st.integers(0, size - 1))
    flat = flatten_blocks(stream)
    chunker = SectionTokenChunker(max_tokens=size, overlap=overlap)
    chunks = chunker.split(document(flat))
    assert len({c.id for c in chunks}) == len(chunks)
    assert [c.order for c in chunks] == list(range(len(chunks)))
    by_section = {}
    for chunk in chunks:
        assert flat.text[chunk.start:chunk.end] == chunk.body
        assert chunk.tokens == count_tokens(chunk.body) <= size
        by_section.setdefault(chunk.id.rsplit(":", 1)[0], []).append(chunk)
    for section in flat.sections:
        spans = [(s + section.body_start, e + section.body_start) for s, e in token_spans(flat.body(section))]
        mine = [c for c in chunks if section.body_start <= c.start and c.end <= section.body_end]
        assert len(mine) == chunker.expected_chunks(len(spans))
        windows = [[k for k, (s, e) in enumerate(spans) if c.start <= s and e <= c.end] for c in mine]
        assert sorted({k for w in windows for k in w}) == list(range(len(spans)))
        for prev, nxt in zip(windows, windows[1:]):
            assert len(set(prev) & set(nxt)) == overlap


def test_each_chunk_names_the_blocks_its_body_came_from() -> None:
    b = Blocks()
    first, second, third = b.paragraph(words(6, "a")), b.bulleted(words(6, "b")), b.paragraph(words(6, "c"))
    flat = flat_page(b.heading(2, "S"), first, second, third)
    # 6 + 7 ("-" is a token) + 6 tokens in windows 0-8, 6-14, 12-19.
    chunks = SectionTokenChunker(max_tokens=8, overlap=2).split(document(flat))
    ids = [first.block["id"], second.block["id"], third.block["id"]]
    assert [c.source["block_ids"] for c in chunks] == [ids[:2], ids[1:], ids[1:]]
