"""Synced blocks: text a page shows that another page holds, and how a sync sees that it changed.

A synced block reference shows the children of its original, which may sit in another page.
Editing the original stamps the page that holds it, never the pages that show it, and neither
does unsharing that page (the reference then reads as empty), so a page's ``last_edited_time``
cannot say whether its read still holds what it shows through a reference. The index keeps, for
each page, a fingerprint of what every reference to an original outside the page showed, and
the originals the page holds itself. A sync takes an original as unchanged when the page that
holds it is a listed row not edited since the showing page was read (no request); otherwise it
reads the original again (once per run, however many pages show it) and reads again every page
whose fingerprint moved.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from lab.chunking.records import fingerprint
from lab.client import NotionClient, ObjectNotFound, walk_blocks
from lab.ingest.read_times import read_is_current
from lab.index import IndexedPage

__all__ = ["shown_originals", "held_originals", "SyncedOriginals"]

Blocks = list[tuple[int, dict[str, Any]]]


def _fingerprint(blocks: Iterable[tuple[int, dict[str, Any]]]) -> str:
    """What a reference shows, as 16 hex digits: every block with its depth under the reference."""
    return fingerprint(json.dumps([[depth, block] for depth, block in blocks], sort_keys=True, ensure_ascii=False))


NOTHING_SHOWN = _fingerprint([])  # an original that could not be read (unshared, trashed) shows nothing


def _original_of(block: dict[str, Any]) -> str | None:
    source = (block.get("synced_block") or {}).get("synced_from") or {}
    return source.get("block_id") if block["type"] == "synced_block" else None


def _references(blocks: Blocks) -> Iterator[tuple[int, str | None, Blocks]]:
    """Each block of the page's own (not shown through a reference): its position, the original
    it refers to (``None`` if it is no reference) and, for a reference, what it shows."""
    i = 0
    while i < len(blocks):
        depth, block = blocks[i]
        original, end = _original_of(block), i + 1
        while original is not None and end < len(blocks) and blocks[end][0] > depth:
            end += 1
        yield i, original, [(d - depth - 1, inner) for d, inner in blocks[i + 1:end]]
        i = end


def held_originals(blocks: Blocks) -> list[str]:
    """The ids of the synced originals a page holds among its own blocks."""
    return sorted(blocks[i][1]["id"] for i, original, _ in _references(blocks)
                  if original is None and blocks[i][1]["type"] == "synced_block")


def shown_originals(blocks: Blocks) -> dict[str, str]:
    """Original block id -> fingerprint of what the page's first reference to it showed, for every
    original the page does not hold itself (an edit of one it holds stamps the page)."""
    own = set(held_originals(blocks))
    found: dict[str, str] = {}
    for _, original, shown in _references(blocks):
        if original is not None and original not in own and original not in found:
            found[original] = _fingerprint(shown)
    return dict(sorted(found.items()))


class SyncedOriginals:
    """Whether what a page showed of synced originals still holds, asked during one run.

    ``holders`` maps an original to the page the index holds it in; ``listed`` holds the page
    objects this run listed (the publishable rows), by id. An original whose holder is listed and
    was not edited since a page was read is unchanged for that read; any other is read again, at
    most once per run.
    """

    def __init__(self, client: NotionClient, holders: Mapping[str, str] | None = None,
                 listed: Mapping[str, dict[str, Any]] | None = None) -> None:
        self._client = client
        self._holders = holders if holders is not None else {}  # a mapping looked up lazily may be empty yet
        self._listed = listed if listed is not None else {}
        self._now: dict[str, str] = {}

    @classmethod
    def for_index(cls, client: NotionClient, known: Mapping[str, IndexedPage],
                  listed: Iterable[dict[str, Any]]) -> SyncedOriginals:
        """For a run that holds the pages ``known`` (the index's, or a checkpoint's) and listed the rows ``listed``."""
        return cls(client, holders={original: page_id for page_id, page in known.items()
                                    for original in page.held_originals},
                   listed={page["id"]: page for page in listed})

    def fingerprint(self, original_id: str) -> str:
        """The fingerprint of what a reference to ``original_id`` shows now (read once per run)."""
        if original_id not in self._now:
            try:
                blocks = list(walk_blocks(self._client, original_id))
            except ObjectNotFound:  # unshared, or the page holding it is gone: a reference shows nothing
                blocks = []
            self._now[original_id] = _fingerprint(blocks)
        return self._now[original_id]

    def _holder_unedited(self, original_id: str, fingerprint: str, read_at: str) -> bool:
        holder = self._listed.get(self._holders.get(original_id, ""))
        # a read that showed nothing may have met an unshared holder, whose sharing again stamps nothing
        return (holder is not None and fingerprint != NOTHING_SHOWN
                and read_is_current(holder, holder["last_edited_time"], read_at))

    def unchanged(self, shown: Mapping[str, str], read_at: str) -> bool:
        """Whether every original a read made at ``read_at`` showed (``shown``, from
        :func:`shown_originals`) shows the same now."""
        return all(self._holder_unedited(original, fingerprint, read_at) or self.fingerprint(original) == fingerprint
                   for original, fingerprint in shown.items())
