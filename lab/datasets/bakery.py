"""The Trigo Lento workspace: the spec the Notion simulator reads, built from the page files.

Every page of the bakery's workspace is a file under ``lab/datasets/data/pages/bakery/``: a written page is
Notion-flavoured Markdown (``<key>.md``, read by :mod:`lab.datasets.notion_markdown`), a product
sheet is a TOML file of facts (``<key>.toml``, written out by :mod:`lab.datasets.product_sheets`),
and ``pages.toml`` gives their order. This module gives every page its dates (drawn inside the
bakery's working hours, unless its file fixes them) and writes the result to
``lab/datasets/data/workspace/bakery.json``. The same seed always gives the same bytes, so the committed file
can be checked by regenerating it::

    python -m lab.datasets.bakery
"""

from __future__ import annotations

import copy
import json
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from lab.chunking.tokens import count_tokens
from lab.datasets.package_data import PACKAGE_DATA

from .notion_markdown import Block, PageFile, PageFileError, check_front_matter, read_page_file, read_page_order
from .product_sheets import latest_change, product_list, product_sheet, read_product, read_wording

__all__ = [
    "DEFAULT_PATH", "PAGES_DIR", "DATA_SOURCE_KEY", "BOUNDARY_PAGE", "build_bakery_workspace", "write_bakery_workspace",
    "load_bakery_workspace", "iter_blocks", "page_texts",
]

#: Where the committed workspace spec lives.
DEFAULT_PATH = PACKAGE_DATA / "workspace" / "bakery.json"
#: The page files the spec is built from.
PAGES_DIR = PACKAGE_DATA / "pages" / "bakery"
#: The one data source of the workspace: the knowledge base shared with the integrations.
DATA_SOURCE_KEY = "base-de-conocimiento"
#: The page edited last of all (its file fixes the time); an incremental sync on ``on_or_after``
#: re-reads it every time.
BOUNDARY_PAGE = "faq-conservacion"

_SHEET_WORDING = "product_sheet.toml"
_DATA_SOURCE_CREATED = datetime(2026, 1, 12, 15, 0, tzinfo=timezone.utc)
_ROWS_CREATED_FROM = date(2026, 1, 13)
_DATA_SOURCE_EDITED = datetime(2026, 2, 18, 18, 5, tzinfo=timezone.utc)
_EDITS_FROM = datetime(2026, 2, 20, tzinfo=timezone.utc)
_PRIVATE_CREATED_FROM = date(2025, 10, 1)
# Mexico City is UTC-6: a working day at the bakery runs from 14:00 to 02:00 UTC.
_WORKDAY_START_UTC, _WORKDAY_HOURS = 14, 12

_USERS = [
    {"key": "valeria", "name": "Valeria Montes", "email": None},
    {"key": "ernesto", "name": "Ernesto Salgado", "email": None},
]
_INTEGRATIONS = [
    {"key": "indexador", "name": "TL Indexador KB", "capabilities": ["read_content"],
     "shares": [{"type": "data_source", "key": DATA_SOURCE_KEY}]},
    {"key": "lote-nocturno", "name": "TL Lote nocturno", "capabilities": ["read_content"],
     "shares": [{"type": "data_source", "key": DATA_SOURCE_KEY}]},
]
# Front matter of a written page; created and edited fix a date the page itself states.
_REQUIRED = {"title": str, "type": str, "parent": dict, "publishable": bool, "author": str}
_OPTIONAL = {"icon": str, "created": datetime, "edited": datetime, "edited_not_before": date}


@dataclass(frozen=True)
class _Draft:
    """A page before it has dates: what its file says, and how to write its blocks from a generator."""

    key: str
    title: str
    type: str
    icon: str | None
    parent: dict[str, str]
    publishable: bool
    author: str
    write: Callable[[np.random.Generator], list[Block]]
    created: datetime | None = None
    edited: datetime | None = None
    edited_not_before: date | None = None


