"""The study-notes corpus: 12 short English notes in 4 topics, with labelled queries.

Lesson 04 cuts the notes, read one after another, into fixed word windows; lesson 07 uses the
queries (each with the ids of its relevant notes, one with none) to measure retrieval.
The file ``lab/datasets/data/corpora/study_notes.json`` is written by hand, as is
``lab/datasets/data/corpora/study_session.json``, a scripted conversation about the notes (lesson 08),
and ``lab/datasets/data/corpora/study_fortnight.json``, a longer one with facts to remember and
questions that probe them (lesson 08's "what a summary loses").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lab.datasets.package_data import PACKAGE_DATA

__all__ = ["STUDY_FORTNIGHT_PATH", "STUDY_NOTES_PATH", "STUDY_SESSION_PATH", "load_study_fortnight", "load_study_notes",
           "load_study_session", "note_documents"]

STUDY_NOTES_PATH = PACKAGE_DATA / "corpora" / "study_notes.json"
STUDY_SESSION_PATH = PACKAGE_DATA / "corpora" / "study_session.json"
STUDY_FORTNIGHT_PATH = PACKAGE_DATA / "corpora" / "study_fortnight.json"


def load_study_notes(path: Path = STUDY_NOTES_PATH) -> dict[str, Any]:
    """``{"notes": [{"id", "topic", "title", "text"}, ...], "queries": [{"id", "query", "relevant"}, ...]}``."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def note_documents(corpus: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """The notes as ``(id, text)`` pairs in file order, the input of the word-window chunker."""
    corpus = corpus if corpus is not None else load_study_notes()
    return [(note["id"], note["text"]) for note in corpus["notes"]]


def load_study_session(path: Path = STUDY_SESSION_PATH) -> list[dict[str, str]]:
    """The scripted conversation's turns, in order: ``[{"user": ..., "assistant": ...}, ...]``."""
    return json.loads(Path(path).read_text(encoding="utf-8"))["turns"]


def load_study_fortnight(path: Path = STUDY_FORTNIGHT_PATH) -> dict[str, Any]:
    """``{"turns": [{"user", "assistant"}, ...], "probes": [{"fact", "question", "answer"}, ...]}``."""
    return json.loads(Path(path).read_text(encoding="utf-8"))
