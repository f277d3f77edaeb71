"""A lesson told as steps on a scratch folder and its index, whose cells can be run again.

Lesson 12 edits files, deletes them and re-ingests; running such a cell again would find the
file already edited and the index already written. Like :class:`lab.course.story.Story`, a
:class:`FolderStory` keeps the world as it was before each step (the folder's files, the
index, and any objects the lesson hands it, such as an answer cache), so a cell that starts with
``folder, store = story.step("edit a file")`` does what it did the first time. The folder is a
copy made in a temporary directory: the corpus under ``data/`` is never touched.
"""

from __future__ import annotations

import copy
import shutil
import tempfile
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lab.course.step_history import StepHistory
from lab.index import IndexStore

__all__ = ["FolderStory"]


@dataclass(frozen=True)
class _Snapshot:
    files: dict[str, bytes]
    index: bytes
    kept: dict[str, Any]


class FolderStory(StepHistory[_Snapshot]):
    """A scratch copy of ``corpus``, an in-memory index, and the world before each step, by name.

    ``kept`` holds other objects a step may change (``story.kept["cache"]``); they are restored too.
    """

    def __init__(self, corpus: Path, **kept: Any) -> None:
        super().__init__()
        scratch = Path(tempfile.mkdtemp(prefix="lab-files-"))
        weakref.finalize(self, shutil.rmtree, scratch, True)  # the copy goes with the story
        self.folder = Path(shutil.copytree(corpus, scratch / Path(corpus).name))
        self.store = IndexStore(":memory:")
        self.kept = dict(kept)
        self.records: dict[str, Any] = {}

    def step(self, name: str) -> tuple[Path, IndexStore]:
        """Start step ``name`` from the world as it was when it first ran (forgetting later steps),
        or from the world as it is now on its first run. Returns (folder, index)."""
        self._begin(name)
        self._current = name
        return self.folder, self.store

    def record(self, value: Any) -> Any:
        """Keep what the current step produced (a run report), in step order; returns it."""
        self.records[self._current] = value
        return value

    def _forget(self, names: Sequence[str]) -> None:
        for name in names:  # the re-run step records anew
            self.records.pop(name, None)

    def _snapshot(self) -> _Snapshot:
        return _Snapshot(self._files(), self.store.serialize(), copy.deepcopy(self.kept))

    def _files(self) -> dict[str, bytes]:
        return {p.relative_to(self.folder).as_posix(): p.read_bytes()
                for p in sorted(self.folder.rglob("*")) if p.is_file()}

    def _restore(self, snapshot: _Snapshot) -> None:
        shutil.rmtree(self.folder)
        for relative, data in snapshot.files.items():
            path = self.folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        self.store.restore(snapshot.index)
        self.kept = copy.deepcopy(snapshot.kept)
