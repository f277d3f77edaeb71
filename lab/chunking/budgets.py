"""Checking chunk sizes and counting windows: the arithmetic the chunkers share."""

from __future__ import annotations

import math

from lab.arguments import check_positive_int
from lab.chunking.errors import ChunkerParameterError

__all__ = ["check_window", "window_count", "window_bounds"]


def check_window(size: int, overlap: int, size_name: str, overlap_name: str) -> None:
    """Raise :class:`ChunkerParameterError` unless ``size >= 1`` and ``0 <= overlap < size``;
    the names are the parameters' own, so the message says which to change."""
    check_positive_int(size_name, size, error=ChunkerParameterError)
    if not isinstance(overlap, int) or isinstance(overlap, bool) or not 0 <= overlap < size:
        raise ChunkerParameterError(
            f"{overlap_name} must be an integer with 0 <= {overlap_name} < {size_name} ({size}), got {overlap!r}; "
            f"windows advance by {size_name} - {overlap_name}, which must be at least 1")


def window_count(n: int, size: int, overlap: int) -> int:
    """Windows of ``size`` advancing ``size - overlap`` needed to cover ``n`` items.

    0 for an empty input, 1 when ``n <= size``, else ``ceil((n - overlap) / (size - overlap))``,
    which equals ``ceil((n - size) / (size - overlap)) + 1``.
    """
    if n <= 0:
        return 0
    if n <= size:
        return 1
    return math.ceil((n - overlap) / (size - overlap))


def window_bounds(n: int, size: int, overlap: int) -> list[tuple[int, int]]:
    """``(first, stop)`` item indices of each window: the first covers ``0:size``, the next starts
    ``size - overlap`` later, the last ends at ``n``."""
    bounds, first = [], 0
    while first < n:
        stop = min(first + size, n)
        bounds.append((first, stop))
        if stop == n:
            break
        first = stop - overlap
    return bounds
