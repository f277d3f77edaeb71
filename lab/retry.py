"""When to send a failed request again, and how long to wait first: one decision for every client.

Modelled on urllib3's ``Retry``: the policy decides (:meth:`RetryPolicy.wait`), and a client's
loop only sleeps on its own clock and tries again, or raises its own typed error. The Notion
client, the Voyage AI embeddings and the Anthropic Messages call all ask the same policy, so a
429 means the same thing to each of them. The Notion client paces and logs every attempt in its
own loop; a client with nothing more to do between attempts uses :func:`send_with_retries`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["RetryPolicy", "Attempt", "send_with_retries", "parse_retry_after", "RETRY_AFTER_STATUSES",
           "SERVER_ERROR_STATUSES"]

#: The server did not process the request and says when to come back: safe to resend any call.
RETRY_AFTER_STATUSES = frozenset({429, 529})
#: The server may have processed the request: resent only when sending it twice does no harm.
SERVER_ERROR_STATUSES = frozenset({500, 502, 503, 504})


def parse_retry_after(raw: object) -> float | None:
    """Seconds from a ``Retry-After`` value ("3", "1.5", 2); ``None`` if missing or unparsable.

    ``None`` makes the policy fall back to backoff. HTTP dates are not read: they would need the
    wall clock, and a simulated run must not depend on it.
    """
    if raw is None or isinstance(raw, bool):
        return None
    try:
        seconds = float(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return max(0.0, seconds) if math.isfinite(seconds) else None


@dataclass(frozen=True)
class RetryPolicy:
    """Whether to try again after a failed attempt, and how long to wait: bounded and reproducible.

    Parameters
    ----------
    max_attempts : attempts in all, the first one included (urllib3's ``total`` counts retries,
        one fewer).
    backoff_base, backoff_cap : backoff before attempt ``n + 1`` is ``d = min(cap, base · 2**(n-1))``,
        waited as ``d/2 + U(0, d/2)`` ("equal jitter"), so retries from many clients spread out
        without ever retrying immediately.
    seed : seeds the jitter (see :meth:`rng`), so a simulated run waits the same every time.
    max_wait : no single wait is longer; a larger ``Retry-After`` is cut to it, as urllib3's
        ``retry_after_max`` does, so a misbehaving server cannot park a client for hours (the
        next attempt asks again).
    respect_retry_after : when False, 429 and 529 back off like server errors instead of
        waiting what the server asked (urllib3's ``respect_retry_after_header``).
    """

    max_attempts: int = 6
    backoff_base: float = 0.5
    backoff_cap: float = 8.0
    seed: int = 0
    max_wait: float = 300.0
    respect_retry_after: bool = True

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if not self.max_wait > 0:
            raise ValueError(f"max_wait must be a positive number of seconds, got {self.max_wait}")

    def rng(self) -> np.random.Generator:
        """A fresh jitter stream; each client keeps its own, so clients never share draws."""
        return np.random.default_rng(self.seed)

    def is_retry(self, status: int | None, *, idempotent: bool) -> bool:
        """Could the same request succeed if sent again? ``status`` ``None`` means no answer (network).

        429 and 529 always: the server refused before doing anything. 500/502/503/504 and
        network failures only for idempotent calls: the first attempt may have taken effect.
        """
        if status in RETRY_AFTER_STATUSES:
            return True
        return idempotent and (status is None or status in SERVER_ERROR_STATUSES)

    def backoff(self, attempt: int, rng: np.random.Generator) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based), with equal jitter."""
        ceiling = min(self.backoff_cap, self.backoff_base * 2 ** (attempt - 1))
        return ceiling / 2 + float(rng.uniform(0, ceiling / 2))

    def wait(self, status: int | None, retry_after: float | None, *, idempotent: bool, attempt: int,
             rng: np.random.Generator) -> float | None:
        """Seconds to wait before the next attempt, or ``None``: give up and raise.

        ``status`` is what attempt number ``attempt`` got (``None``: no answer), ``retry_after``
        the server's ``Retry-After`` in seconds if it sent a readable one. A 429 or 529 waits
        exactly that; anything else retryable, or a 429 without it, backs off. Jitter is drawn
        from ``rng`` only when a backoff is actually waited.
        """
        if not self.is_retry(status, idempotent=idempotent) or attempt >= self.max_attempts:
            return None
        if status in RETRY_AFTER_STATUSES and retry_after is not None and self.respect_retry_after:
            return min(retry_after, self.max_wait)
        return min(self.backoff(attempt, rng), self.max_wait)


@dataclass(frozen=True)
class Attempt:
    """What one try of a request came to: its ``result`` if it succeeded; otherwise the status it got
    (``None``: no answer at all), the server's ``Retry-After`` in seconds, and what went wrong, in words."""

    ok: bool
    result: Any = None
    status: int | None = None
    retry_after: float | None = None
    failure: str = ""

    @classmethod
    def succeeded(cls, result: Any) -> Attempt:
        return cls(ok=True, result=result)

    @classmethod
    def failed(cls, failure: str, status: int | None = None, retry_after: float | None = None) -> Attempt:
        return cls(ok=False, status=status, retry_after=retry_after, failure=failure)


def send_with_retries(send: Callable[[int], Attempt], policy: RetryPolicy, sleep: Callable[[float], None], *,
                      idempotent: bool, rng: np.random.Generator) -> tuple[Attempt, int]:
    """Call ``send(attempt_number)`` until an attempt succeeds or ``policy`` gives up, sleeping what it
    decides in between; the last attempt and how many were made (the caller raises its own error
    when the last one failed)."""
    attempt = 0
    while True:
        attempt += 1
        outcome = send(attempt)
        if outcome.ok:
            return outcome, attempt
        wait = policy.wait(outcome.status, outcome.retry_after, idempotent=idempotent, attempt=attempt, rng=rng)
        if wait is None:
            return outcome, attempt
        sleep(wait)
