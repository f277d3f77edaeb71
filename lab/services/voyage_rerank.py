"""Voyage AI's reranker, called only when an API key is present: it reads a question with each passage.

A first-stage search scores every chunk against the question separately (their vectors or their
terms); a reranker reads the question and one passage together and scores how well the passage
answers it, which is slower and more accurate, so it is run on the first stage's top few dozen
only. :class:`VoyageReranker` posts them to ``/v1/rerank`` and returns one relevance score per
passage, in the order given. It retries as :class:`lab.retry.RetryPolicy` decides and never
shows its key.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import requests

from lab.clock import Clock, WallClock
from lab.redaction import check_secret
from lab.retry import RetryPolicy
from lab.services.voyage import VOYAGE_KEY_ENV, EmbeddingError, post_with_retries

__all__ = ["VOYAGE_RERANK_URL", "RerankError", "VoyageReranker", "reranker_from_env"]

VOYAGE_RERANK_URL = "https://api.voyageai.com/v1/rerank"


class RerankError(EmbeddingError):
    """The rerank API refused a request or kept failing; the message never holds the key."""


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
        self.tokens_ += int(payload.get("usage", {}).get("total_tokens", 0))
        found = {int(item["index"]): float(item["relevance_score"]) for item in payload.get("data", [])}
        if sorted(found) != list(range(len(documents))):
            raise RerankError(f"the rerank API scored {len(found)} of {len(documents)} passages")
        return [found[index] for index in range(len(documents))]


def reranker_from_env(env: str = VOYAGE_KEY_ENV, **kwargs: object) -> VoyageReranker | None:
    """A reranker if ``$VOYAGE_API_KEY`` is set, else ``None`` (and nothing is called)."""
    key = os.environ.get(env, "").strip()
    return VoyageReranker(key, **kwargs) if key else None
