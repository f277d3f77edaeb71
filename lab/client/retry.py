"""When to try again: Retry-After for 429/529, capped exponential backoff with jitter for 5xx."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["RetryPolicy", "RETRY_AFTER_STATUSES", "SERVER_ERROR_STATUSES"]

RETRY_AFTER_STATUSES = frozenset({429, 529})
SERVER_ERROR_STATUSES = frozenset({500, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    """A bounded number of attempts; seeded jitter keeps simulated runs reproducible.

    Backoff before attempt ``n + 1`` after a server error: ``d = min(cap, base · 2**(n-1))``,
    waited as ``d/2 + U(0, d/2)`` ("equal jitter"), so retries from many clients spread out
    without ever retrying immediately.
    """

    max_attempts: int = 6
    backoff_base: float = 0.5
    backoff_cap: float = 8.0
    seed: int = 0

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    def rng(self) -> np.random.Generator:
        return np.random.default_rng(self.seed)

    def backoff(self, attempt: int, rng: np.random.Generator) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        ceiling = min(self.backoff_cap, self.backoff_base * 2 ** (attempt - 1))
        return ceiling / 2 + float(rng.uniform(0, ceiling / 2))
