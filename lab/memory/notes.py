"""Retrieval over a learner's notes: the third memory strategy, with TF-IDF and cosine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from lab.memory.prompt import RetrievedNote
from lab.vectors import TfidfVectorizer, WordAnalyzer

__all__ = ["NoteIndex"]


class NoteIndex:
    """TF-IDF over notes (``{"id", "title", "text"}``); ``retrieve`` returns the k closest with scores.

    The note's title is indexed with its text, as a reader would skim both.
    """

    def __init__(self, notes: Sequence[Mapping[str, Any]], stop_words: str = "en") -> None:
        self.notes = list(notes)
        self.vectorizer = TfidfVectorizer(analyzer=WordAnalyzer(stop_words=stop_words))
        self.matrix = self.vectorizer.fit_transform([f"{n['title']}. {n['text']}" for n in self.notes])

    def scores(self, question: str) -> np.ndarray:
        """Cosine similarity of the question with every note, in note order."""
        return np.asarray((self.matrix @ self.vectorizer.transform([question]).T).toarray()).ravel()

    def retrieve(self, question: str, k: int = 3) -> list[RetrievedNote]:
        """The k most similar notes, best first (ties by note order), scores rounded to 3 decimals."""
        scores = self.scores(question)
        order = np.lexsort((np.arange(len(scores)), -scores))[:k]
        return [RetrievedNote(self.notes[i]["id"], round(float(scores[i]), 3), self.notes[i]["title"],
                              self.notes[i]["text"]) for i in order]
