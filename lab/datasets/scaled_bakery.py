"""A bakery workspace of any size: the publishable pages cloned under new keys, for scale tests.

The bakery has 40 publishable pages; measuring how ingestion grows needs hundreds or thousands.
:func:`scaled_bakery_spec` keeps the whole workspace (so everything the lessons rely on is still
there) and adds copies of the publishable pages, cycling through them, until the knowledge base
holds ``n_pages`` publishable pages. A copy keeps its original's blocks and dates and gets a key
and a title of its own. Cloned text has the original's small vocabulary (about 2,700 words),
while a real workspace of that size has tens of thousands: ``distinct_words`` adds to each copy
a paragraph of that many made-up words of its own, so that the vocabulary grows with the
workspace as it would in real life.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

__all__ = ["scaled_bakery_spec", "clone_key"]

_SYLLABLES = ("ba", "be", "bi", "bo", "ca", "ce", "co", "cu", "da", "de", "do", "fa", "fe", "fi", "ga", "go",
              "la", "le", "li", "lo", "ma", "me", "mi", "mo", "na", "ne", "no", "pa", "pe", "pi", "po", "ra",
              "re", "ri", "ro", "sa", "se", "si", "so", "ta", "te", "ti", "to", "va", "ve", "vi", "za", "zo")


def clone_key(key: str, copy_number: int) -> str:
    """The key of the ``copy_number``-th copy of page ``key`` (1-based)."""
    return f"{key}-copia-{copy_number}"


def _publishable(page: dict[str, Any]) -> bool:
    return page.get("publishable", False) and page.get("parent", {}).get("type") == "data_source"


def _cloned_blocks(blocks: list[dict[str, Any]], copy_number: int) -> list[dict[str, Any]]:
    """The blocks of a copy: sub-page links dropped (a page has one parent) and synced originals renamed
    (a synced block's key is unique in a workspace); references to synced originals stay as they are."""
    cloned = []
    for block in blocks:
        if block.get("type") == "child_page":
            continue
        block = copy.deepcopy(block)
        if block.get("type") == "synced_block" and "key" in block:
            block["key"] = clone_key(block["key"], copy_number)
        if "children" in block:
            block["children"] = _cloned_blocks(block["children"], copy_number)
        cloned.append(block)
    return cloned


def _made_up_words(rng: np.random.Generator, count: int) -> str:
    picks = rng.integers(0, len(_SYLLABLES), size=(count, 4))
    return " ".join("".join(_SYLLABLES[i] for i in row) for row in picks)


def scaled_bakery_spec(n_pages: int, *, distinct_words: int = 0, seed: int = 0,
                       base: dict[str, Any] | None = None) -> dict[str, Any]:
    """The bakery's workspace spec with ``n_pages`` publishable pages in its knowledge base.

    ``n_pages`` must be at least the bakery's own 40. Copies are made in page order, a round
    at a time (every page's first copy, then every page's second...), so that any size holds
    the same mix of page types. ``distinct_words`` made-up words (drawn with ``seed``) are added
    to each copy as a last paragraph.
    """
    if base is None:
        from lab.datasets.bakery import load_bakery_workspace
        base = load_bakery_workspace()
    spec = copy.deepcopy(base)
    originals = [page for page in spec["pages"] if _publishable(page)]
    if n_pages < len(originals):
        raise ValueError(f"the bakery already has {len(originals)} publishable pages; ask for at least that many "
                         f"(got n_pages={n_pages})")
    if distinct_words < 0:
        raise ValueError(f"distinct_words must be 0 or more, got {distinct_words}")
    rng = np.random.default_rng(seed)
    for n in range(n_pages - len(originals)):
        original, copy_number = originals[n % len(originals)], n // len(originals) + 1
        page = {key: value for key, value in original.items() if key != "blocks"}
        page["key"] = clone_key(original["key"], copy_number)
        page["title"] = f"{original['title']} (copia {copy_number})"
        page["blocks"] = _cloned_blocks(original.get("blocks", []), copy_number)
        if distinct_words:
            page["blocks"].append({"type": "paragraph", "text": _made_up_words(rng, distinct_words)})
        spec["pages"].append(page)
    return spec
