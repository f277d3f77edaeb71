"""A small answer cache that a re-ingest invalidates and a no-change run does not.

Answers are kept by question and by the version of the index they were computed from (the
store's generation, which counts every run that changed what the index holds). An answer
computed from generation 3 is never served once the index is at generation 4: the documents
it quotes may have changed or gone. A run that changed nothing keeps the generation, so the
cache keeps its answers. Questions are compared without case or extra spaces.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["AnswerCache", "CachedAnswer", "question_key"]

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class CachedAnswer(Generic[T]):
    """An answer, the index version it was computed from, and whether it came from the cache."""

    question: str
    version: int
    answer: T
    hit: bool


def question_key(question: str) -> str:
    """A question as the caches compare it: case folded, runs of spaces made one."""
    return " ".join(question.casefold().split())


class AnswerCache(Generic[T]):
    """Answers by (question, index version); entries of an older version are dropped when a newer one is asked."""

    def __init__(self) -> None:
        self._answers: dict[tuple[str, int], T] = {}
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._answers)

    def answer(self, question: str, version: int, compute: Callable[[str], T]) -> CachedAnswer[T]:
        """The cached answer to ``question`` at ``version``, or ``compute(question)`` stored for next time."""
        if not isinstance(question, str):
            raise TypeError(f"question is the question's text (a str), not {type(question).__name__}")
        if isinstance(version, bool) or not isinstance(version, int):  # "3" < 4 would fail only on the next call
            raise TypeError(f"version is the index's generation (an int, store.generation()), not {version!r}")
        self._forget_older_than(version)
        key = (question_key(question), version)
        hit = key in self._answers
        if hit:
            self.hits += 1
        else:
            self.misses += 1
            self._answers[key] = compute(question)
        return CachedAnswer(question=question, version=version, answer=self._answers[key], hit=hit)

    def _forget_older_than(self, version: int) -> None:
        for key in [k for k in self._answers if k[1] < version]:
            del self._answers[key]
