"""Retrieval over a learner's notes: the third memory strategy, with TF-IDF and cosine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from lab.memory.prompt import RetrievedNote, assemble_prompt
from lab.vectors import Hit, TfidfVectorizer, WordAnalyzer, cosine_scores, top_k_rows

__all__ = ["NoteIndex", "ThresholdEffect", "threshold_effect"]


class NoteIndex:
    """TF-IDF over notes (``{"id", "title", "text"}``); ``search`` ranks them, ``retrieve`` feeds a prompt.

    The note's title is indexed with its text, as a reader would skim both.
    """

    def __init__(self, notes: Sequence[Mapping[str, Any]], stop_words: str = "en") -> None:
        self.notes = list(notes)
        self.vectorizer = TfidfVectorizer(analyzer=WordAnalyzer(stop_words=stop_words))
        self.matrix = self.vectorizer.fit_transform([f"{n['title']}. {n['text']}" for n in self.notes])

    def scores(self, question: str) -> np.ndarray:
        """Cosine similarity of the question with every note, in note order."""
        return cosine_scores(self.matrix, self.vectorizer.transform([question]))

    def search(self, question: str, k: int = 3) -> list[Hit]:
        """The k most similar notes, best first (ties by note order)."""
        return [Hit(id=self.notes[row]["id"], score=score, title=self.notes[row]["title"])
                for row, score in top_k_rows(self.scores(question), k)]

    def retrieve(self, question: str, k: int = 3) -> list[RetrievedNote]:
        """The k most similar notes as a prompt takes them, with their text, scores rounded to 3 decimals."""
        texts = {note["id"]: note["text"] for note in self.notes}
        return [RetrievedNote(hit.id, round(hit.score, 3), hit.title, texts[hit.id])
                for hit in self.search(question, k)]


@dataclass(frozen=True)
class ThresholdEffect:
    """What a prompt threshold does over labelled queries: what it loses, what it lets in, what it costs."""

    min_score: float
    relevant_dropped: int  # relevant notes the search returned that the threshold left out
    unrelated_kept: int  # notes not labelled relevant that still reached a prompt
    prompt_tokens: int  # lab tokens of all the prompts together


def threshold_effect(index: NoteIndex, queries: Sequence[Mapping[str, Any]], min_score: float,
                     k: int = 3) -> ThresholdEffect:
    """Assemble one prompt per labelled query (``{"query", "relevant"}``) from its k best notes and count.

    Relevance comes from the labels, so this is how a threshold is set: as high as the labelled
    queries allow without dropping what they mark relevant.
    """
    dropped = kept = tokens = 0
    for query in queries:
        retrieved = index.retrieve(query["query"], k=k)
        prompt = assemble_prompt(query["query"], retrieved, min_score=min_score)
        relevant, included = set(query["relevant"]), set(prompt.included_ids)
        dropped += len(({note.id for note in retrieved} & relevant) - included)
        kept += len(included - relevant)
        tokens += prompt.tokens
    return ThresholdEffect(min_score, dropped, kept, tokens)
