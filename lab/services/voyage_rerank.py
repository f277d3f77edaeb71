"""Voyage AI's reranker, called only when an API key is present: it reads a question with each passage.

A first-stage search scores every chunk against the question separately (their vectors or their
terms); a reranker reads the question and one passage together and scores how well the passage
answers it, which is slower and more accurate, so it is run on the first stage's top few dozen
only. :class:`VoyageReranker` posts them to ``/v1/rerank`` and returns one relevance score per
passage, in the order given. It retries as :class:`lab.retry.RetryPolicy` decides and never
shows its key.

The reply lists ``{"index": i, "relevance_score": s}`` items, best first, ``index`` counting the
passages as sent. The client sends no ``top_k``, so every passage must come back exactly once:
an index out of range, twice, or missing is a :class:`RerankReplyError` naming it, never a
ranking built on a guess. A request is billed for the query's tokens once per passage plus every
passage's tokens (:func:`rerank_tokens`), priced in :data:`lab.services.VOYAGE_RERANK_PRICES`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

import requests

from lab.clock import Clock, WallClock
from lab.redaction import check_secret
from lab.retry import RetryPolicy
from lab.services.voyage import VOYAGE_KEY_ENV, EmbeddingError, post_with_retries

__all__ = ["VOYAGE_RERANK_URL", "RerankError", "RerankReplyError", "VoyageReranker", "read_scores", "rerank_tokens",
           "reranker_from_env"]

VOYAGE_RERANK_URL = "https://api.voyageai.com/v1/rerank"


class RerankError(EmbeddingError):
    """The rerank API refused a request or kept failing; the message never holds the key."""


class RerankReplyError(RerankError):
    """The rerank API's reply does not give one score to each passage sent; the message names what is wrong."""


def rerank_tokens(query_tokens: int, document_tokens: Sequence[int]) -> int:
    """The tokens a rerank request is billed for, as Voyage AI defines them: the query's tokens times the
    number of passages, plus the tokens of every passage (the model reads the query beside each)."""
    counts = [query_tokens, *document_tokens]
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in counts):
        raise ValueError(f"token counts are whole numbers >= 0, got {query_tokens!r} and {list(document_tokens)!r}")
    return query_tokens * len(counts[1:]) + sum(counts[1:])


def read_scores(payload: Any, count: int) -> list[float]:
    """One relevance score per passage from a rerank reply's ``data``, in the order the ``count`` passages
    were sent; :class:`RerankReplyError` naming the first problem if the reply does not score each once."""
    data = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(data, list):
        raise RerankReplyError("the rerank reply has no 'data' list of scores")
    found: dict[int, float] = {}
    for position, item in enumerate(data, start=1):
        index = item.get("index") if isinstance(item, dict) else None
        score = item.get("relevance_score") if isinstance(item, dict) else None
        if isinstance(index, bool) or not isinstance(index, int):
            raise RerankReplyError(f"item {position} of the rerank reply has no whole-number 'index': {item!r}")
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
            raise RerankReplyError(f"item {position} of the rerank reply has no finite 'relevance_score': {item!r}")
        if not 0 <= index < count:
            raise RerankReplyError(f"the rerank reply scores index {index}, out of range: {count} passages were "
                                   f"sent (indices 0 to {count - 1})")
        if index in found:
            raise RerankReplyError(f"the rerank reply scores index {index} twice: each passage is scored once")
        found[index] = float(score)
    missing = [index for index in range(count) if index not in found]
    if missing:
        listed = ", ".join(map(str, missing[:5])) + (", ..." if len(missing) > 5 else "")
        raise RerankReplyError(f"the rerank reply scored {len(found)} of {count} passages: no score for index "
                               f"{listed} (the client sends no top_k, so each must come back)")
    return [found[index] for index in range(count)]


class VoyageReranker:
    """Relevance scores of passages for a question from Voyage AI's ``rerank-2.5`` (or another reranker).

    ``tokens_`` sums what the API billed (``usage.total_tokens``) over every call.
    """

    def __init__(self, api_key: str, model: str = "rerank-2.5", url: str = VOYAGE_RERANK_URL,
                 session: requests.Session | None = None, clock: Clock | None = None,
                 retry: RetryPolicy | None = None, timeout: float = 60.0) -> None:
        if not api_key:
            raise RerankError(f"{VOYAGE_KEY_ENV} is not set: the reranker is not called")
        self._key = check_secret(api_key, "the Voyage AI key")
        self.model = model
        self.url = url
        self.session = session or requests.Session()
        self.clock = clock or WallClock()
        self.retry = retry or RetryPolicy(max_attempts=5)
        self.timeout = timeout
        self.tokens_ = 0
        self._rng = self.retry.rng()

    def __repr__(self) -> str:
        return f"VoyageReranker(model={self.model!r}, api_key='***')"

    @property
    def name(self) -> str:
        """What a ladder's rung calls this reranker."""
        return self.model

    def scores(self, query: str, documents: Sequence[str]) -> list[float]:
        """One relevance score per document, in the order given (higher answers the question better)."""
        if not isinstance(query, str) or not query.strip():
            raise ValueError("the query must be a non-empty string")
        documents = list(documents)
        if not documents:
            return []
        body = {"query": query, "documents": documents, "model": self.model, "truncation": True}
        # Scoring the same passages twice changes nothing: failures of any kind may be retried.
        payload, _ = post_with_retries(self, body, RerankError)
        scores = read_scores(payload, len(documents))
        usage = payload.get("usage")
        self.tokens_ += int(usage.get("total_tokens", 0)) if isinstance(usage, dict) else 0
        return scores


def reranker_from_env(env: str = VOYAGE_KEY_ENV, **kwargs: object) -> VoyageReranker | None:
    """A reranker if ``$VOYAGE_API_KEY`` is set, else ``None`` (and nothing is called)."""
    key = os.environ.get(env, "").strip()
    return VoyageReranker(key, **kwargs) if key else None
