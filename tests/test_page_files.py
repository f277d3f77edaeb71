"""The page files under lab/datasets/data/pages: they rebuild the committed workspaces page by page, and a
product's facts, stated once in its file, reach its sheet and the allergen pages alike."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from lab.datasets.bakery import PAGES_DIR as BAKERY_PAGES
from lab.datasets.bakery import build_bakery_workspace, load_bakery_workspace, page_texts
from lab.datasets.handbook import PAGES_DIR as HANDBOOK_PAGES
from lab.datasets.handbook import build_handbook_workspace, load_handbook_workspace
from lab.datasets.notion_markdown import PageFileError
from lab.datasets.product_sheets import latest_change, read_product

COMMITTED = {"bakery": load_bakery_workspace(), "handbook": load_handbook_workspace()}
PAGES = [(workspace, page["key"]) for workspace, spec in COMMITTED.items() for page in spec["pages"]]


@pytest.fixture(scope="module")
def built() -> dict[str, dict[str, dict[str, Any]]]:
    specs = {"bakery": build_bakery_workspace(), "handbook": build_handbook_workspace()}
    return {workspace: {page["key"]: page for page in spec["pages"]} for workspace, spec in specs.items()}


def committed_page(workspace: str, key: str) -> dict[str, Any]:
    (page,) = [page for page in COMMITTED[workspace]["pages"] if page["key"] == key]
    return page


@pytest.mark.parametrize("workspace, key", PAGES)
def test_every_page_read_from_its_file_has_the_committed_blocks(
        built: dict[str, dict[str, dict[str, Any]]], workspace: str, key: str) -> None:
    page = committed_page(workspace, key)
    # Compared as JSON so that the order of each block's fields counts too, as it does for the bytes.
    assert json.dumps(built[workspace][key]["blocks"], ensure_ascii=False) == json.dumps(page["blocks"],
                                                                                        ensure_ascii=False)


@pytest.mark.parametrize("workspace, key", PAGES)
def test_every_page_read_from_its_file_has_the_committed_title_place_and_dates(
        built: dict[str, dict[str, dict[str, Any]]], workspace: str, key: str) -> None:
    page = {name: value for name, value in committed_page(workspace, key).items() if name != "blocks"}
    assert {name: value for name, value in built[workspace][key].items() if name != "blocks"} == page


def test_every_page_of_both_workspaces_has_a_file() -> None:
    assert len(PAGES) == 61
    for workspace, key in PAGES:
        folder = BAKERY_PAGES if workspace == "bakery" else HANDBOOK_PAGES
        assert (folder / f"{key}.md").is_file() or (folder / f"{key}.toml").is_file(), key


def test_a_product_sheet_is_edited_on_or_after_the_latest_change_it_lists() -> None:
    pages = {page["key"]: page for page in COMMITTED["bakery"]["pages"]}
    sheets = sorted(BAKERY_PAGES.glob("ficha-*.toml"))
    assert len(sheets) == 12
    for path in sheets:
        changed = latest_change(read_product(path))
        assert changed is None or pages[path.stem]["edited"][:10] >= changed.isoformat(), path.stem


@pytest.fixture
def bakery_copy(tmp_path: Path) -> Path:
    return Path(shutil.copytree(BAKERY_PAGES, tmp_path / "bakery"))


def test_a_price_changed_in_a_product_file_reaches_the_sheet_and_the_allergen_page(bakery_copy: Path) -> None:
    product = bakery_copy / "ficha-rol-de-canela.toml"
    product.write_text(product.read_text(encoding="utf-8").replace('price = "$38"', 'price = "$40"'), encoding="utf-8")
    pages = {page["key"]: page for page in build_bakery_workspace(pages_dir=bakery_copy)["pages"]}
    assert "$40 la pieza" in " ".join(page_texts(pages["ficha-rol-de-canela"]))
    nuts = " ".join(page_texts(pages["alergenos-nuez-y-frutos-secos"]))
    assert "Rol de canela (RC-01, $40 la pieza): la nuez va" in nuts


def test_the_allergen_lists_name_exactly_the_pieces_whose_files_declare_the_allergen() -> None:
    products = [read_product(path) for path in sorted(BAKERY_PAGES.glob("ficha-*.toml"))]
    page = {page["key"]: page for page in COMMITTED["bakery"]["pages"]}["alergenos-nuez-y-frutos-secos"]
    listed = [block["text"].split(" (")[0] for block in page["blocks"]
              if block["type"] == "bulleted_list_item" and " (" in block["text"]]
    assert sorted(listed) == sorted(product.name for product in products if "nuez" in product.contains)


def test_a_product_file_missing_a_field_is_refused_with_its_name(bakery_copy: Path) -> None:
    product = bakery_copy / "ficha-pan-de-elote.toml"
    product.write_text(product.read_text(encoding="utf-8").replace('code = "PE-12"\n', ""), encoding="utf-8")
    with pytest.raises(ValueError, match=r"ficha-pan-de-elote\.toml: missing fields \['code'\]"):
        build_bakery_workspace(pages_dir=bakery_copy)


def test_a_product_list_naming_an_unknown_allergen_is_refused_at_its_line(bakery_copy: Path) -> None:
    page = bakery_copy / "alergenos-gluten-y-cereales.md"
    text = page.read_text(encoding="utf-8")
    line = text.split("\n").index('::product_list{contains="gluten"}') + 1
    page.write_text(text.replace('{contains="gluten"}', '{contains="trigo"}'), encoding="utf-8")
    with pytest.raises(PageFileError, match=rf"alergenos-gluten-y-cereales\.md:{line}: ::product_list: contains takes"):
        build_bakery_workspace(pages_dir=bakery_copy)


def test_a_written_page_added_to_the_folder_and_to_pages_toml_joins_the_workspace(bakery_copy: Path) -> None:
    (bakery_copy / "aviso-dia-de-las-madres.md").write_text(
        '+++\ntitle = "Aviso: Día de las Madres"\ntype = "aviso"\nparent = { type = "data_source", key = '
        '"base-de-conocimiento" }\npublishable = true\nauthor = "valeria"\n+++\n\n## Fechas\n\nEl 10 de mayo.\n',
        encoding="utf-8")
    manifest = bakery_copy / "pages.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        '    "alergenos-nuez-y-frutos-secos",', '    "aviso-dia-de-las-madres",\n    "alergenos-nuez-y-frutos-secos",'),
        encoding="utf-8")
    pages = {page["key"]: page for page in build_bakery_workspace(pages_dir=bakery_copy)["pages"]}
    assert pages["aviso-dia-de-las-madres"]["blocks"] == [{"type": "heading_2", "text": "Fechas"},
                                                          {"type": "paragraph", "text": "El 10 de mayo."}]
    assert pages["aviso-dia-de-las-madres"]["publishable"] and len(pages) == 51
