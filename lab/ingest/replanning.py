"""Publishing into an index that another run may publish into at the same time.

A run (a page sync, a files run) reads, plans its writes against a snapshot of the index, and
writes them in one transaction, but only if no other run has published since: the index's
generation number has not moved. Otherwise nothing was written, so it plans again from the index
(and the source) as they now are, up to :data:`MAX_ATTEMPTS` times. Two runs on one file, in one
process or two, never lose an edit, and none writes a plan made against an index that is gone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from lab.errors import LabError
from lab.index import IndexStore

__all__ = ["MAX_ATTEMPTS", "ConcurrentSyncError", "IndexMoved", "check_unmoved", "publish_with_replanning"]

#: How many times a run plans again when another run published into the index while it read.
MAX_ATTEMPTS = 3

ReportT = TypeVar("ReportT")


class ConcurrentSyncError(LabError, RuntimeError):
    """Other runs kept publishing into the index while this one read; nothing was written."""


class IndexMoved(LabError):
    """Another run published after this one took its snapshot: plan again (caught by
    :func:`publish_with_replanning`, never seen by a caller)."""


def check_unmoved(store: IndexStore, generation: int) -> None:
    """Inside the write transaction: raise :class:`IndexMoved` if the index is no longer at the
    ``generation`` the run planned against."""
    if store.generation() != generation:
        raise IndexMoved(f"another run published into {store.path} after generation {generation}, which this "
                         "run planned against: plan again from the index as it now is")


def publish_with_replanning(store: IndexStore, attempt: Callable[[int], ReportT]) -> ReportT:
    """Call ``attempt(1)``, ``attempt(2)``, ... until one writes without :class:`IndexMoved`; its report.

    Each attempt reads, plans and writes afresh. Raises :class:`ConcurrentSyncError` (nothing
    written) after :data:`MAX_ATTEMPTS` attempts that each found the index moved.
    """
    for number in range(1, MAX_ATTEMPTS + 1):
        try:
            return attempt(number)
        except IndexMoved:
            continue
    raise ConcurrentSyncError(
        f"other runs published into {store.path} while this one was reading, {MAX_ATTEMPTS} times in a row; "
        "nothing was written. Run it again when they have finished.")
