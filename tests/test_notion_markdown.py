"""The page-file format: each Markdown construct reads as one workspace-spec block, and a malformed
file fails with an error that names the file and the line."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from lab.datasets.notion_markdown import (MAX_RUN_CHARS, PageFileError, check_front_matter, parse_blocks,
                                          read_page_file, read_page_order)


def read(text: str, **kwargs: Any) -> list[dict[str, Any]]:
    return parse_blocks(textwrap.dedent(text).strip("\n"), path="page.md", **kwargs)


def fails(text: str, line: int, match: str) -> None:
    with pytest.raises(PageFileError, match=match) as raised:
        read(text)
    assert raised.value.path == "page.md" and raised.value.line == line
    assert str(raised.value).startswith(f"page.md:{line}: ")


# --- blocks ------------------------------------------------------------------------------------

def test_a_line_of_text_is_a_paragraph_whose_text_is_a_plain_string() -> None:
    assert read("Pan del día.") == [{"type": "paragraph", "text": "Pan del día."}]


def test_nbsp_alone_on_a_line_is_the_empty_paragraph_notion_leaves_behind_an_enter() -> None:
    assert read("&nbsp;") == [{"type": "paragraph", "text": ""}]


def test_one_to_three_hashes_are_headings_of_that_level() -> None:
    assert read("# Uno\n\n## Dos\n\n### Tres") == [
        {"type": "heading_1", "text": "Uno"}, {"type": "heading_2", "text": "Dos"},
        {"type": "heading_3", "text": "Tres"}]


def test_list_items_follow_each_other_without_blank_lines_and_numbers_are_not_kept() -> None:
    assert read("- a\n- b\n\n1. uno\n7. dos\n- [ ] falta\n- [x] hecho") == [
        {"type": "bulleted_list_item", "text": "a"}, {"type": "bulleted_list_item", "text": "b"},
        {"type": "numbered_list_item", "text": "uno"}, {"type": "numbered_list_item", "text": "dos"},
        {"type": "to_do", "text": "falta", "checked": False}, {"type": "to_do", "text": "hecho", "checked": True}]


def test_lines_indented_four_spaces_under_a_list_item_are_its_children() -> None:
    assert read("""
        1. Paso
            - detalle
                - más
        2. Otro
    """) == [
        {"type": "numbered_list_item", "text": "Paso", "children": [
            {"type": "bulleted_list_item", "text": "detalle", "children": [
                {"type": "bulleted_list_item", "text": "más"}]}]},
        {"type": "numbered_list_item", "text": "Otro"}]


def test_details_is_a_toggle_and_its_body_is_the_toggles_children() -> None:
    assert read("""
        <details><summary>¿Abren el domingo?</summary>

        Sí, de 8:00 a 15:00.

        - Sin entregas.

        </details>
    """) == [{"type": "toggle", "text": "¿Abren el domingo?", "children": [
        {"type": "paragraph", "text": "Sí, de 8:00 a 15:00."},
        {"type": "bulleted_list_item", "text": "Sin entregas."}]}]


def test_a_heading_in_the_summary_makes_a_toggleable_heading() -> None:
    assert read("<details><summary>### Notas</summary>\n\nCupo: 8.\n\n</details>") == [
        {"type": "heading_3", "text": "Notas", "toggleable": True,
         "children": [{"type": "paragraph", "text": "Cupo: 8."}]}]


def test_a_quote_and_a_callout_whose_icon_is_in_brackets() -> None:
    assert read("> Palabras de Don Ernesto.\n\n> [!⚠️] Lleva nuez.") == [
        {"type": "quote", "text": "Palabras de Don Ernesto."},
        {"type": "callout", "text": "Lleva nuez.", "icon": "⚠️"}]


def test_three_dashes_are_a_divider_and_an_image_keeps_its_caption() -> None:
    assert read("---\n\n![Conchas en la charola.](https://example.org/c.jpg)") == [
        {"type": "divider"}, {"type": "image", "url": "https://example.org/c.jpg", "caption": "Conchas en la charola."}]


def test_a_pipe_table_has_a_column_header_and_rows_of_cells() -> None:
    assert read("| Zona | Envío |\n| --- | --- |\n| 1 | $40 |\n| 2 | $70 \\| $80 |") == [
        {"type": "table", "has_column_header": True, "rows": [["Zona", "Envío"], ["1", "$40"], ["2", "$70 | $80"]]}]


def test_a_fenced_code_block_keeps_its_language_newlines_and_indentation() -> None:
    assert read("```plain text\nNombre:\n    Calle:\n```") == [
        {"type": "code", "text": "Nombre:\n    Calle:", "language": "plain text"}]


def test_double_dollars_fence_a_block_equation() -> None:
    assert read("$$\nA = 0.5\\,T\n$$") == [{"type": "equation", "expression": "A = 0.5\\,T"}]


def test_column_list_holds_columns_each_with_its_blocks() -> None:
    assert read("""
        ::::column_list

        :::column

        **Zona 1**

        - Narvarte

        :::

        :::column

        Zona 2

        :::

        ::::
    """) == [{"type": "column_list", "columns": [
        [{"type": "paragraph", "text": [{"text": "Zona 1", "bold": True}]},
         {"type": "bulleted_list_item", "text": "Narvarte"}],
        [{"type": "paragraph", "text": "Zona 2"}]]}]


def test_a_synced_block_original_has_a_key_and_children_and_a_reference_names_it() -> None:
    assert read(':::synced_block{key="horario"}\n\n- Lunes: 7:30\n\n:::\n\n::synced_block{synced_from="horario"}') == [
        {"type": "synced_block", "key": "horario", "children": [{"type": "bulleted_list_item", "text": "Lunes: 7:30"}]},
        {"type": "synced_block", "synced_from": "horario"}]


def test_leaf_directives_write_a_bookmark_and_a_child_page() -> None:
    assert read('::bookmark[SAT: factura]{url="https://sat.example/f?a=1"}\n\n'
                '::child_page[Receta: conchas]{page=receta-conchas}') == [
        {"type": "bookmark", "url": "https://sat.example/f?a=1", "caption": "SAT: factura"},
        {"type": "child_page", "page": "receta-conchas", "text": "Receta: conchas"}]


def test_meeting_notes_take_their_title_as_label_and_hold_the_notes() -> None:
    assert read(":::meeting_notes[Junta (2 de abril)]\n\n- Un taller al mes.\n\n:::") == [
        {"type": "meeting_notes", "text": "Junta (2 de abril)",
         "children": [{"type": "bulleted_list_item", "text": "Un taller al mes."}]}]


def test_a_directive_that_is_not_a_notion_block_is_expanded_by_the_caller() -> None:
    def listing(attributes: dict[str, str], label: str | None) -> list[dict[str, Any]]:
        return [{"type": "bulleted_list_item", "text": f"con {attributes['contains']}"}]

    assert read('::product_list{contains="nuez"}', directives={"product_list": listing}) == [
        {"type": "bulleted_list_item", "text": "con nuez"}]


# --- rich text ---------------------------------------------------------------------------------

def test_bold_code_and_links_become_runs_around_plain_runs() -> None:
    assert read("Mande **CANCELAR** o `TL-2291` a [Profeco](https://www.gob.mx/profeco).") == [
        {"type": "paragraph", "text": [
            {"text": "Mande "}, {"text": "CANCELAR", "bold": True}, {"text": " o "},
            {"text": "TL-2291", "code": True}, {"text": " a "},
            {"text": "Profeco", "link": "https://www.gob.mx/profeco"}, {"text": "."}]}]


def test_a_backslash_escapes_syntax_at_the_start_of_a_line_and_inside_text() -> None:
    assert read("\\- 5 °C no es \\*bold\\* ni \\[link\\]") == [
        {"type": "paragraph", "text": "- 5 °C no es *bold* ni [link]"}]
    assert read("2026\\. Un año") == [{"type": "paragraph", "text": "2026. Un año"}]


# --- errors ------------------------------------------------------------------------------------

def test_two_lines_of_one_paragraph_are_refused_at_the_second_line() -> None:
    fails("Primera línea\nsegunda línea", 2, "leave a blank line before the next block")


def test_a_run_longer_than_notion_allows_is_refused() -> None:
    fails("Texto.\n\n" + "x" * (MAX_RUN_CHARS + 1), 3, f"at most {MAX_RUN_CHARS} characters")


def test_a_table_with_ragged_rows_is_refused_at_the_row() -> None:
    fails("| a | b |\n| --- | --- |\n| c |", 3, "same number of cells")


def test_a_toggle_never_closed_is_refused_where_it_opens() -> None:
    fails("Antes.\n\n<details><summary>¿Y?</summary>\n\nRespuesta.", 3, "never closed")


def test_an_empty_toggle_is_refused() -> None:
    fails("<details><summary>¿Y?</summary>\n\n</details>", 1, "at least one block")


def test_markdown_this_format_does_not_use_is_refused_not_read_as_text() -> None:
    fails("#### Cuarto nivel", 1, "not a construct of this format")
    fails("* viñeta", 1, "not a construct of this format")
    fails("Texto con _cursiva_.", 1, "emphasis other than \\*\\*bold\\*\\*")
    fails("Un [corchete suelto.", 1, "starts no \\[text\\]\\(url\\) link")


def test_unexpected_indentation_is_refused() -> None:
    fails("Texto.\n\n    sangrado", 3, "unexpected indentation")


def test_an_unknown_directive_lists_the_ones_this_file_can_use() -> None:
    fails("::video{url=x}", 1, "unknown directive ::video; this file can use ::bookmark, ::child_page")


def test_a_directive_with_the_wrong_attributes_is_refused() -> None:
    fails("::child_page{page=x}", 1, "child_page takes a \\[label\\]")


def test_a_column_list_with_one_column_is_refused() -> None:
    fails("::::column_list\n\n:::column\n\nSola.\n\n:::\n\n::::", 1, "at least 2 columns")


# --- page files --------------------------------------------------------------------------------

def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def test_a_page_file_is_front_matter_then_blocks_and_its_name_is_the_key(tmp_path: Path) -> None:
    path = write(tmp_path, "aviso-de-prueba.md", """
        +++
        title = "Aviso: prueba"
        publishable = true
        +++

        ## Fechas

        Del 1 al 3 de mayo.
    """)
    page = read_page_file(path)
    assert page.key == "aviso-de-prueba" and page.meta == {"title": "Aviso: prueba", "publishable": True}
    assert page.blocks == [{"type": "heading_2", "text": "Fechas"},
                           {"type": "paragraph", "text": "Del 1 al 3 de mayo."}]


def test_errors_in_the_body_give_the_line_in_the_file_counting_the_front_matter(tmp_path: Path) -> None:
    path = write(tmp_path, "pagina.md", '+++\ntitle = "T"\n+++\n\nUno\ndos\n')
    with pytest.raises(PageFileError, match=r"pagina\.md:6: a block is one line"):
        read_page_file(path)


def test_invalid_toml_front_matter_gives_its_line_in_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "pagina.md", '+++\ntitle = "T"\nicon = \ntype = "x"\n+++\n\nTexto.\n')
    with pytest.raises(PageFileError, match=r"pagina\.md:3: front matter is not valid TOML"):
        read_page_file(path)
    path = write(tmp_path, "pagina.md", '+++\ntitle = "T"\nicon = \n+++\n\nTexto.\n')
    with pytest.raises(PageFileError, match=r"pagina\.md:3: front matter is not valid TOML"):
        read_page_file(path)


def test_a_file_without_front_matter_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PageFileError, match=r"pagina\.md:1: a page file starts with a '\+\+\+' line"):
        read_page_file(write(tmp_path, "pagina.md", "Texto.\n"))


def test_front_matter_fields_are_checked_by_name_and_type(tmp_path: Path) -> None:
    page = read_page_file(write(tmp_path, "pagina.md", '+++\ntitle = "T"\ncolor = "rojo"\n+++\n\nTexto.\n'))
    with pytest.raises(PageFileError, match=r"missing \['author'\], unknown \['color'\]"):
        check_front_matter(page, required={"title": str, "author": str})
    with pytest.raises(PageFileError, match="title = 'T' should be of type"):
        check_front_matter(page, required={"title": int}, optional={"color": str})


def test_pages_toml_lists_every_page_file_once(tmp_path: Path) -> None:
    for name in ("b.md", "a.toml", "shared.toml"):
        write(tmp_path, name, "")
    write(tmp_path, "pages.toml", 'order = ["b", "a"]\n')
    assert [path.name for path in read_page_order(tmp_path, shared=("shared.toml",))] == ["b.md", "a.toml"]
    write(tmp_path, "pages.toml", 'order = ["b", "b", "z"]\n')
    write(tmp_path, "a.md", "")
    with pytest.raises(PageFileError, match=r"listed twice: \['b'\]; listed without a file: \['z'\]; files not "
                                            r"listed: \['a'\]; keys with both a \.md and a \.toml file: \['a'\]"):
        read_page_order(tmp_path, shared=("shared.toml",))
