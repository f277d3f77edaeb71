"""The Trigo Lento workspace: a deterministic generator of the spec the Notion simulator reads.

The bakery's knowledge base (40 publishable rows of one data source, 3 drafts) and its private
pages (Don Ernesto's recipes, the customer notes) are written as Python data in
``lab.datasets.trigo_lento``; this module gives every page its place, its dates and its authors,
and writes the result to ``data/workspace/bakery.json``. The same seed always gives the same
bytes, so the committed file can be checked by regenerating it::

    python -m lab.datasets.bakery
"""

from __future__ import annotations

import copy
import json
import zlib
from collections.abc import Iterator
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np

from lab.chunking.tokens import count_tokens
from lab.paths import DATA_DIR

from .trigo_lento.allergens import ALLERGEN_PAGES
from .trigo_lento.blocks import Block
from .trigo_lento.drafts import DRAFTS
from .trigo_lento.faqs import FAQS
from .trigo_lento.notices import NOTICES
from .trigo_lento.outline import Outline
from .trigo_lento.policies import POLICIES
from .trigo_lento.private import CUSTOMER_NOTES, RECIPE_INDEX, RECIPES
from .trigo_lento.products import FICHAS, PRODUCTS, latest_change

__all__ = [
    "DEFAULT_PATH", "DATA_SOURCE_KEY", "BOUNDARY_PAGE", "build_bakery_workspace", "write_bakery_workspace",
    "load_bakery_workspace", "iter_blocks", "page_texts",
]

#: Where the committed workspace spec lives.
DEFAULT_PATH = DATA_DIR / "workspace" / "bakery.json"
#: The one data source of the workspace: the knowledge base shared with the integrations.
DATA_SOURCE_KEY = "base-de-conocimiento"
#: The page edited last of all; an incremental sync on ``on_or_after`` re-reads it every time.
BOUNDARY_PAGE = "faq-conservacion"

_DATA_SOURCE_CREATED = datetime(2026, 1, 12, 15, 0, tzinfo=timezone.utc)
_ROWS_CREATED_FROM = date(2026, 1, 13)
_DATA_SOURCE_EDITED = datetime(2026, 2, 18, 18, 5, tzinfo=timezone.utc)
_EDITS_FROM = datetime(2026, 2, 20, tzinfo=timezone.utc)
_BOUNDARY_EDIT = datetime(2026, 4, 8, 13, 55, tzinfo=timezone.utc)
_PRIVATE_CREATED_FROM = date(2025, 10, 1)
# Mexico City is UTC-6: a working day at the bakery runs from 14:00 to 02:00 UTC.
_WORKDAY_START_UTC, _WORKDAY_HOURS = 14, 12

# Dates the pages themselves state, which their timestamps must agree with.
_FIXED_EDITS = {
    "politica-cancelaciones": datetime(2026, 3, 20, 17, 42, tzinfo=timezone.utc),  # the 48-hour rule
    BOUNDARY_PAGE: _BOUNDARY_EDIT,
}
_FIXED_CREATION = {
    # Written before the season, before the knowledge base existed, and moved into it later.
    "aviso-rosca-de-reyes": datetime(2025, 12, 9, 17, 20, tzinfo=timezone.utc),
    "ficha-rol-de-canela": datetime(2026, 2, 4, 16, 35, tzinfo=timezone.utc),  # its allergen note dates from February
}
_EDITED_NOT_BEFORE = {
    "faq-cambios-y-cancelaciones": date(2026, 3, 20),
    "aviso-mantenimiento-del-horno": date(2026, 3, 30),
    "aviso-obras-en-la-banqueta": date(2026, 4, 1),
    "aviso-semana-santa-2026": date(2026, 3, 16),
    "faq-talleres-de-panaderia": date(2026, 4, 2),  # holds the notes of the 2 April meeting
    **{f"ficha-{product.key}": changed for product in PRODUCTS if (changed := latest_change(product))},
}

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


def _edit_times(outlines: list[Outline], rng: np.random.Generator) -> dict[str, datetime]:
    """Distinct edit times, all before the boundary page's, honouring the dates pages mention."""
    taken = set(_FIXED_EDITS.values())
    times = dict(_FIXED_EDITS)
    for outline in outlines:
        if outline.key in times:
            continue
        first_day = max(_EDITS_FROM.date(), _EDITED_NOT_BEFORE.get(outline.key, _EDITS_FROM.date()))
        moment = _workday_minute(rng, first_day, _BOUNDARY_EDIT)
        while moment in taken:
            moment = _workday_minute(rng, first_day, _BOUNDARY_EDIT)
        taken.add(moment)
        times[outline.key] = moment
    return times


def _creation_time(key: str, edited: datetime, earliest: date, rng: np.random.Generator) -> datetime:
    if key in _FIXED_CREATION:
        return _FIXED_CREATION[key]
    return _workday_minute(rng, earliest, min(edited, _EDITS_FROM) - timedelta(days=1))


def _page(outline: Outline, parent: dict[str, str], publishable: bool, author: str, editor: str,
          created: datetime, edited: datetime, seed: int) -> dict[str, Any]:
    return {
        "key": outline.key,
        "title": outline.title,
        "parent": dict(parent),
        "type": outline.type,
        "publishable": publishable,
        "icon": outline.icon,
        "created": _iso(created),
        "edited": _iso(edited),
        "created_by": author,
        "edited_by": editor,
        "blocks": outline.build(_page_rng(seed, outline.key)),
    }


def build_bakery_workspace(seed: int = 2026) -> dict[str, Any]:
    """The whole workspace spec (users, data source, 50 pages, integrations), reproducible from ``seed``."""
    knowledge_base = [*FICHAS, *POLICIES, *FAQS, *NOTICES, *ALLERGEN_PAGES]
    private = [RECIPE_INDEX, *RECIPES, CUSTOMER_NOTES]
    everything = [*knowledge_base, *DRAFTS, *private]
    keys = [outline.key for outline in everything]
    if len(set(keys)) != len(keys):
        duplicated = sorted({key for key in keys if keys.count(key) > 1})
        raise ValueError(f"page keys must be unique; repeated: {duplicated}")

    clock = np.random.default_rng([seed, 0])
    edited = _edit_times(everything, clock)
    row = {"type": "data_source", "key": DATA_SOURCE_KEY}
    pages = []
    for outline in [*knowledge_base, *DRAFTS]:
        created = _creation_time(outline.key, edited[outline.key], _ROWS_CREATED_FROM, clock)
        pages.append(_page(outline, row, outline not in DRAFTS, "valeria", "valeria", created,
                           edited[outline.key], seed))
    for outline in private:
        created = _creation_time(outline.key, edited[outline.key], _PRIVATE_CREATED_FROM, clock)
        if outline is CUSTOMER_NOTES:
            parent, author = {"type": "workspace"}, "valeria"
        elif outline is RECIPE_INDEX:
            parent, author = {"type": "workspace"}, "ernesto"
        else:
            parent, author = {"type": "page", "key": RECIPE_INDEX.key}, "ernesto"
        pages.append(_page(outline, parent, False, author, author, created, edited[outline.key], seed))

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
