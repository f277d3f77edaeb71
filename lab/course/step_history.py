"""The world before each step of a lesson, so that a step run again does what it did the first time.

A lesson told as steps (lesson 06's workspace, lesson 12's folder) keeps, by step name, a
snapshot of the world taken when the step first ran. Running a step again restores its snapshot
and forgets the steps recorded after it: later cells continue from the re-run, as a learner
expects. What a snapshot holds is the subclass's business (:class:`lab.course.story.Story`,
:class:`lab.course.folder_story.FolderStory`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

__all__ = ["StepHistory"]

SnapshotT = TypeVar("SnapshotT")


class StepHistory(Generic[SnapshotT]):
    """Snapshots of the world before each step, by step name, in the order steps first ran.

    Subclasses say how to take a snapshot (``_snapshot``) and put one back (``_restore``).
    """

    def __init__(self) -> None:
        self._before: dict[str, SnapshotT] = {}

    @property
    def steps(self) -> list[str]:
        """The steps recorded so far, in order."""
        return list(self._before)

    def _begin(self, name: str) -> None:
        """Restore the world as it was when step ``name`` first ran, forgetting the steps after it;
        or, on its first run, remember the world as it is now."""
        if name not in self._before:
            self._before[name] = self._snapshot()
            return
        names = list(self._before)
        self._forget(names[names.index(name):])
        for later in names[names.index(name) + 1:]:
            del self._before[later]
        self._restore(self._before[name])

    def _forget(self, names: Sequence[str]) -> None:
        """Drop what steps ``names`` left behind, beyond the world itself (they are about to run again or
        be run anew); nothing by default."""

    def _snapshot(self) -> SnapshotT:
        raise NotImplementedError

    def _restore(self, snapshot: SnapshotT) -> None:
        raise NotImplementedError
