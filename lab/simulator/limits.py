"""Notion's request limits, as the simulator enforces them.

- Per connection: a fixed window (60 s by default) with a budget set by the plan: 180 requests
  on free and plus, 600 on business and enterprise. The budget may be spent at any pace inside
  the window; request 181 gets a 429 whose ``Retry-After`` is the whole seconds left.
- Per workspace: one budget shared by every connection of the workspace (Notion publishes no
  number; ours scales with the plan and is a parameter), plus a probability of 429s that stands
  in for other, unseen connections.
- Overload: a probability of 529 ``service_overload``; server errors (500/502/503/504) only
  when fault injection asks for them.
- Search indexing delay (off unless asked for): Notion's search index lags behind the workspace,
  so ``POST /v1/search`` leaves out a page created or edited less than ``search_delay`` seconds
  ago (by its ``last_edited_time``, which Notion keeps to the minute); data source queries,
  page and block reads see it at once, as in Notion.

Windows are aligned on multiples of their length from the clock's start, so a client that
knows the plan can plan its spending (the budget-aware client of lesson 02 does).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from lab.arguments import check_share
from lab.notion.api import CONNECTION_REASON, PLANS, WORKSPACE_REASON
from lab.notion.windows import window_index
from lab.simulator.errors import APIError

__all__ = ["LimitsConfig", "RateLimiter"]

_SERVER_ERRORS = (
    (500, "internal_server_error", "Unexpected error occurred."),
    (502, "bad_gateway", "Bad gateway."),
    (503, "service_unavailable", "Notion is unavailable, please try again later."),
    (504, "gateway_timeout", "Notion timed out, please try again later."),
)


@dataclass(frozen=True)
class LimitsConfig:
    """Every limit and fault probability of the simulator, so lessons can make contention visible.

    ``workspace_budget`` defaults to twice the connection budget (ours: Notion publishes no
    figure). Probabilities are per request, drawn from the simulator's seeded generator.
    """

    plan: str = "free"
    window_seconds: float = 60.0
    connection_budget: int | None = None
    workspace_budget: int | None = None
    workspace_window_seconds: float = 60.0
    p_workspace: float = 0.0
    workspace_retry_after: tuple[int, int] = (1, 3)
    p_overload: float = 0.0
    overload_retry_after: int = 2
    p_server_error: float = 0.0
    search_delay: float = 0.0  # seconds before /v1/search shows a created or edited page (0: at once)

    def __post_init__(self) -> None:
        if self.plan not in PLANS:
            raise ValueError(f"unknown plan {self.plan!r}; expected one of {sorted(PLANS)}")
        for name in ("p_workspace", "p_overload", "p_server_error"):
            check_share(name, getattr(self, name), " (a probability)")
        if self.window_seconds <= 0 or self.workspace_window_seconds <= 0:
            raise ValueError("window lengths must be positive")
        if isinstance(self.search_delay, bool) or not isinstance(self.search_delay, (int, float)) \
                or not 0 <= self.search_delay < math.inf:
            raise ValueError(f"search_delay is seconds, a finite number of at least 0, not {self.search_delay!r}")

    @property
    def budget(self) -> int:
        """Requests one connection may make per window."""
        return self.connection_budget if self.connection_budget is not None else PLANS[self.plan]

    @property
    def shared_budget(self) -> int:
        """Requests all connections together may make per workspace window."""
        return self.workspace_budget if self.workspace_budget is not None else 2 * self.budget

    def with_plan(self, plan: str) -> "LimitsConfig":
        return replace(self, plan=plan)


def _rate_limited(retry_after: int, reason: str) -> APIError:
    return APIError(429, "rate_limited",
                    "You have been rate limited. Please try again in a few minutes.",
                    additional_data={"retry_after": str(retry_after), "rate_limit_reason": reason},
                    headers={"Retry-After": str(retry_after)})


class RateLimiter:
    """Counts requests per connection and per workspace window and draws the injected faults.

    Every call draws the same number of random numbers, so the fault sequence depends only on
    the seed and the number of requests, not on which of them were limited.
    """

    def __init__(self, config: LimitsConfig, rng: np.random.Generator) -> None:
        self.config = config
        self._rng = rng
        self.connection_counts: Counter[tuple[str, int]] = Counter()
        self.workspace_counts: Counter[int] = Counter()

    def admit(self, connection: str, now: float) -> None:
        """Raise the 429/529/5xx this request gets at time ``now``, or count it and return."""
        cfg = self.config
        draws = self._rng.random(4)
        window = window_index(now, cfg.window_seconds)
        if self.connection_counts[(connection, window)] >= cfg.budget:
            left = (window + 1) * cfg.window_seconds - now
            raise _rate_limited(max(1, math.ceil(left - 1e-9)), CONNECTION_REASON)
        self.connection_counts[(connection, window)] += 1

        shared_window = window_index(now, cfg.workspace_window_seconds)
        if self.workspace_counts[shared_window] >= cfg.shared_budget:
            left = (shared_window + 1) * cfg.workspace_window_seconds - now
            raise _rate_limited(max(1, math.ceil(left - 1e-9)), WORKSPACE_REASON)
        self.workspace_counts[shared_window] += 1

        if draws[0] < cfg.p_workspace:
            low, high = cfg.workspace_retry_after
            raise _rate_limited(low + int(draws[3] * (high - low + 1)), WORKSPACE_REASON)
        if draws[1] < cfg.p_overload:
            wait = cfg.overload_retry_after
            raise APIError(529, "service_overload", "Notion is temporarily overloaded. Please try again later.",
                           additional_data={"retry_after": str(wait)}, headers={"Retry-After": str(wait)})
        if draws[2] < cfg.p_server_error:
            status, code, message = _SERVER_ERRORS[int(draws[3] * len(_SERVER_ERRORS))]
            raise APIError(status, code, message)
