"""The Trigo Lento workspace and its labelled questions: what the lessons rely on.

Sizes are measured in lab tokens: every word and every punctuation sign is one token, counted
over block texts, table cells and captions.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from lab.datasets.bakery import (BOUNDARY_PAGE, DATA_SOURCE_KEY, DEFAULT_PATH, build_bakery_workspace,
                                 iter_blocks, load_bakery_workspace, page_texts, write_bakery_workspace)
from lab.datasets.notion_markdown import MAX_RUN_CHARS
from lab.retrieval.labelled_sets import BAKERY_QUESTIONS_PATH as QUESTIONS_PATH
from lab.retrieval.labelled_sets import BLIND_PATH, HELDOUT_PATH
LAB_TOKEN = re.compile(r"\w+|[^\w\s]")
KB_TYPES = {"ficha": 12, "politica": 8, "faq": 10, "aviso": 6, "alergenos": 4}
QUESTION_KINDS = {"paraphrase", "synonym", "number", "date", "allergen", "hours", "price", "policy"}
ISO_MINUTE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$")

# Fields each block type must carry besides "type" (children are optional where allowed).
REQUIRED_FIELDS: dict[str, set[str]] = {
    "heading_1": {"text"}, "heading_2": {"text"}, "heading_3": {"text"},
    "paragraph": {"text"}, "bulleted_list_item": {"text"}, "numbered_list_item": {"text"},
    "quote": {"text"}, "toggle": {"text", "children"}, "to_do": {"text", "checked"},
    "callout": {"text", "icon"}, "code": {"text", "language"}, "divider": set(),
    "table": {"has_column_header", "rows"}, "column_list": {"columns"},
    "image": {"url", "caption"}, "bookmark": {"url", "caption"}, "equation": {"expression"},
    "child_page": {"page", "text"}, "meeting_notes": {"text", "children"},
}
CHILDREN_ALLOWED = {"paragraph", "bulleted_list_item", "numbered_list_item", "quote", "toggle", "meeting_notes",
                    "synced_block", "heading_1", "heading_2", "heading_3"}
RUN_KEYS = {"text", "bold", "code", "link", "italic"}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return build_bakery_workspace()


@pytest.fixture(scope="module")
def pages(spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {page["key"]: page for page in spec["pages"]}


@pytest.fixture(scope="module")
def publishable(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return [page for page in spec["pages"] if page["publishable"]]


@pytest.fixture(scope="module")
def questions() -> list[dict[str, Any]]:
    return json.loads(QUESTIONS_PATH.read_text(encoding="utf-8"))


def text_of(block: dict[str, Any]) -> str:
    text = block.get("text", "")
    return text if isinstance(text, str) else "".join(run["text"] for run in text)


def lab_tokens(page: dict[str, Any]) -> int:
    return sum(len(LAB_TOKEN.findall(text)) for text in page_texts(page))


def headings(page: dict[str, Any]) -> list[str]:
    return [text_of(block) for block in iter_blocks(page["blocks"]) if block["type"].startswith("heading_")]


def section_blocks(page: dict[str, Any], title: str) -> list[dict[str, Any]]:
    """Top-level blocks after the heading ``title`` and before the next heading of any level."""
    blocks, inside = [], False
    for block in page["blocks"]:
        if block["type"].startswith("heading_"):
            inside = text_of(block) == title
        elif inside:
            blocks.append(block)
    return blocks


def blocks_containing(page: dict[str, Any], needle: str) -> list[dict[str, Any]]:
    return [block for block in iter_blocks(page["blocks"]) if needle in text_of(block)]


def when(stamp: str) -> datetime:
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.000Z").replace(tzinfo=timezone.utc)


# --- regeneration ------------------------------------------------------------------------------

def test_regenerating_the_workspace_gives_the_committed_bytes(tmp_path: Path) -> None:
    written = write_bakery_workspace(tmp_path / "bakery.json")
    assert written.read_bytes() == DEFAULT_PATH.read_bytes()


def test_the_committed_file_is_utf8_json_with_indent_one_and_a_final_newline() -> None:
    raw = DEFAULT_PATH.read_text(encoding="utf-8")
    assert raw.endswith("}\n") and "\r" not in raw
    assert "Política de cancelaciones" in raw  # ensure_ascii=False keeps accents readable
    assert raw == json.dumps(json.loads(raw), ensure_ascii=False, indent=1) + "\n"


def test_load_returns_what_build_makes(spec: dict[str, Any]) -> None:
    assert load_bakery_workspace() == spec


def test_the_same_seed_gives_the_same_spec_and_another_seed_moves_dates_and_rewords_only_product_sheets(
        spec: dict[str, Any]) -> None:
    again, other = build_bakery_workspace(2026), build_bakery_workspace(7)
    assert again == spec
    assert [page["key"] for page in other["pages"]] == [page["key"] for page in spec["pages"]]
    assert [page["edited"] for page in other["pages"]] != [page["edited"] for page in spec["pages"]]
    reworded = {new["key"] for new, old in zip(other["pages"], spec["pages"]) if new["blocks"] != old["blocks"]}
    sheets = {page["key"] for page in spec["pages"] if page["type"] == "ficha" and page["publishable"]}
    assert reworded and reworded <= sheets  # written pages are text as written; sheets draw their wording


def test_loading_a_missing_file_says_how_to_create_it(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="python -m lab.datasets.bakery"):
        load_bakery_workspace(tmp_path / "nowhere.json")


# --- workspace shape ---------------------------------------------------------------------------

def test_the_workspace_names_its_users_data_source_and_two_read_only_integrations(spec: dict[str, Any]) -> None:
    assert spec["name"] == "Trigo Lento" and spec["language"] == "es"
    assert [user["key"] for user in spec["users"]] == ["valeria", "ernesto"]
    (source,) = spec["data_sources"]
    assert source["key"] == DATA_SOURCE_KEY and source["title"] == "Base de conocimiento"
    assert source["created"] == "2026-01-12T15:00:00.000Z"
    assert source["properties"] == {
        "Nombre": {"type": "title"},
        "Tipo": {"type": "select", "options": ["ficha", "politica", "faq", "aviso", "alergenos"]},
        "Publicable": {"type": "checkbox"},
    }
    assert [(i["key"], i["name"]) for i in spec["integrations"]] == [("indexador", "TL Indexador KB"),
                                                                   ("lote-nocturno", "TL Lote nocturno")]
    for integration in spec["integrations"]:
        assert integration["capabilities"] == ["read_content"]
        assert integration["shares"] == [{"type": "data_source", "key": DATA_SOURCE_KEY}]


def test_page_keys_are_unique_slugs(spec: dict[str, Any]) -> None:
    keys = [page["key"] for page in spec["pages"]]
    assert len(keys) == len(set(keys)) == 50
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", key) for key in keys)


def test_forty_publishable_rows_by_type(publishable: list[dict[str, Any]]) -> None:
    assert len(publishable) == 40
    assert all(page["parent"] == {"type": "data_source", "key": DATA_SOURCE_KEY} for page in publishable)
    assert Counter(page["type"] for page in publishable) == KB_TYPES


def test_titles_follow_each_type_pattern(publishable: list[dict[str, Any]]) -> None:
    prefixes = {"ficha": "Ficha: ", "politica": "Política de ", "faq": "Preguntas frecuentes: ",
                "aviso": "Aviso: ", "alergenos": "Alérgenos: "}
    for page in publishable:
        assert page["title"].startswith(prefixes[page["type"]]), page["title"]


def test_three_drafts_are_shared_rows_that_are_not_publishable(spec: dict[str, Any]) -> None:
    drafts = [page for page in spec["pages"]
              if page["parent"].get("key") == DATA_SOURCE_KEY and not page["publishable"]]
    assert len(drafts) == 3
    assert all(page["type"] in KB_TYPES for page in drafts)
    assert any(block["type"] == "meeting_notes" for page in drafts for block in iter_blocks(page["blocks"]))


def test_seven_private_pages_live_outside_the_data_source(spec: dict[str, Any], pages: dict[str, Any]) -> None:
    private = [page for page in spec["pages"] if page["parent"]["type"] != "data_source"]
    assert len(private) == 7
    assert not any(page["publishable"] for page in private)
    assert Counter(page["type"] for page in private) == {"receta": 6, "notas": 1}
    assert pages["recetas-del-obrador"]["parent"] == {"type": "workspace"}
    assert pages["notas-de-clientes"]["parent"] == {"type": "workspace"}
    recipes = [page for page in private if page["parent"] == {"type": "page", "key": "recetas-del-obrador"}]
    assert len(recipes) == 5


def test_the_recipes_page_lists_its_five_sub_pages_as_child_page_blocks(pages: dict[str, Any]) -> None:
    index = pages["recetas-del-obrador"]
    links = [block for block in index["blocks"] if block["type"] == "child_page"]
    assert len(links) == 5
    for link in links:
        child = pages[link["page"]]
        assert child["parent"] == {"type": "page", "key": index["key"]}
        assert link["text"] == child["title"]


def test_no_mothers_day_faq_exists_yet(spec: dict[str, Any]) -> None:
    assert not [page["title"] for page in spec["pages"] if "Madres" in page["title"]]


# --- sizes -------------------------------------------------------------------------------------

def test_about_thirteen_hundred_blocks_in_all(spec: dict[str, Any]) -> None:
    total = sum(1 for page in spec["pages"] for _ in iter_blocks(page["blocks"]))
    assert 1250 <= total <= 1350


def test_each_publishable_page_holds_600_to_1900_lab_tokens(publishable: list[dict[str, Any]]) -> None:
    sizes = {page["key"]: lab_tokens(page) for page in publishable}
    assert all(600 <= size <= 1900 for size in sizes.values()), sizes


def test_the_publishable_pages_hold_45_to_50_thousand_lab_tokens(publishable: list[dict[str, Any]]) -> None:
    assert 45_000 <= sum(lab_tokens(page) for page in publishable) <= 50_000


def test_twenty_to_thirty_publishable_blocks_cost_the_indexer_an_extra_request(
        publishable: list[dict[str, Any]]) -> None:
    # In Notion these blocks report has_children: toggles, nested items, tables, columns, synced blocks.
    expanding = [block for page in publishable for block in iter_blocks(page["blocks"])
                 if block.get("children") or block["type"] in ("table", "column_list") or "synced_from" in block]
    assert 20 <= len(expanding) <= 30


# --- blocks ------------------------------------------------------------------------------------

def test_every_block_has_a_known_type_and_the_fields_it_needs(spec: dict[str, Any]) -> None:
    for page in spec["pages"]:
        for block in iter_blocks(page["blocks"]):
            kind = block["type"]
            if kind in ("table_row", "column"):
                continue  # produced by iter_blocks from their parent's rows and columns
            if kind == "synced_block":
                assert ("key" in block and "children" in block) != ("synced_from" in block), block
                continue
            assert kind in REQUIRED_FIELDS, f"{page['key']}: unknown block type {kind!r}"
            assert REQUIRED_FIELDS[kind] <= block.keys(), f"{page['key']}: {kind} lacks fields: {block}"
            if "children" in block:
                assert kind in CHILDREN_ALLOWED and block["children"], f"{page['key']}: {block}"
            if kind.startswith("heading_") and "children" in block:
                assert block.get("toggleable") is True


def test_texts_are_strings_or_short_runs(spec: dict[str, Any]) -> None:
    for page in spec["pages"]:
        for block in iter_blocks(page["blocks"]):
            text = block.get("text", "")
            if isinstance(text, str):
                assert len(text) <= MAX_RUN_CHARS
            else:
                assert all(run.keys() <= RUN_KEYS and len(run["text"]) <= MAX_RUN_CHARS for run in text)


def test_a_handful_of_blocks_use_formatted_runs(publishable: list[dict[str, Any]]) -> None:
    runs = [run for page in publishable for block in iter_blocks(page["blocks"])
            if isinstance(block.get("text"), list) for run in block["text"]]
    assert {"bold", "code", "link"} <= {key for run in runs for key in run if key != "text"}


def test_the_publishable_pages_use_every_block_kind_the_lessons_flatten(publishable: list[dict[str, Any]]) -> None:
    kinds = Counter(block["type"] for page in publishable for block in iter_blocks(page["blocks"]))
    for kind in ("heading_2", "heading_3", "paragraph", "bulleted_list_item", "numbered_list_item", "to_do",
                 "toggle", "callout", "quote", "divider", "image", "bookmark"):
        assert kinds[kind] > 0, kind
    assert kinds["table"] == kinds["code"] == kinds["column_list"] == kinds["equation"] == 1
    assert 1 <= kinds["heading_1"] <= 2
    assert kinds["image"] + kinds["bookmark"] >= 4


def test_the_one_table_has_a_header_and_six_to_ten_rows_of_equal_width(
        publishable: list[dict[str, Any]]) -> None:
    (block,) = [b for page in publishable for b in iter_blocks(page["blocks"]) if b["type"] == "table"]
    assert block["has_column_header"] is True
    assert 6 <= len(block["rows"]) <= 10
    assert len({len(row) for row in block["rows"]}) == 1


def test_the_one_code_block_keeps_newlines_and_indentation(publishable: list[dict[str, Any]]) -> None:
    (block,) = [b for page in publishable for b in iter_blocks(page["blocks"]) if b["type"] == "code"]
    assert "\n    " in text_of(block) and text_of(block).count("\n") >= 5


def test_the_column_list_has_two_columns(publishable: list[dict[str, Any]]) -> None:
    (block,) = [b for page in publishable for b in iter_blocks(page["blocks"]) if b["type"] == "column_list"]
    assert len(block["columns"]) == 2 and all(block["columns"])


def test_to_dos_come_checked_and_unchecked_and_a_few_lists_nest(publishable: list[dict[str, Any]]) -> None:
    blocks = [b for page in publishable for b in iter_blocks(page["blocks"])]
    assert {b["checked"] for b in blocks if b["type"] == "to_do"} == {True, False}
    nested = [b for b in blocks if b["type"] in ("bulleted_list_item", "numbered_list_item") and b.get("children")]
    assert len(nested) >= 2
    assert sum(1 for b in blocks if b["type"] == "paragraph" and b["text"] == "") >= 2


def test_images_and_bookmarks_carry_captions(spec: dict[str, Any]) -> None:
    for page in spec["pages"]:
        for block in iter_blocks(page["blocks"]):
            if block["type"] in ("image", "bookmark"):
                assert block["url"].startswith("https://") and block["caption"]


def test_the_synced_original_exists_once_and_is_referenced_exactly_twice(spec: dict[str, Any]) -> None:
    blocks = [(page["key"], b) for page in spec["pages"] for b in iter_blocks(page["blocks"])
              if b["type"] == "synced_block"]
    originals = [(key, b) for key, b in blocks if "key" in b]
    references = [(key, b) for key, b in blocks if "synced_from" in b]
    assert len(originals) == 1
    (home, original), = originals
    assert original["key"] == "horario-general" and original["children"]
    assert len(references) == 2
    assert all(b["synced_from"] == "horario-general" and "children" not in b for _, b in references)
    assert home not in {key for key, _ in references}


def test_every_faq_opens_a_section_whose_questions_are_toggles(publishable: list[dict[str, Any]]) -> None:
    for page in publishable:
        if page["type"] != "faq":
            continue
        kinds = [block["type"] for block in page["blocks"]]
        first = kinds.index("heading_2")
        toggles = page["blocks"][first + 1:first + 3]
        assert [b["type"] for b in toggles] == ["toggle", "toggle"], page["key"]
        for toggle in toggles:
            assert text_of(toggle).rstrip().endswith("?") and 1 <= len(toggle["children"]) <= 3


def test_sections_are_mostly_three_to_six_second_level_headings(publishable: list[dict[str, Any]]) -> None:
    for page in publishable:
        count = sum(1 for block in page["blocks"] if block["type"] == "heading_2")
        assert 3 <= count <= 6, (page["key"], count)


# --- dates and authors -------------------------------------------------------------------------

def test_timestamps_are_whole_minutes_and_edits_follow_creation(spec: dict[str, Any]) -> None:
    for page in spec["pages"]:
        assert ISO_MINUTE.match(page["created"]) and ISO_MINUTE.match(page["edited"])
        assert page["created"] <= page["edited"] < "2026-04-09T16:00:00.000Z"
        assert {page["created_by"], page["edited_by"]} <= {"valeria", "ernesto"}


def test_edit_times_are_distinct_and_fall_between_february_20_and_april_8(spec: dict[str, Any]) -> None:
    edits = [page["edited"] for page in spec["pages"]]
    assert len(set(edits)) == len(edits)
    assert all("2026-02-20" <= edit[:10] <= "2026-04-08" for edit in edits)


def test_the_storage_faq_is_the_last_page_edited(spec: dict[str, Any], pages: dict[str, Any]) -> None:
    boundary = pages[BOUNDARY_PAGE]
    assert boundary["title"] == "Preguntas frecuentes: conservación" and boundary["publishable"]
    assert boundary["edited"] == "2026-04-08T13:55:00.000Z"
    assert boundary["edited"] == max(page["edited"] for page in spec["pages"])


def test_the_recipes_are_don_ernestos(spec: dict[str, Any]) -> None:
    for page in spec["pages"]:
        if page["type"] == "receta":
            assert page["created_by"] == "ernesto"


# --- facts the lessons rely on -----------------------------------------------------------------

def test_the_cancellation_policy_states_the_48_hour_rule_in_one_editable_paragraph(pages: dict[str, Any]) -> None:
    page = pages["politica-cancelaciones"]
    assert page["title"] == "Política de cancelaciones"
    assert page["edited"] == "2026-03-20T17:42:00.000Z"
    assert {"Plazos para cancelar", "Cómo cancelar", "Anticipos", "Excepciones",
            "Pedidos de mayoristas"} <= set(headings(page))
    needle = "sin costo hasta 48 horas antes de la hora de recogida"
    (block,) = blocks_containing(page, needle)
    assert block in section_blocks(page, "Plazos para cancelar") and block["type"] == "paragraph"
    assert "Desde el 20 de marzo de 2026 es de 48 horas" in " ".join(page_texts(page))


def test_the_cinnamon_roll_sheet_says_it_contains_nuts(pages: dict[str, Any]) -> None:
    page = pages["ficha-rol-de-canela"]
    assert page["title"] == "Ficha: Rol de canela"
    assert {"Ingredientes declarados", "Alérgenos", "Precio y encargos"} <= set(headings(page))
    allergens = section_blocks(page, "Alérgenos")
    (alert,) = blocks_containing(page, "lleva nuez en la receta")
    assert alert["type"] == "callout" and alert in allergens
    (listing,) = blocks_containing(page, "gluten, leche, huevo, nuez")
    assert listing["type"] == "paragraph" and listing in allergens
    assert any("$38 la pieza" in text_of(b) for b in section_blocks(page, "Precio y encargos"))


def test_the_may_day_notice_gives_the_holiday_hours_in_one_editable_block(pages: dict[str, Any]) -> None:
    page = pages["aviso-puente-1-de-mayo"]
    assert page["title"] == "Aviso: puente del 1 de mayo"
    assert {"Fechas", "Horario", "Encargos"} <= set(headings(page))
    (block,) = blocks_containing(page, "de 8:00 a 14:00")
    assert block in section_blocks(page, "Horario")
    assert "El viernes 1 de mayo la tienda abre de 8:00 a 14:00" in text_of(block)
    assert any("martes 28 de abril a las 19:00" in text_of(b) for b in section_blocks(page, "Encargos"))


def test_the_notices_later_unpublished_and_trashed_exist_and_are_published(pages: dict[str, Any]) -> None:
    assert pages["aviso-rosca-de-reyes"]["title"] == "Aviso: Rosca de Reyes"
    assert pages["aviso-semana-santa-2026"]["title"] == "Aviso: Semana Santa 2026"
    assert pages["aviso-rosca-de-reyes"]["publishable"] and pages["aviso-semana-santa-2026"]["publishable"]


def test_the_storage_faq_exists_under_its_expected_title(pages: dict[str, Any]) -> None:
    assert pages["faq-conservacion"]["type"] == "faq"


@pytest.mark.parametrize("key, sentence", [
    ("politica-pagos-y-anticipos", "Por ejemplo, un pastel de tres leches mediano de $650 deja $325 de anticipo"),
    ("politica-entregas-a-domicilio", "Zona 2: envío de $70"),
    ("politica-horarios-y-atencion", "Domingo: de 8:00 a 15:00."),
    ("politica-mayoreo", "Pedidos desde $1,500: 12 % de descuento sobre el precio de mostrador."),
    ("ficha-pay-de-queso", "La base lleva galleta de trigo, así que el pay de queso tiene gluten"),
    ("ficha-pan-de-elote", "no lo recomendamos a personas celíacas"),
    ("alergenos-nuez-y-frutos-secos", "Rol de canela (RC-01, $38 la pieza): la nuez va picada en el relleno"),
    ("faq-alergias", "Llevan nuez en la receta el rol de canela"),
])
def test_pages_state_the_figures_questions_ask_about(pages: dict[str, Any], key: str, sentence: str) -> None:
    assert sentence in " ".join(page_texts(pages[key]))


def test_an_allergy_faq_shares_the_nut_vocabulary_of_the_nut_allergen_page(pages: dict[str, Any]) -> None:
    faq = " ".join(page_texts(pages["faq-alergias"])).lower()
    allergen_page = " ".join(page_texts(pages["alergenos-nuez-y-frutos-secos"])).lower()
    for word in ("nuez", "frutos secos", "trazas", "obrador", "rol de canela", "brownie"):
        assert word in faq and word in allergen_page


# --- labelled questions ------------------------------------------------------------------------

def test_there_are_at_least_45_questions_with_unique_ids_and_known_kinds(questions: list[dict[str, Any]]) -> None:
    assert len(questions) >= 45
    ids = [question["id"] for question in questions]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"q\d{2}", i) for i in ids)
    assert all(question.keys() == {"id", "question", "gold", "kind"} for question in questions)
    assert {question["kind"] for question in questions} == QUESTION_KINDS


def test_every_gold_page_is_publishable_and_every_gold_section_is_one_of_its_headings(
        questions: list[dict[str, Any]], pages: dict[str, Any]) -> None:
    for question in questions:
        assert question["gold"], question["id"]
        for gold in question["gold"]:
            page = pages.get(gold["page"])
            assert page is not None and page["publishable"], (question["id"], gold)
            assert gold["section"] in headings(page), (question["id"], gold)


def test_the_three_counter_questions_are_labelled(questions: list[dict[str, Any]]) -> None:
    by_text = {question["question"]: question for question in questions}
    assert {"page": "ficha-rol-de-canela", "section": "Alérgenos"} in by_text["¿El rol de canela lleva nuez?"]["gold"]
    assert {"page": "politica-cancelaciones", "section": "Plazos para cancelar"} in \
        by_text["¿Hasta cuándo puedo cancelar un pastel?"]["gold"]
    assert {"page": "aviso-puente-1-de-mayo", "section": "Horario"} in by_text["¿Abren el 1 de mayo?"]["gold"]


def test_thirty_nine_heldout_questions_with_their_own_ids_and_wording_and_many_kinds(
        questions: list[dict[str, Any]]) -> None:
    heldout = json.loads(HELDOUT_PATH.read_text(encoding="utf-8"))
    ids = [question["id"] for question in heldout]
    assert len(heldout) == 39 and len(set(ids)) == 39 and all(re.fullmatch(r"h\d{2}", i) for i in ids)
    assert not set(ids) & {question["id"] for question in questions}
    assert all(question.keys() == {"id", "question", "gold", "kind"} for question in heldout)
    assert len({question["kind"] for question in heldout}) >= 8
    assert not {q["question"] for q in heldout} & {q["question"] for q in questions}


def test_sixty_blind_questions_with_their_own_ids_and_wording_written_in_two_voices(
        questions: list[dict[str, Any]]) -> None:
    blind = json.loads(BLIND_PATH.read_text(encoding="utf-8"))
    ids = [question["id"] for question in blind]
    assert len(blind) == 60 and len(set(ids)) == 60 and all(re.fullmatch(r"[ab]\d{2}", i) for i in ids)
    assert Counter(i[0] for i in ids) == {"a": 30, "b": 30}  # each writer's thirty
    assert all(question.keys() == {"id", "question", "gold", "kind"} for question in blind)
    assert len({question["kind"] for question in blind}) >= 8
    heldout = json.loads(HELDOUT_PATH.read_text(encoding="utf-8"))
    assert not {q["question"] for q in blind} & {q["question"] for q in [*questions, *heldout]}
    raw = BLIND_PATH.read_text(encoding="utf-8")
    assert raw.startswith("[\n  {\n    \"id\"") and raw.endswith("]\n")


@pytest.mark.parametrize("path", [HELDOUT_PATH, BLIND_PATH], ids=["heldout", "blind"])
def test_every_later_gold_section_is_a_heading_of_a_publishable_page_or_its_lead(path: Path,
                                                                                 pages: dict[str, Any]) -> None:
    for question in json.loads(path.read_text(encoding="utf-8")):
        assert len({(gold["page"], gold["section"]) for gold in question["gold"]}) == len(question["gold"])
        assert question["gold"], question["id"]
        for gold in question["gold"]:
            page = pages.get(gold["page"])
            assert page is not None and page["publishable"], (question["id"], gold)
            if gold["section"] is None:  # the text before the first heading
                assert not page["blocks"][0]["type"].startswith("heading_"), (question["id"], gold)
            else:
                assert gold["section"] in headings(page), (question["id"], gold)


def test_the_questions_file_is_two_space_indented_json() -> None:
    raw = QUESTIONS_PATH.read_text(encoding="utf-8")
    assert raw.startswith("[\n  {\n    \"id\"") and raw.endswith("]\n")
