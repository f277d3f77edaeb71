"""Dense embeddings from Voyage AI, called only when an API key is present.

Batches of 128 texts, ``input_type`` "document" when indexing and "query" when asking (the
model prefixes each differently), model and output dimension as parameters, retries as
:class:`lab.retry.RetryPolicy` decides (``Retry-After`` honoured on 429), billed tokens summed
from each response's ``usage``. The key is read from ``VOYAGE_API_KEY`` and never printed: not
in reprs, not in errors.

A request carries at most 1,000 texts and, for the voyage-4 family, 320,000 tokens in all: the
client closes a batch before either would be passed, counting a text's UTF-8 bytes as its
tokens (every token covers at least one byte, so the count can only be too high). Models of
one family (voyage-4-large, voyage-4, voyage-4-lite) share one vector space; vectors of
different families cannot be compared, so changing family means embedding the index again
(:func:`same_vector_space`).

Each model reads at most ``max_input_tokens`` per text. By default the API would cut a longer
text there and embed the rest of it unseen; this client sends ``truncation: false``, so the
service refuses instead, and :func:`lab.chunking.check_input_limit` names such chunks before
any call.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import requests

from lab.clock import Clock, WallClock
from lab.errors import LabError
from lab.redaction import check_secret, redact
from lab.retry import Attempt, RetryPolicy, parse_retry_after, send_with_retries

__all__ = ["VoyageEmbedder", "EmbeddingResult", "EmbeddingError", "voyage_from_env", "VOYAGE_KEY_ENV",
           "VOYAGE_API_URL", "VOYAGE_INPUT_TOKENS", "VOYAGE_REQUEST_TEXTS", "VOYAGE_REQUEST_TOKENS",
           "missing_key_message", "request_batches", "same_vector_space", "voyage_family"]

VOYAGE_KEY_ENV = "VOYAGE_API_KEY"
VOYAGE_API_URL = "https://api.voyageai.com/v1/embeddings"
INPUT_TYPES = ("document", "query")

#: Tokens each model reads per text, as Voyage AI publishes them (its context length).
VOYAGE_INPUT_TOKENS = {
    "voyage-4-large": 32_000, "voyage-4": 32_000, "voyage-4-lite": 32_000,
    "voyage-3.5": 32_000, "voyage-3.5-lite": 32_000, "voyage-3-large": 32_000, "voyage-code-3": 32_000,
}


#: Texts one request may carry.
VOYAGE_REQUEST_TEXTS = 1_000
#: Tokens one request may carry in all, per family, as the course's sources quote it for voyage-4;
#: a model missing here is batched by count only.
VOYAGE_REQUEST_TOKENS = {"voyage-4": 320_000}
_FAMILIES = {"voyage-4-large": "voyage-4", "voyage-4": "voyage-4", "voyage-4-lite": "voyage-4"}


def voyage_family(model: str) -> str:
    """The family whose vector space ``model``'s vectors live in (the model itself outside a known family)."""
    return _FAMILIES.get(model, model)


def same_vector_space(stored_model: str, query_model: str) -> bool:
    """Whether vectors of ``query_model`` can be compared with vectors an index stored from ``stored_model``.

    True within a family (voyage-4-lite queries against voyage-4-large vectors); False across
    families, where the whole index must be embedded again with the new model.
    """
    return voyage_family(stored_model) == voyage_family(query_model)


def request_batches(texts: Sequence[str], max_texts: int, max_tokens: int | None) -> list[tuple[int, int]]:
    """``(start, end)`` ranges of ``texts`` that each fit one request: at most ``max_texts`` texts and, if
    given, ``max_tokens`` tokens, a text's UTF-8 bytes standing for its tokens (never fewer than it has).

    A single text over ``max_tokens`` gets a batch of its own (the model's per-text limit refuses it).
    """
    if max_texts < 1:
        raise ValueError(f"max_texts must be at least 1, got {max_texts}")
    batches, start, size = [], 0, 0
    for index, text in enumerate(texts):
        cost = len(text.encode("utf-8"))
        full = index - start >= max_texts or (max_tokens is not None and index > start and size + cost > max_tokens)
        if full:
            batches.append((start, index))
            start, size = index, 0
        size += cost
    if start < len(texts):
        batches.append((start, len(texts)))
    return batches


class EmbeddingError(LabError, RuntimeError):
    """The embeddings API refused a request or kept failing."""


@dataclass(frozen=True)
class EmbeddingResult:
    """Vectors in input order (float32, one row per text) and the tokens the API billed."""

    vectors: np.ndarray
    tokens: int
    requests: int


def missing_key_message(env: str = VOYAGE_KEY_ENV) -> str:
    """The one line a lesson prints when the key is absent."""
    return f"{env} is not set: Voyage AI is not called; the offline TF-IDF and LSA vectors stand in."


