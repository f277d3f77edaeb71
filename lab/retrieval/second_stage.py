"""Two rungs that need a paid model: a reranker reorders the first results, a model rewrites the question.

- :class:`Reranked` takes a retriever's ``depth`` best chunks and orders them by a reranker's
  scores (a model that reads the question and each passage together, such as Voyage AI's
  ``rerank-2.5``: :class:`lab.services.VoyageReranker`); what the first stage missed stays missed,
  and what it ranked below ``depth`` stays below, unread.
- :class:`Rewritten` searches with a rewritten question (a model turning "¿y los domingos?" into
  "horario de apertura los domingos", say): :func:`claude_rewriter` asks Claude for it.

Both wrap any retriever; each distinct question is sent to the paid model once and kept.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from lab.arguments import check_positive_int
from lab.retrieval.corpus import SearchCorpus
from lab.retrieval.filters import ChunkFilter
from lab.retrieval.retrievers import Retriever
from lab.services.anthropic import DEFAULT_MODEL, Skipped, call_model
from lab.vectors.search import Hit, check_k

__all__ = ["REWRITE_SYSTEM", "Reranker", "Reranked", "Rewritten", "claude_rewriter"]

REWRITE_SYSTEM = ("You rewrite a customer's question to a bakery's knowledge base into one search query in the "
                  "question's language: keep every name, number and product, spell out what the question implies, "
                  "fix typos, add no facts. Reply with the query only.")


class Reranker(Protocol):
    """Relevance scores of passages for a question, one per passage, in order (:class:`lab.services.VoyageReranker`)."""

    name: str

    def scores(self, query: str, documents: Sequence[str]) -> list[float]: ...


class Reranked(Retriever):
    """``retriever``'s ``depth`` best hits, reordered by ``reranker``'s scores of their texts.

    Attributes
    ----------
    corpus_ : the corpus fitted on (the reranker reads its texts).
    """

    def __init__(self, retriever: Retriever, reranker: Reranker, depth: int = 30) -> None:
        self.retriever = retriever
        self.reranker = reranker
        self.depth = depth
        self._scored: dict[tuple[str, tuple[str, ...]], list[float]] = {}

    def fit(self, corpus: SearchCorpus) -> Reranked:
        """Fit the first stage on ``corpus``; returns self."""
        check_positive_int("depth", self.depth)
        self.retriever.fit(corpus)
        self.corpus_ = corpus
        self._row = {chunk_id: row for row, chunk_id in enumerate(corpus.ids)}
        return self

    def search(self, query: str, k: int = 10, audience: str | None = None,
               min_score: float | None = None, where: ChunkFilter | None = None) -> list[Hit]:
        """The ``k`` best hits: the first stage's ``depth`` best ordered by the reranker's score (ties keep the
        first order), then, when ``k`` asks for more, the first stage's next hits in its own order and with its
        own scores (the reranker never reads them). Only ``depth`` passages are sent, whatever ``k``;
        ``min_score`` is a reranker score, so it also drops the hits the reranker did not score."""
        self._check_fitted("corpus_")
        check_k(k)
        first = self.retriever.search(query, max(k, self.depth), audience=audience, where=where)
        head, tail = first[:self.depth], first[self.depth:]
        if not head:
            return []
        ids = tuple(hit.id for hit in head)
        if (query, ids) not in self._scored:
            self._scored[query, ids] = self.reranker.scores(query, [self.corpus_.texts[self._row[i]] for i in ids])
        scores = self._scored[query, ids]
        order = sorted(range(len(head)), key=lambda position: (-scores[position], position))
        hits = [self.corpus_.hit(self._row[head[position].id], scores[position]) for position in order]
        if min_score is not None:
            return [hit for hit in hits if hit.score >= min_score][:k]
        return (hits + tail)[:k]


class Rewritten(Retriever):
    """``retriever`` searched with ``rewrite(query)`` instead of the query; each rewrite is asked once and kept.

    Attributes
    ----------
    rewrites_ : every question rewritten so far, and its rewrite.
    """

    def __init__(self, retriever: Retriever, rewrite: Callable[[str], str]) -> None:
        self.retriever = retriever
        self.rewrite = rewrite

    def fit(self, corpus: SearchCorpus) -> Rewritten:
        """Fit the inner retriever on ``corpus``; returns self."""
        self.retriever.fit(corpus)
        self.rewrites_: dict[str, str] = {}
        return self

    def search(self, query: str, k: int = 10, audience: str | None = None,
               min_score: float | None = None, where: ChunkFilter | None = None) -> list[Hit]:
        """The inner retriever's hits for the rewritten query (the query itself if the rewrite is empty)."""
        self._check_fitted("rewrites_")
        if query not in self.rewrites_:
            rewritten = self.rewrite(query)
            self.rewrites_[query] = rewritten.strip() if isinstance(rewritten, str) and rewritten.strip() else query
        return self.retriever.search(self.rewrites_[query], k, audience=audience, min_score=min_score, where=where)


@dataclass(frozen=True)
class _Question:
    system: str
    text: str


def claude_rewriter(model: str = DEFAULT_MODEL, system: str = REWRITE_SYSTEM, api_key_env: str = "ANTHROPIC_API_KEY",
                    call: Callable[..., Any] = call_model) -> Callable[[str], str] | Skipped:
    """A function that asks Claude to rewrite a question into a search query, or :class:`Skipped` without a key."""
    if not os.environ.get(api_key_env, "").strip():
        return Skipped(f"{api_key_env} is not set: the rewriting rung is skipped.")

    def rewrite(question: str) -> str:
        return call(_Question(system, question), model=model, max_tokens=200, api_key_env=api_key_env).text

    rewrite.__name__ = f"claude_rewriter({model})"
    return rewrite
