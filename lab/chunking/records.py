"""The chunk record every chunker returns: what gets embedded, where it came from, its fingerprint."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import pandas as pd

__all__ = ["Chunk", "fingerprint", "chunks_to_frame"]


def fingerprint(text: str) -> str:
    """First 16 hex digits of the SHA-256 of ``text`` (UTF-8): equal text, equal fingerprint."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Chunk:
    """One piece of a page, ready to embed and to store.

    ``text`` is what gets embedded: a header line naming the page and section (plus a
    repeated table header when the piece starts inside a table) and then ``body``.
    ``body`` is an exact slice of the source text: ``source_text[start:end] == body``.
    ``tokens`` counts the lab tokens of ``body``; ``fingerprint`` hashes ``text``, so a sync
    can skip chunks whose embedded text did not change. ``version`` is the version of the
    documentation the chunk belongs to (a markdown file's publication comment, a Notion page's
    version property); ``None`` when its document names none. Like ``edited``, it is not part of
    the fingerprint: a new version with the same text needs no new vector, only a new row.
    """

    id: str
    page_id: str
    title: str
    type: str | None
    section: str | None
    order: int
    text: str
    body: str
    start: int
    end: int
    tokens: int
    fingerprint: str
    edited: str | None
    chunker: str
    version: str | None = None
    source: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A plain dict of every field (``source`` copied), for JSON, SQLite rows or pandas."""
        return asdict(self)


CHUNK_COLUMNS = [f for f in Chunk.__dataclass_fields__]


def chunks_to_frame(chunks: Sequence[Chunk]) -> pd.DataFrame:
    """One row per chunk, one column per field, in the order given (an empty list gives the columns)."""
    return pd.DataFrame([c.to_dict() for c in chunks], columns=CHUNK_COLUMNS)
