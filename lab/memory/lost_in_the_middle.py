"""Lost in the middle: an offline reader that attends least to the middle of a long context.

Liu et al. (2024, "Lost in the Middle: How Language Models Use Long Contexts") measured that
models use a passage best when it sits at the start or the end of a long context and worst when
it sits in the middle: a U-shaped curve. :class:`PositionalReader` does not measure that; it
assumes it, so that its consequence for prompts can be seen offline and deterministically. It
scores each passage by its TF-IDF similarity to the question times an attention weight that is
1 at both ends of the context and ``1 - depth`` in the middle, and answers from the passage with
the best score. A right passage in the middle can then lose to a merely related one near an
edge, which is why a prompt puts its best source first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from lab.memory.notes import NoteIndex
from lab.memory.prompt import RetrievedNote
from lab.vectors import TfidfVectorizer, WordAnalyzer, cosine_scores

__all__ = ["ARRANGEMENTS", "PLACES", "PositionalReader", "Reading", "attention", "place", "placement_effect"]

#: Where :func:`place` can put a passage in a context.
PLACES = ("start", "middle", "end")
#: The contexts :func:`placement_effect` compares: the answer moved to a place, or left where an order puts it.
ARRANGEMENTS = (*PLACES, "retrieval order", "note id order")


def attention(position: int, n: int, depth: float = 0.5) -> float:
    """The weight given to passage ``position`` (from 0) of ``n``: 1 at both ends, ``1 - depth`` in the middle.

    A parabola in the relative position ``x = position / (n - 1)``: ``1 - 4 depth x (1 - x)``.
    """
    if not 0 <= position < n:
        raise ValueError(f"position must be in 0..{n - 1}, got {position}")
    if n == 1:
        return 1.0
    x = position / (n - 1)
    return 1.0 - 4.0 * depth * x * (1.0 - x)


@dataclass(frozen=True)
class Reading:
    """What the reader made of a context: each passage's relevance and weight, and the passage it answers from."""

    ids: tuple[str, ...]
    relevance: tuple[float, ...]  # cosine with the question, in context order
    weights: tuple[float, ...]  # attention at each position
    answer_id: str

    @property
    def position(self) -> int:
        """Where the passage it answered from sits in the context (from 0)."""
        return self.ids.index(self.answer_id)


class PositionalReader:
    """Answers from the passage with the highest similarity x attention; ``depth=0`` reads every position alike.

    Similarity is TF-IDF cosine between the question and each passage (title and text), with the
    idf fitted on the passages of the context itself, as a reader sees only what it is given.
    Ties go to the earlier passage.
    """

    def __init__(self, depth: float = 0.5, stop_words: str = "en") -> None:
        if not 0.0 <= depth < 1.0:
            raise ValueError(f"depth must be in [0, 1): the middle keeps a weight of 1 - depth; got {depth!r}")
        self.depth = depth
        self.stop_words = stop_words

    def read(self, question: str, passages: Sequence[RetrievedNote]) -> Reading:
        """Score every passage of the context, in the order given, and pick the one to answer from."""
        if not passages:
            raise ValueError("the context is empty: give the reader at least one passage")
        vectorizer = TfidfVectorizer(analyzer=WordAnalyzer(stop_words=self.stop_words))
        matrix = vectorizer.fit_transform([f"{p.title}. {p.text}" for p in passages])
        relevance = [round(float(s), 6) for s in cosine_scores(matrix, vectorizer.transform([question]))]
        weights = [attention(i, len(passages), self.depth) for i in range(len(passages))]
        scores = [r * w for r, w in zip(relevance, weights)]
        best = max(range(len(passages)), key=lambda i: (scores[i], -i))
        return Reading(ids=tuple(p.id for p in passages), relevance=tuple(relevance), weights=tuple(weights),
                       answer_id=passages[best].id)


def place(passages: Sequence[RetrievedNote], passage_id: str, where: str) -> list[RetrievedNote]:
    """The passages with ``passage_id`` moved to the start, the middle or the end; the others keep their order."""
    if where not in PLACES:
        raise ValueError(f"where must be one of {PLACES}, got {where!r}")
    moved = [p for p in passages if p.id == passage_id]
    if len(moved) != 1:
        raise ValueError(f"{passage_id!r} must appear once among the passages, found {len(moved)}")
    others = [p for p in passages if p.id != passage_id]
    at = {"start": 0, "middle": len(others) // 2, "end": len(others)}[where]
    return others[:at] + moved + others[at:]


def placement_effect(index: NoteIndex, queries: Iterable[Mapping[str, Any]],
                     depths: Sequence[float] = (0.0, 0.3, 0.5)) -> pd.DataFrame:
    """How many labelled questions a reader of each ``depth`` answers from a relevant note, per arrangement.

    A question's context is every note of ``index`` in retrieval order, less its relevant notes
    other than the best-ranked one, so exactly one note answers it. That note is moved to the
    start, the middle or the end (the others keep retrieval order, the closest competitors
    first), or left where retrieval order or note id order puts it. Questions without a relevant
    note are skipped.

    Columns: arrangement, position (where the answering note sits, from 1, as "min-max" over the
    questions), then one count per depth, named after the middle's weight ("middle weight 0.5").
    """
    readers = {f"middle weight {1 - depth:.1f}": PositionalReader(depth) for depth in depths}
    right = {(arrangement, name): 0 for arrangement in ARRANGEMENTS for name in readers}
    positions: dict[str, list[int]] = {arrangement: [] for arrangement in ARRANGEMENTS}
    for query in queries:
        relevant = set(query["relevant"])
        if not relevant:
            continue
        ranked = index.retrieve(query["query"], k=len(index.notes))
        answer = next(note.id for note in ranked if note.id in relevant)
        context = [note for note in ranked if note.id == answer or note.id not in relevant]
        for arrangement in ARRANGEMENTS:
            passages = _arrange(context, answer, arrangement)
            positions[arrangement].append([p.id for p in passages].index(answer) + 1)
            for name, reader in readers.items():
                right[arrangement, name] += reader.read(query["query"], passages).answer_id in relevant
    return pd.DataFrame([{"arrangement": arrangement, "position": _span(positions[arrangement]),
                          **{name: right[arrangement, name] for name in readers}} for arrangement in ARRANGEMENTS])


def _arrange(context: list[RetrievedNote], answer: str, arrangement: str) -> list[RetrievedNote]:
    if arrangement in PLACES:
        return place(context, answer, arrangement)
    if arrangement == "note id order":
        return sorted(context, key=lambda note: note.id)
    return context


def _span(values: list[int]) -> str:
    return f"{min(values)}" if min(values) == max(values) else f"{min(values)}-{max(values)}"
