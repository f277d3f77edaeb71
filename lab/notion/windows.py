"""Rate-limit windows as both sides of the wire count them.

Notion counts a connection's requests in fixed windows (60 s by default); the simulator enforces
them, and the client's pacers and yardsticks plan around them. All of them must put a request in
the same window, so the window a moment falls in is computed here, once.
"""

from __future__ import annotations

import math

__all__ = ["window_index"]

#: A hair's tolerance, as a fraction of a window: ten steps of 0.1 s add up to 0.9999999999999999 s in
#: floating point, and the moment they reach belongs to the next 1-s window, not the last one.
_TOLERANCE = 1e-9


def window_index(t: float, window_seconds: float, origin: float = 0.0) -> int:
    """The ``k`` of the fixed window ``[origin + k·window_seconds, origin + (k+1)·window_seconds)`` holding ``t``."""
    return math.floor((t - origin) / window_seconds + _TOLERANCE)