def _read_drafts(folder: Path) -> list[_Draft]:
    paths = read_page_order(folder, shared=(_SHEET_WORDING,))
    wording = read_wording(folder / _SHEET_WORDING)
    products = {path.stem: read_product(path) for path in paths if path.suffix == ".toml"}
    directives = {"product_list": product_list(list(products.values()), wording)}
    sheet = wording["page"]
    drafts = []
    for path in paths:
        if path.stem in products:
            product = products[path.stem]
            drafts.append(_Draft(
                key=product.key, title=sheet["title"].format(name=product.name), type=sheet["type"],
                icon=product.icon, parent=sheet["parent"], publishable=sheet["publishable"], author=sheet["author"],
                write=partial(product_sheet, product, wording), created=product.created,
                edited_not_before=latest_change(product)))
        else:
            drafts.append(_written(read_page_file(path, directives)))
    return drafts


def _written(page: PageFile) -> _Draft:
    check_front_matter(page, _REQUIRED, _OPTIONAL)
    meta = page.meta
    for name in ("created", "edited"):
        if name in meta and meta[name].utcoffset() != timedelta(0):
            raise PageFileError(page.path, 1, f"front matter: write {name} in UTC, e.g. 2026-03-20T17:42:00Z")
    if isinstance(meta.get("edited_not_before"), datetime):
        raise PageFileError(page.path, 1, "front matter: edited_not_before is a day, e.g. 2026-03-20")
    blocks = page.blocks
    return _Draft(key=page.key, title=meta["title"], type=meta["type"], icon=meta.get("icon"), parent=meta["parent"],
                  publishable=meta["publishable"], author=meta["author"], write=lambda rng: blocks,
                  created=meta.get("created"), edited=meta.get("edited"),
                  edited_not_before=meta.get("edited_not_before"))


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:00.000Z")


def _page_rng(seed: int, key: str) -> np.random.Generator:
    # One stream per page, named by its key, so editing one page never rewords another.
    return np.random.default_rng([seed, zlib.crc32(key.encode("utf-8"))])


def _workday_minute(rng: np.random.Generator, first_day: date, last: datetime) -> datetime:
    """A minute inside the bakery's working hours, on or after ``first_day`` and before ``last``."""
    start = datetime(first_day.year, first_day.month, first_day.day, _WORKDAY_START_UTC, tzinfo=timezone.utc)
    days = (last - start).days + 1
    while True:
        moment = start + timedelta(days=int(rng.integers(days)), minutes=int(rng.integers(_WORKDAY_HOURS * 60)))
        if moment < last:
            return moment


def _edit_times(drafts: list[_Draft], rng: np.random.Generator) -> dict[str, datetime]:
    """Distinct edit times, all before the boundary page's, honouring the dates pages state."""
    times = {draft.key: draft.edited for draft in drafts if draft.edited}
    if BOUNDARY_PAGE not in times:
        raise ValueError(f"the front matter of {BOUNDARY_PAGE}.md must fix its edited time: it is the last edit")
    boundary, taken = times[BOUNDARY_PAGE], set(times.values())
    for draft in drafts:
        if draft.key in times:
            continue
        first_day = max(_EDITS_FROM.date(), draft.edited_not_before or _EDITS_FROM.date())
        moment = _workday_minute(rng, first_day, boundary)
        while moment in taken:
            moment = _workday_minute(rng, first_day, boundary)
        taken.add(moment)
        times[draft.key] = moment
    return times


def _creation_time(draft: _Draft, edited: datetime, rng: np.random.Generator) -> datetime:
    if draft.created:
        return draft.created
    # Rows of the knowledge base were written once it existed; private pages are older.
    earliest = _ROWS_CREATED_FROM if draft.parent["type"] == "data_source" else _PRIVATE_CREATED_FROM
    return _workday_minute(rng, earliest, min(edited, _EDITS_FROM) - timedelta(days=1))


