"""How fast a client sends: not at all paced, at a fixed rate, or aware of the window budget.

A pacer is asked how long to wait before each request and told what each answer was, so the
same retry loop can run a burst client, the paced client of the source lesson (3 requests per
second), or a client that spends the connection's window budget in the least possible time.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Protocol

from lab.notion.api import PLANS
from lab.notion.windows import window_index

__all__ = ["Pacer", "NoPacing", "FixedRate", "BudgetAware"]


class Pacer(Protocol):
    def delay(self, now: float) -> float:
        """Seconds to wait before sending a request at time ``now``."""

    def sent(self, now: float) -> None:
        """A request left at ``now``."""

    def observed(self, now: float, status: int, reason: str, retry_after: float | None) -> None:
        """The answer to the last request arrived at ``now``."""


class NoPacing:
    """Send as fast as the server answers (the burst client)."""

    def delay(self, now: float) -> float:
        return 0.0

    def sent(self, now: float) -> None:
        pass

    def observed(self, now: float, status: int, reason: str, retry_after: float | None) -> None:
        pass

    def __repr__(self) -> str:
        return "NoPacing()"


class FixedRate:
    """At most ``rate`` request starts per second: a metronome, whatever the server says."""

    def __init__(self, rate: float = 3.0) -> None:
        if rate <= 0:
            raise ValueError(f"rate must be positive requests per second, got {rate}")
        self.rate = rate
        self._last: float | None = None

    def delay(self, now: float) -> float:
        if self._last is None:
            return 0.0
        return max(0.0, self._last + 1.0 / self.rate - now)

    def sent(self, now: float) -> None:
        self._last = now

    def observed(self, now: float, status: int, reason: str, retry_after: float | None) -> None:
        pass

    def __repr__(self) -> str:
        return f"FixedRate(rate={self.rate})"


@dataclass(eq=False, repr=False)  # the repr below shows the parameters only
class BudgetAware:
    """Spend the connection's window budget as fast as it allows, never past it.

    It counts its own requests per fixed window (windows aligned on ``origin`` + k·window, as
    the simulator and Notion's per-minute windows are) and, once ``budget`` are spent, waits for
    the next window instead of provoking a 429: that finishes in the minimum time the window
    allows. Workspace 429s close together (``contention_refusals`` within ``contention_seconds``;
    a lone one is treated as noise) mean other connections share the budget: it then halves a rate cap
    (starting from its recent rate) that then grows by ``recovery`` requests/second for every
    second without one, until it is back to the pace it had before and is dropped (additive
    increase, multiplicative decrease).
    A connection 429 (only possible if another client uses the same token) realigns its windows.
    """

    budget: int = PLANS["free"]
    window_seconds: float = 60.0
    origin: float = 0.0
    min_rate: float = 0.5
    recovery: float = 0.05
    recent_seconds: float = 5.0
    contention_refusals: int = 2
    contention_seconds: float = 15.0
    # what it has seen so far (parameters above are never changed by a run)
    rate_cap: float | None = field(default=None, init=False)
    _refusals: deque[float] = field(default_factory=deque, init=False)
    _free_rate: float | None = field(default=None, init=False)
    _cap_since: float = field(default=0.0, init=False)
    _window: int | None = field(default=None, init=False)
    _count: int = field(default=0, init=False)
    _last: float | None = field(default=None, init=False)
    _recent: deque[float] = field(default_factory=deque, init=False)

    @classmethod
    def for_plan(cls, plan: str, **kwargs: float) -> "BudgetAware":
        """A pacer that knows the per-window budget of a Notion plan."""
        return cls(budget=PLANS[plan], **kwargs)

    def _window_of(self, t: float) -> int:
        return window_index(t, self.window_seconds, self.origin)

    def delay(self, now: float) -> float:
        wait = 0.0
        if self._window == self._window_of(now) and self._count >= self.budget:
            wait = (self._window + 1) * self.window_seconds + self.origin - now
        cap = self._current_cap(now)
        if cap is not None and self._last is not None:
            wait = max(wait, self._last + 1.0 / cap - now)
        return max(0.0, wait)

    def sent(self, now: float) -> None:
        window = self._window_of(now)
        if window != self._window:
            self._window, self._count = window, 0
        self._count += 1
        self._last = now
        self._recent.append(now)
        while self._recent and self._recent[0] < now - self.recent_seconds:
            self._recent.popleft()

    def observed(self, now: float, status: int, reason: str, retry_after: float | None) -> None:
        if status == 429 and reason == "workspace":
            self._refusals.append(now)
            while self._refusals and self._refusals[0] < now - self.contention_seconds:
                self._refusals.popleft()
            if len(self._refusals) < self.contention_refusals:
                return  # one refusal is noise; several close together mean the budget is contended
            recent = max(self.min_rate, len(self._recent) / self.recent_seconds)
            self._free_rate = max(self._free_rate or 0.0, recent)
            self.rate_cap = max(self.min_rate, min(self._current_cap(now) or recent, recent) / 2)
            self._cap_since = now
        elif status == 429 and reason == "connection" and retry_after is not None:
            end = now + retry_after
            self.origin = end % self.window_seconds
            self._window, self._count = self._window_of(end) - 1, self.budget

    def _current_cap(self, now: float) -> float | None:
        """The rate cap, grown by ``recovery`` req/s for every second since the last workspace 429."""
        if self.rate_cap is None:
            return None
        grown = self.rate_cap + self.recovery * max(0.0, now - self._cap_since)
        if self._free_rate is not None and grown >= self._free_rate:
            self.rate_cap = self._free_rate = None  # back to the pace it had before being told to slow down
            return None
        return grown

    def __repr__(self) -> str:
        return f"BudgetAware(budget={self.budget}, window_seconds={self.window_seconds})"
