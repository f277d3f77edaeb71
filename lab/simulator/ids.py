"""Deterministic, UUID-shaped identifiers for everything the simulator creates."""

from __future__ import annotations

import functools
import uuid

from lab.notion.ids import is_notion_id

__all__ = ["object_id", "is_uuid", "normalise_id"]

_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/rag-ingestion-lab/notion-simulator")


@functools.lru_cache(maxsize=1 << 16)
def object_id(*parts: object) -> str:
    """A stable UUID for a named object: the same parts always give the same id (remembered,
    since listing a large data source asks for the same option ids thousands of times)."""
    return str(uuid.uuid5(_NAMESPACE, "/".join(str(p) for p in parts)))


def is_uuid(text: str) -> bool:
    """True for a UUID with or without dashes, as Notion accepts both in paths."""
    return is_notion_id(text)


def normalise_id(text: str) -> str:
    """The dashed, lower-case form of a UUID (Notion returns ids dashed)."""
    return str(uuid.UUID(text))