class VoyageEmbedder:
    """A small client for Voyage AI's embeddings endpoint.

    Parameters
    ----------
    api_key : the secret (use :func:`voyage_from_env` to read it from the environment).
    model, dimension : e.g. ``voyage-4`` and 1024 (also 256, 512, 2048 for that family).
    batch_size : texts per request at most (the API accepts 1,000); a batch also closes before its
        texts' bytes pass the family's token limit per request (:data:`VOYAGE_REQUEST_TOKENS`).
    retry : when to try a request again (5 attempts by default); waits happen on ``clock``.
    max_input_tokens : tokens the model reads per text; by default the published figure
        (:data:`VOYAGE_INPUT_TOKENS`), ``None`` for a model missing there.
    """

    def __init__(self, api_key: str, model: str = "voyage-4", dimension: int | None = 1024, batch_size: int = 128,
                 url: str = VOYAGE_API_URL, session: requests.Session | None = None, clock: Clock | None = None,
                 retry: RetryPolicy | None = None, timeout: float = 60.0, max_input_tokens: int | None = None) -> None:
        if not api_key:
            raise EmbeddingError(missing_key_message())
        if not 1 <= batch_size <= VOYAGE_REQUEST_TEXTS:
            raise ValueError(f"batch_size must be from 1 to {VOYAGE_REQUEST_TEXTS} (texts per request), got {batch_size}")
        self._key = check_secret(api_key, "the Voyage AI key")
        self.model = model
        self.dimension = dimension
        self.batch_size = batch_size
        self.url = url
        self.session = session or requests.Session()
        self.clock = clock or WallClock()
        self.retry = retry or RetryPolicy(max_attempts=5)
        self.timeout = timeout
        self.max_input_tokens = max_input_tokens if max_input_tokens is not None else VOYAGE_INPUT_TOKENS.get(model)
        self._rng = self.retry.rng()

    def __repr__(self) -> str:
        return f"VoyageEmbedder(model={self.model!r}, dimension={self.dimension}, api_key='***')"

    @property
    def name(self) -> str:
        """The model column this embedder's vectors are stored under (model plus dimension)."""
        return f"{self.model}-{self.dimension}" if self.dimension else self.model

    def embed(self, texts: Sequence[str], input_type: str) -> EmbeddingResult:
        """Embed ``texts`` in batches; ``input_type`` is "document" (indexing) or "query"."""
        if input_type not in INPUT_TYPES:
            raise ValueError(f"input_type must be one of {INPUT_TYPES}, got {input_type!r}")
        rows: list[list[float]] = []
        tokens = requests_made = 0
        limit = VOYAGE_REQUEST_TOKENS.get(voyage_family(self.model))
        for start, end in request_batches(texts, self.batch_size, limit):
            # truncation off: a text past the model's limit is refused, never embedded in part
            body = {"input": list(texts[start:end]), "model": self.model,
                    "input_type": input_type, "truncation": False}
            if self.dimension:
                body["output_dimension"] = self.dimension
            payload, attempts = self._post(body)
            requests_made += attempts
            data = sorted(payload["data"], key=lambda item: item["index"])
            rows += [item["embedding"] for item in data]
            tokens += int(payload.get("usage", {}).get("total_tokens", 0))
        vectors = np.asarray(rows, dtype=np.float32).reshape(len(rows), -1)
        return EmbeddingResult(vectors, tokens, requests_made)

    def embed_documents(self, texts: Sequence[str]) -> EmbeddingResult:
        return self.embed(texts, "document")

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed([text], "query").vectors[0]

    def _post(self, body: dict) -> tuple[dict, int]:
        """POST one batch, trying again as the retry policy decides; the answer and the attempts it took.

        Embedding the same texts twice gives the same vectors and creates nothing, so the call is
        idempotent: server errors and network failures are retried too.
        """
        return post_with_retries(self, body, EmbeddingError)


def post_with_retries(client: Any, body: dict, error: type[Exception]) -> tuple[dict, int]:
    """POST ``body`` as JSON to a Voyage AI endpoint with ``client``'s session, key, timeout, retry policy,
    clock and random draws; the answer and the attempts it took, or ``error`` naming the last failure
    (the key redacted). Every Voyage call is idempotent, so server errors and network failures are retried."""
    headers = {"Authorization": f"Bearer {client._key}", "Content-Type": "application/json"}

    def send(attempt: int) -> Attempt:
        try:
            response = client.session.post(client.url, json=body, headers=headers, timeout=client.timeout)
        except (requests.ConnectionError, requests.Timeout) as exc:
            return Attempt.failed(f"failed after {attempt} attempts: {type(exc).__name__}")
        if response.status_code == 200:
            return Attempt.succeeded(response.json())
        return Attempt.failed(f"answered {response.status_code} after {attempt} attempt(s): "
                              f"{redact(response.text, client._key)[:200]}", response.status_code,
                              parse_retry_after(response.headers.get("Retry-After")))

    last, attempts = send_with_retries(send, client.retry, client.clock.sleep, idempotent=True, rng=client._rng)
    if not last.ok:
        raise error(f"POST {client.url} {last.failure}")
    return last.result, attempts


def voyage_from_env(env: str = VOYAGE_KEY_ENV, **kwargs: object) -> VoyageEmbedder | None:
    """An embedder if ``$VOYAGE_API_KEY`` is set, else ``None`` (and nothing is called)."""
    key = os.environ.get(env, "").strip()
    return VoyageEmbedder(key, **kwargs) if key else None
