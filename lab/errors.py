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

import re

__all__ = ["LabError", "escaped_controls"]

_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class LabError(Exception):
    """An error the lab raises on purpose, with a message that names the problem and the fix."""


def escaped_controls(text: str, keep: str = "") -> str:
    """``text`` fit for a message or a terminal: every control character but those in ``keep`` written as an
    escape (``\\n``, ``\\x1b``), so that a name or a title someone else wrote can neither cut a one-line
    message nor send the terminal an escape sequence."""
    return _CONTROLS.sub(lambda found: found.group() if found.group() in keep else ascii(found.group())[1:-1], text)
