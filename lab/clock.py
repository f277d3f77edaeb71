"""Time for the lab: one interface over simulated time and wall time.

Everything that waits (a client honouring ``Retry-After``, a paced loop) or stamps
(``last_edited_time``, request logs) takes a :class:`Clock`, so the same code runs in a
lesson on simulated seconds and against the real API on the wall clock.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from typing import Protocol, runtime_checkable

__all__ = ["Clock", "SimulatedClock", "WallClock", "LAB_EPOCH", "iso_minute"]

#: Thursday 9 April 2026, 16:00 UTC, when the bakery's lessons begin: 10:00 in Mexico City, six hours
#: behind, where the bakery is. The lessons' clock times are UTC, as Notion stamps its pages.
LAB_EPOCH = datetime(2026, 4, 9, 16, 0, tzinfo=timezone.utc)


@runtime_checkable
class Clock(Protocol):
    """Seconds since the clock's start, a way to wait, and the matching calendar time."""

    def now(self) -> float:
        """Seconds elapsed since the clock started."""

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (negative or zero waits nothing)."""

    def datetime(self) -> datetime:
        """The current instant as an aware UTC datetime."""


class SimulatedClock:
    """Simulated time: advanced only by ``sleep`` and ``advance`` (latency), never by the CPU.

    Two runs that make the same calls see the same times, which is what lets a lesson print
    durations and still pass a strict notebook comparison.
    """

    def __init__(self, start: datetime = LAB_EPOCH) -> None:
        if start.tzinfo is None:
            raise ValueError("SimulatedClock needs an aware start datetime (for example with tzinfo=timezone.utc)")
        self.start = start
        self._t = 0.0

    def now(self) -> float:
        return self._t

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self._t += float(seconds)

    def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds`` (used by the simulator for request latency)."""
        if seconds < 0:
            raise ValueError(f"a clock cannot go back: advance({seconds})")
        self._t += float(seconds)

    def set(self, seconds: float) -> None:
        """Jump to ``seconds`` after the start, never backwards (used to script a day of edits)."""
        if seconds < self._t:
            raise ValueError(f"a clock cannot go back: now={self._t}, asked for {seconds}")
        self._t = float(seconds)

    def datetime(self) -> datetime:
        return self.start + timedelta(seconds=self._t)

    def __repr__(self) -> str:
        return f"SimulatedClock(start={self.start.isoformat()}, now={self._t:.3f}s)"


class WallClock:
    """Real time: a monotonic counter for durations, the system clock for calendar time."""

    def __init__(self) -> None:
        self._origin = time.monotonic()

    def now(self) -> float:
        return time.monotonic() - self._origin

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)

    def datetime(self) -> datetime:
        return datetime.now(timezone.utc)

    def __repr__(self) -> str:
        return "WallClock()"


def iso_minute(instant: datetime) -> str:
    """Format an instant the way Notion stamps objects: UTC, rounded down to the minute.

    >>> iso_minute(datetime(2026, 4, 9, 16, 20, 42, tzinfo=timezone.utc))
    '2026-04-09T16:20:00.000Z'
    """
    utc = instant.astimezone(timezone.utc).replace(second=0, microsecond=0)
    return utc.strftime("%Y-%m-%dT%H:%M:00.000Z")
