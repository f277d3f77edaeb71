"""What a Notion object id looks like: a UUID, with or without dashes, as Notion accepts both in paths."""

from __future__ import annotations

import uuid

__all__ = ["is_notion_id"]


def is_notion_id(text: object) -> bool:
    """True for a UUID of 32 hex digits, dashed or not (``uuid.UUID`` alone also takes braces and ``urn:``)."""
    if not isinstance(text, str):
        return False
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return len(text.replace("-", "")) == 32
