"""When a read made earlier still holds every edit of a page: minute stamps and when the read began."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

__all__ = ["read_is_current"]


def read_is_current(page: dict[str, Any], edited: str | None, read_at: str) -> bool:
    """Whether a read of this page (made at ``read_at`` of the version stamped ``edited``) holds
    every edit of the page object ``page``.

    ``last_edited_time`` has minute precision: a read made during the minute the page was stamped
    may have missed a later edit in that same minute (the stamp does not move), so only a read
    that began after the minute closed is current.
    """
    if edited != page["last_edited_time"] or not read_at:
        return False
    stamp = datetime.fromisoformat(page["last_edited_time"].replace("Z", "+00:00"))
    return datetime.fromisoformat(read_at) >= stamp + timedelta(minutes=1)
