"""The root of every error the lab raises on purpose.

Each layer has its own errors (the client's ``NotionAPIError``, the index's ``StoreError``, the
chunkers' ``ChunkingError``, ...), and each also derives from :class:`LabError`, so a caller can
catch everything the lab reports in one line, as requests' ``RequestException`` allows::

    try:
        incremental_sync(client, store, clock)
    except LabError as error:
        print(error)
"""

from __future__ import annotations

__all__ = ["LabError"]


class LabError(Exception):
    """An error the lab raises on purpose, with a message that names the problem and the fix."""
