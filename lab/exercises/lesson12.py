"""The checkers of lesson 12's exercises (expected values computed, never typed)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from lab.course.lesson12 import BATCH_SIZE, docs_paragraphs, edit_file
from lab.datasets.docs_corpus import DOCS_DIR
from lab.embedders import LsaEmbedder
from lab.exercises.checking import Exercises
from lab.index import IndexStore
from lab.ingest import GuardrailError, IngestReport, ingest_folder


#: The checkers of the exercises at the end of lesson 12: ``exercise(1).check(...)``.
exercise = Exercises("lesson12")


def _fresh_run(edit: tuple[str, str, str] | None = None, remove: tuple[str, ...] = (),
               max_delete_share: float = 0.5) -> tuple[IngestReport, IngestReport | str]:
    """A first run on a scratch copy of the corpus, then a second after an edit or removals."""
    embedder = LsaEmbedder(n_components=64).fit(docs_paragraphs())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(shutil.copytree(DOCS_DIR, Path(tmp) / "docs"))
        store = IndexStore(":memory:")
        first = ingest_folder(store, folder, embedder, batch_size=BATCH_SIZE)
        if edit:
            edit_file(folder / edit[0], edit[1], edit[2])
        for name in remove:
            shutil.rmtree(folder / name) if (folder / name).is_dir() else (folder / name).unlink()
        try:
            return first, ingest_folder(store, folder, embedder, batch_size=BATCH_SIZE,
                                        max_delete_share=max_delete_share)
        except GuardrailError as exc:
            return first, str(exc)


#: Exercise 1's edit: one word in one section of the members page.
EXERCISE_EDIT = ("admin/members-and-roles.md", "Owner", "Workspace owner")


@exercise.define(1)
def _predict_an_edit() -> dict:
    first, second = _fresh_run(edit=EXERCISE_EDIT)
    return {"chunks_changed": second.chunks_changed, "texts_embedded": second.texts_embedded,
            "generation": second.generation}


@exercise.define(2)
def _guardrail() -> dict:
    first, refused = _fresh_run(remove=("integrations",), max_delete_share=0.1)
    _, allowed = _fresh_run(remove=("integrations",), max_delete_share=0.5)
    return {"chunks_deleted": allowed.chunks_deleted,
            "share_pct": round(100 * allowed.chunks_deleted / first.chunks_total, 1),
            "refused_at_10_pct": isinstance(refused, str)}


