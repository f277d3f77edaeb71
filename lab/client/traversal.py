"""Recursive reading of a page's blocks, in document order, with guards against loops.

Toggles, nested lists, columns, tables and synced blocks keep their content in children, each
level one more request. The walk yields ``(depth, block)``; it does not enter sub-pages or
sub-databases (they are documents of their own), reads a synced reference through its
original, refuses to enter a container that is already being read higher up (a synced block
can end up containing itself) and stops at a depth fuse.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from lab.client.errors import ObjectNotFound
from lab.client.pagination import iterate_paginated_api

__all__ = ["walk_blocks", "WalkReport", "DEFAULT_MAX_DEPTH", "SKIPPED_CONTAINERS"]

DEFAULT_MAX_DEPTH = 10
SKIPPED_CONTAINERS = frozenset({"child_page", "child_database"})


@dataclass
class WalkReport:
    """What a walk did not follow, and why (block ids)."""

    cycles: list[str] = field(default_factory=list)
    too_deep: list[str] = field(default_factory=list)
    unreachable: list[str] = field(default_factory=list)
    sub_pages: list[str] = field(default_factory=list)
    containers_read: int = 0


def _container_of(block: dict[str, Any]) -> str:
    """The id whose children hold a block's content (a synced reference reads its original)."""
    if block["type"] == "synced_block":
        source = (block.get("synced_block") or {}).get("synced_from")
        if source and source.get("block_id"):
            return source["block_id"]
    return block["id"]


def walk_blocks(client: Any, block_id: str, *, max_depth: int = DEFAULT_MAX_DEPTH,
                report: WalkReport | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(depth, block)`` for every block under ``block_id`` (a page id reads the page)."""
    report = report if report is not None else WalkReport()

    def walk(container: str, depth: int, path: frozenset[str]) -> Iterator[tuple[int, dict[str, Any]]]:
        report.containers_read += 1
        for block in iterate_paginated_api(client.blocks.children.list, block_id=container):
            yield depth, block
            if not block.get("has_children"):
                continue
            if block["type"] in SKIPPED_CONTAINERS:
                report.sub_pages.append(block["id"])
                continue
            inner = _container_of(block)
            if inner in path:
                report.cycles.append(block["id"])
                continue
            if depth + 1 > max_depth:
                report.too_deep.append(block["id"])
                continue
            try:
                yield from walk(inner, depth + 1, path | {inner})
            except ObjectNotFound:
                report.unreachable.append(inner)  # e.g. a synced original in a page not shared with us

    yield from walk(block_id, 0, frozenset({block_id}))