def _page(draft: _Draft, created: datetime, edited: datetime, seed: int) -> dict[str, Any]:
    return {
        "key": draft.key,
        "title": draft.title,
        "parent": dict(draft.parent),
        "type": draft.type,
        "publishable": draft.publishable,
        "icon": draft.icon,
        "created": _iso(created),
        "edited": _iso(edited),
        "created_by": draft.author,
        "edited_by": draft.author,
        "blocks": draft.write(_page_rng(seed, draft.key)),
    }


def build_bakery_workspace(seed: int = 2026, pages_dir: Path = PAGES_DIR) -> dict[str, Any]:
    """The whole workspace spec (users, data source, 50 pages, integrations), reproducible from ``seed``.

    ``seed`` draws the dates a page's file does not fix and the wording of the product sheets.
    """
    drafts = _read_drafts(pages_dir)
    clock = np.random.default_rng([seed, 0])
    edited = _edit_times(drafts, clock)
    pages = [_page(draft, _creation_time(draft, edited[draft.key], clock), edited[draft.key], seed)
             for draft in drafts]
    return {
        "name": "Trigo Lento",
        "language": "es",
        "users": [dict(user) for user in _USERS],
        "data_sources": [{
            "key": DATA_SOURCE_KEY,
            "title": "Base de conocimiento",
            "created": _iso(_DATA_SOURCE_CREATED),
            "edited": _iso(_DATA_SOURCE_EDITED),
            "properties": {
                "Nombre": {"type": "title"},
                "Tipo": {"type": "select", "options": ["ficha", "politica", "faq", "aviso", "alergenos"]},
                "Publicable": {"type": "checkbox"},
            },
        }],
        "pages": pages,
        "integrations": copy.deepcopy(_INTEGRATIONS),
    }


def _dumps(spec: dict[str, Any]) -> str:
    return json.dumps(spec, ensure_ascii=False, indent=1) + "\n"


def write_bakery_workspace(path: Path = DEFAULT_PATH) -> Path:
    """Regenerate the spec with the default seed and write it as UTF-8 JSON (indent 1, final newline)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(_dumps(build_bakery_workspace()))
    return path


def load_bakery_workspace(path: Path = DEFAULT_PATH) -> dict[str, Any]:
    """Read a workspace spec written by :func:`write_bakery_workspace`."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no workspace spec at {path}; run `python -m lab.datasets.bakery` to write it")
    return json.loads(path.read_text(encoding="utf-8"))


def iter_blocks(blocks: list[Block]) -> Iterator[Block]:
    """Every block object in ``blocks``, depth first: children, column contents and table rows included.

    A table's rows and a column list's columns are blocks in Notion, so they are yielded as
    ``{"type": "table_row", "cells": [...]}`` and ``{"type": "column", "children": [...]}``.
    """
    for block in blocks:
        yield block
        for row in block.get("rows", []):
            yield {"type": "table_row", "cells": row}
        for column in block.get("columns", []):
            yield {"type": "column", "children": column}
            yield from iter_blocks(column)
        yield from iter_blocks(block.get("children", []))


def page_texts(page: dict[str, Any]) -> list[str]:
    """The visible text of a page in reading order: block texts, table cells and captions."""
    texts = []
    for block in iter_blocks(page["blocks"]):
        text = block.get("text")
        if isinstance(text, list):
            text = "".join(run["text"] for run in text)
        if text:
            texts.append(text)
        texts += [cell for cell in block.get("cells", []) if cell]
        if block.get("caption"):
            texts.append(block["caption"])
    return texts


def _summary(spec: dict[str, Any]) -> str:
    publishable = [page for page in spec["pages"] if page["publishable"]]
    tokens = [sum(count_tokens(text) for text in page_texts(page)) for page in publishable]
    blocks = sum(1 for page in spec["pages"] for _ in iter_blocks(page["blocks"]))
    return (f"{len(spec['pages'])} pages ({len(publishable)} publishable), {blocks} blocks; publishable pages "
            f"hold {sum(tokens):,} lab tokens ({min(tokens)} to {max(tokens)} per page)")


if __name__ == "__main__":
    written = write_bakery_workspace()
    print(f"wrote {written}: {_summary(load_bakery_workspace(written))}")
