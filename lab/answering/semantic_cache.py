"""An answer cache that matches questions by meaning, invalidated like the exact one.

A question whose embedding has a cosine of at least ``threshold`` with a question answered at
the same index version gets that question's answer, so "¿Aceptan Amex?" can be served what
"¿Puedo pagar con American Express?" was told. Answers of an older index version are dropped
as soon as a newer one is asked (:class:`~lab.answering.AnswerCache` does the same), because
the pages they quote may have changed. A wrong answer served from the cache is worse than a
miss, which only costs the time to answer: the threshold is set so that no labelled pair of
different questions would share an answer (:mod:`lab.answering.cache_calibration`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

from lab.answering.answer_cache import CachedAnswer, question_key
from lab.arguments import check_share
from lab.errors import LabError

__all__ = ["DEFAULT_THRESHOLD", "SemanticAnswerCache", "SemanticCachedAnswer", "SemanticCacheError"]

T = TypeVar("T")

#: The cosine (multilingual-e5-small, "query: " vectors) at which two questions share an answer.
#: On the bakery's 102 labelled questions the most similar pair that needs different answers is at
#: 0.933 ("Tengo una cafetería, ¿qué rebaja me hacen...?" / "...¿me venden pan al por mayor?"), so
#: 0.94 is the lowest threshold of the 0.01 grid with no false hit. One step more is kept as margin,
#: because 14 paraphrase pairs and 5,137 other pairs are a small sample of what customers ask; here it
#: costs no hit: 6 of the 14 paraphrase pairs are served at 0.94 and at 0.95, and none of the others.
#: At 0.90 the cache would serve 11 of 14 and 30 wrong answers (``cache_threshold_table`` has every step).
DEFAULT_THRESHOLD = 0.95


class SemanticCacheError(LabError, ValueError):
    """A question, an index version, a threshold or an embedder the semantic cache cannot use."""


@dataclass(frozen=True, kw_only=True)
class SemanticCachedAnswer(CachedAnswer[T]):
    """An answer, whether the cache served it, and the nearest question cached at that version.

    ``nearest`` and ``similarity`` name the closest cached question and its cosine, on a miss too
    (``None`` when nothing was cached at that version); on a hit ``answer`` is that question's answer.
    """

    nearest: str | None
    similarity: float | None


@dataclass(frozen=True)
class _Entry(Generic[T]):
    key: str
    question: str
    version: int
    vector: np.ndarray
    answer: T


class SemanticAnswerCache(Generic[T]):
    """Answers by question meaning and index version; entries of an older version are dropped when a newer one is asked.

    Parameters
    ----------
    embedder : anything with ``embed_query(text)`` returning one vector (``lab.embedders.e5_embedder()``).
    threshold : the least cosine at which a cached question's answer is served (:data:`DEFAULT_THRESHOLD`,
        calibrated for multilingual-e5-small; another model needs its own, from ``cache_threshold_table``).

    Attributes
    ----------
    hits, misses : answers served from the cache, and answers computed.
    """

    def __init__(self, embedder: Any, threshold: float = DEFAULT_THRESHOLD) -> None:
        if not callable(getattr(embedder, "embed_query", None)):
            raise SemanticCacheError(f"the embedder must have embed_query(text) returning a vector, got "
                                     f"{type(embedder).__name__}; pass lab.embedders.e5_embedder()")
        self.embedder = embedder
        self.threshold = check_share("threshold", threshold, " (the least cosine at which two questions share "
                                     "an answer)", error=SemanticCacheError)
        self._entries: list[_Entry[T]] = []
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def answer(self, question: str, version: int, compute: Callable[[str], T]) -> SemanticCachedAnswer[T]:
        """The answer of a cached question at ``version`` as close as ``threshold`` to ``question``, or
        ``compute(question)`` stored for next time. The same words (case and spaces aside) are a hit
        without embedding anything."""
        _check_request(question, version)
        self._entries = [e for e in self._entries if e.version >= version]
        current = [e for e in self._entries if e.version == version]
        key = question_key(question)
        same = next((e for e in current if e.key == key), None)
        if same is not None:
            return self._served(question, version, same, 1.0)
        vector = self._vector(question, current)
        nearest, similarity = None, None
        if current:
            similarities = np.stack([e.vector for e in current]) @ vector
            best = int(np.argmax(similarities))
            nearest, similarity = current[best], float(similarities[best])
            if similarity >= self.threshold:
                return self._served(question, version, nearest, similarity)
        answer = compute(question)
        self.misses += 1
        self._entries.append(_Entry(key, question, version, vector, answer))
        return SemanticCachedAnswer(question=question, version=version, answer=answer, hit=False,
                                    nearest=None if nearest is None else nearest.question, similarity=similarity)

    def _served(self, question: str, version: int, entry: _Entry[T], similarity: float) -> SemanticCachedAnswer[T]:
        self.hits += 1
        return SemanticCachedAnswer(question=question, version=version, answer=entry.answer, hit=True,
                                    nearest=entry.question, similarity=similarity)

    def _vector(self, question: str, current: list[_Entry[T]]) -> np.ndarray:
        """The question's unit vector, refused if it cannot be compared with the cached ones."""
        vector = np.asarray(self.embedder.embed_query(question), dtype=np.float64)
        if vector.ndim != 1 or not np.isfinite(vector).all() or not np.linalg.norm(vector) > 0:
            raise SemanticCacheError(f"the embedder gave {question!r} a vector of shape {vector.shape} that is not "
                                     "one finite, non-zero row; a cosine needs one")
        if current and len(current[0].vector) != len(vector):
            raise SemanticCacheError(f"the embedder gave a vector of {len(vector)} dimensions, the cached questions "
                                     f"have {len(current[0].vector)}: one cache compares one model's vectors")
        return vector / np.linalg.norm(vector)


def _check_request(question: object, version: object) -> None:
    if not isinstance(question, str):
        raise SemanticCacheError(f"question is the question's text (a str), not {type(question).__name__}")
    if not question.strip():
        raise SemanticCacheError("question is empty; an empty text has no meaning to compare")
    if isinstance(version, bool) or not isinstance(version, int):
        raise SemanticCacheError(f"version is the index's generation (an int, store.generation()), not {version!r}")
