"""Flattening Notion blocks: headings open sections, every other block keeps its role."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from chunking_strategies import block_stream
from lab.chunking import (
    MARKERS_EN, FlatDocument, MalformedBlockError, flatten_blocks,
)
from notion_blocks import Blocks, run, traverse


def flat_of(*nodes, markers=None) -> FlatDocument:
    return flatten_blocks(traverse(list(nodes)), **({"markers": markers} if markers else {}))


def body_lines(flat: FlatDocument, section: int = -1) -> list[str]:
    return flat.body(flat.sections[section]).split("\n")


def test_headings_open_sections_and_text_before_the_first_heading_is_a_lead_section() -> None:
    b = Blocks()
    flat = flat_of(b.paragraph("Bienvenida."), b.heading(2, "Alérgenos"), b.paragraph("Contiene nuez."),
                   b.heading(1, "Precios"), b.heading(3, "Mayoreo"), b.paragraph("Desde 20 piezas."))
    assert [(s.title, s.level) for s in flat.sections] == [
        (None, 0), ("Alérgenos", 2), ("Precios", 1), ("Mayoreo", 3)]
    assert flat.text == "Bienvenida.\n## Alérgenos\nContiene nuez.\n# Precios\n### Mayoreo\nDesde 20 piezas."


def test_section_offsets_locate_the_heading_line_and_the_body_exactly() -> None:
    b = Blocks()
    flat = flat_of(b.paragraph("Antes."), b.heading(2, "Horario"), b.paragraph("De 8:00 a 14:00."),
                   b.bulleted("Domingo cerrado."), b.heading(2, "Vacía"), b.heading(2, "Final"), b.quote("Fin"))
    lead, hours, empty, final = flat.sections
    assert flat.text[lead.body_start:lead.body_end] == "Antes."
    assert flat.text[hours.start:hours.end] == "## Horario"
    assert flat.body(hours) == "De 8:00 a 14:00.\n- Domingo cerrado."
    assert flat.body(empty) == "" and flat.text[empty.start:empty.end] == "## Vacía"
    assert flat.body(final) == "> Fin"


def test_a_page_without_text_before_its_first_heading_has_no_lead_section() -> None:
    b = Blocks()
    flat = flat_of(b.divider(), b.paragraph("   "), b.heading(2, "Plazos"), b.paragraph("48 horas."))
    assert [s.title for s in flat.sections] == ["Plazos"]


def test_every_line_records_its_block_id_type_and_exact_offsets() -> None:
    b = Blocks()
    para, bullet = b.paragraph("Uno."), b.bulleted("Dos.")
    flat = flat_of(b.heading(2, "S"), para, bullet)
    assert [(line.block_id, line.block_type) for line in flat.lines] == [
        (para.block["id"], "paragraph"), (bullet.block["id"], "bulleted_list_item")]
    assert all(flat.text[line.start:line.end] == line.text for line in flat.lines)
    assert flat.section_lines(0) == list(flat.lines)


def test_rich_text_runs_are_concatenated_in_order() -> None:
    b = Blocks()
    flat = flat_of(b.paragraph([run("Contiene "), run("nuez", bold=True), run(" y "),
                                run("leche", link="https://trigolento.mx")]))
    assert flat.text == "Contiene nuez y leche"


def test_bulleted_items_nest_two_spaces_per_level() -> None:
    b = Blocks()
    flat = flat_of(b.bulleted("Pan", b.bulleted("Integral", b.bulleted("Con semillas"))), b.bulleted("Dulce"))
    assert flat.text == "- Pan\n  - Integral\n    - Con semillas\n- Dulce"


def test_numbered_items_are_numbered_within_each_run_of_siblings() -> None:
    b = Blocks()
    flat = flat_of(
        b.numbered("Elija la pieza", b.numbered("Revise alérgenos"), b.numbered("Revise precio")),
        b.numbered("Indique la fecha"),
        b.paragraph("Después:"),
        b.numbered("Pague el anticipo"),
    )
    assert flat.text == ("1. Elija la pieza\n  1. Revise alérgenos\n  2. Revise precio\n2. Indique la fecha\n"
                         "Después:\n1. Pague el anticipo")


def test_to_dos_show_whether_they_are_checked() -> None:
    b = Blocks()
    assert flat_of(b.to_do("Hornear", checked=True), b.to_do("Empacar")).text == "[x] Hornear\n[ ] Empacar"


def test_a_toggle_is_a_question_with_its_answer_indented_below() -> None:
    b = Blocks()
    flat = flat_of(b.toggle("¿Cuánto dura el pan?", b.paragraph("Tres días."), b.bulleted("Congelado, un mes.")))
    assert flat.text == "Pregunta: ¿Cuánto dura el pan?\n  Tres días.\n  - Congelado, un mes."


def test_callouts_and_quotes_keep_their_role() -> None:
    b = Blocks()
    flat = flat_of(b.callout("Lleva nuez en la receta.", b.paragraph("Pregunte por trazas.")), b.quote("Hecho a mano."))
    assert flat.text == "Aviso: Lleva nuez en la receta.\n  Pregunte por trazas.\n> Hecho a mano."


def test_english_markers_change_only_the_language_of_the_prefixes() -> None:
    b = Blocks()
    flat = flat_of(b.toggle("How long?", b.paragraph("Three days.")), b.callout("Contains nuts."),
                   b.image("Fresh bread"), b.equation("d = 0.5 p"), b.bulleted("item"), markers=MARKERS_EN)
    assert flat.text == ("Question: How long?\n  Three days.\nNote: Contains nuts.\nImage: Fresh bread\n"
                         "Equation: d = 0.5 p\n- item")


def test_code_becomes_a_fenced_block_with_its_language_and_indentation() -> None:
    b = Blocks()
    code = "def anticipo(total):\n    # la mitad por adelantado\n    return total * 0.5"
    flat = flat_of(b.code(code, "python"), b.code("Hola\n\tpedido", "plain text"))
    assert flat.text == f"```python\n{code}\n```\n```text\nHola\n\tpedido\n```"


def test_code_nested_in_a_toggle_keeps_its_own_indentation_under_the_nesting() -> None:
    b = Blocks()
    flat = flat_of(b.toggle("¿Plantilla?", b.code("Pedido:\n  pieza: rol", "yaml")))
    assert flat.text == "Pregunta: ¿Plantilla?\n  ```yaml\n  Pedido:\n    pieza: rol\n  ```"


def test_code_containing_a_fence_gets_a_longer_fence() -> None:
    b = Blocks()
    flat = flat_of(b.code("```\nx\n```", "markdown"))
    assert flat.text == "````markdown\n```\nx\n```\n````"


def test_table_rows_become_cells_joined_by_bars_and_remember_their_header() -> None:
    b = Blocks()
    flat = flat_of(b.heading(2, "Precios"), b.table([["Pieza", "Precio"], ["Rol de canela", "$38"], ["Concha", "$22"]]))
    assert flat.body(flat.sections[0]) == "Pieza | Precio\nRol de canela | $38\nConcha | $22"
    assert [line.table_header for line in flat.lines] == [None, "Pieza | Precio", "Pieza | Precio"]


def test_a_table_without_a_column_header_repeats_nothing() -> None:
    b = Blocks()
    flat = flat_of(b.table([["Lunes", "cerrado"], ["Martes", "8-19"]], header=False))
    assert flat.text == "Lunes | cerrado\nMartes | 8-19"
    assert all(line.table_header is None for line in flat.lines)


def test_columns_are_read_in_order_without_extra_indentation() -> None:
    b = Blocks()
    flat = flat_of(b.heading(2, "Zonas"), b.columns([b.paragraph("Narvarte: $40"), b.bulleted("Del Valle")],
                                                    [b.paragraph("Roma: $60")]))
    assert flat.body(flat.sections[0]) == "Narvarte: $40\n- Del Valle\nRoma: $60"


def test_synced_content_is_emitted_once_per_page() -> None:
    b = Blocks()
    original = b.synced_original(b.paragraph("Martes a domingo, de 8:00 a 19:00."))
    flat = flat_of(b.heading(2, "Horario"), original, b.heading(2, "Otra vez"), b.synced_reference(original))
    assert flat.text.count("Martes a domingo") == 1
    assert [s.reason for s in flat.skipped] == ["already in this page (synced block content)"]


def test_a_reference_to_an_original_in_another_page_shows_the_original_content() -> None:
    other = Blocks("9f9f9f9f-0000-4000-8000-000000000009")
    original = other.synced_original(other.paragraph("Martes a domingo, de 8:00 a 19:00."))
    b = Blocks()
    flat = flat_of(b.heading(2, "Horario"), b.synced_reference(original))
    assert flat.body(flat.sections[0]) == "Martes a domingo, de 8:00 a 19:00."


def test_child_pages_and_databases_are_named_on_one_line_and_never_descended() -> None:
    b = Blocks()
    page = b.child_page("Receta del rol")
    stream = traverse([page, b.child_database("Pedidos")])
    secret = b.paragraph("Ingredientes secretos").block
    stream.insert(1, (1, secret))  # a client that did descend would yield the sub-page's blocks here
    flat = flatten_blocks(stream)
    assert flat.text == "Subpágina: Receta del rol\nBase de datos: Pedidos"


def test_images_and_bookmarks_contribute_their_captions() -> None:
    b = Blocks()
    flat = flat_of(b.image("Rol recién horneado"), b.image(""), b.image("Pan de muerto", kind="file"),
                   b.bookmark("https://trigolento.mx/menu", "Menú completo"), b.bookmark("https://trigolento.mx/mapa"))
    assert flat.text == ("Imagen: Rol recién horneado\nImagen: Pan de muerto\nEnlace: Menú completo\n"
                         "Enlace: https://trigolento.mx/mapa")


def test_equations_keep_their_expression() -> None:
    b = Blocks()
    assert flat_of(b.equation(r"a = 0.5 \cdot p")).text == r"Ecuación: a = 0.5 \cdot p"


def test_meeting_notes_show_their_title_with_the_notes_indented() -> None:
    b = Blocks()
    flat = flat_of(b.meeting_notes("Junta de precios", b.bulleted("Subir la concha a $24")))
    assert flat.text == "Reunión: Junta de precios\n  - Subir la concha a $24"


def test_meeting_notes_under_their_older_name_transcription_read_the_same() -> None:
    b = Blocks()
    node = b.block("transcription", {"title": [run("Junta de precios")]}, b.paragraph("Acuerdos."))
    assert flat_of(node).text == "Reunión: Junta de precios\n  Acuerdos."


def test_dividers_and_empty_blocks_are_dropped() -> None:
    b = Blocks()
    flat = flat_of(b.paragraph("Uno"), b.divider(), b.paragraph(""), b.bulleted("  "), b.paragraph("Dos"))
    assert flat.text == "Uno\nDos"


def test_toggleable_heading_children_belong_to_its_section_without_indentation() -> None:
    b = Blocks()
    flat = flat_of(b.heading(2, "Envíos", b.paragraph("Zona centro: $40")), b.paragraph("Pago en línea."))
    assert flat.body(flat.sections[0]) == "Zona centro: $40\nPago en línea."


def test_unknown_block_types_are_skipped_and_recorded_but_their_children_kept() -> None:
    b = Blocks()
    odd = b.block("ai_block", {"prompt": "?"}, b.paragraph("Texto dentro."))
    flat = flat_of(b.paragraph("Antes."), odd)
    assert flat.text == "Antes.\nTexto dentro."
    assert [(s.block_id, s.block_type, s.reason) for s in flat.skipped] == [
        (odd.block["id"], "ai_block", "unknown block type")]


def test_blocks_in_trash_are_left_out_with_their_children() -> None:
    b = Blocks()
    trashed = b.block("toggle", {"rich_text": []}, b.paragraph("Borrado"), in_trash=True)
    flat = flat_of(trashed, b.paragraph("Vigente"))
    assert flat.text == "Vigente"
    assert [s.reason for s in flat.skipped] == ["in trash"]


def test_a_depth_that_jumps_more_than_one_level_is_refused() -> None:
    b = Blocks()
    stream = [(0, b.paragraph("a").block), (2, b.paragraph("b").block)]
    with pytest.raises(MalformedBlockError, match="depth 2 after a block at depth 0"):
        flatten_blocks(stream)
    with pytest.raises(MalformedBlockError, match="depth 1 as the first block"):
        flatten_blocks(stream[1:1] + [(1, b.paragraph("c").block)])


def test_a_block_without_its_type_or_content_is_refused_with_its_id() -> None:
    with pytest.raises(MalformedBlockError, match="has no 'type'"):
        flatten_blocks([(0, {"id": "b1"})])
    with pytest.raises(MalformedBlockError, match="'b2' of type 'paragraph' has no 'paragraph' object"):
        flatten_blocks([(0, {"id": "b2", "type": "paragraph"})])


def test_body_tokens_count_the_section_bodies_only() -> None:
    b = Blocks()
    flat = flat_of(b.heading(2, "Título largo del encabezado"), b.paragraph("Dos tokens"))
    assert flat.body_tokens == 2


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(block_stream())
def test_lines_and_sections_tile_the_flattened_text_exactly(stream) -> None:
    flat = flatten_blocks(stream)
    assert all(flat.text[line.start:line.end] == line.text for line in flat.lines)
    pieces = []
    for index, section in enumerate(flat.sections):
        if section.title is not None:
            pieces.append(flat.text[section.start:section.end])
        lines = flat.section_lines(index)
        pieces.extend(line.text for line in lines)
        assert flat.body(section) == "\n".join(line.text for line in lines)
    assert "\n".join(pieces) == flat.text


def test_lines_between_traces_any_stretch_of_text_back_to_its_blocks() -> None:
    b = Blocks()
    one, two, three = b.paragraph("Uno."), b.paragraph("Dos."), b.paragraph("Tres.")
    flat = flat_of(b.heading(2, "S"), one, two, three)
    start = flat.text.index("no.")
    end = flat.text.index("Dos") + 2
    assert [line.block_id for line in flat.lines_between(start, end)] == [one.block["id"], two.block["id"]]
    assert flat.lines_between(0, 4) == []  # the heading line belongs to no block line
