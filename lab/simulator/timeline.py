"""Several clients on one simulated workspace, each on its own clock, interleaved in time order.

Lesson 02 shows contention: the indexer and a nightly batch job are two connections of the
same workspace, so they share its budget. Each runs as ordinary blocking code (a thread)
with its own :class:`~lab.clock.SimulatedClock`; a conductor lets exactly one request reach
the simulator at a time, always the one with the earliest send time, so the interleaving is
the one real concurrent clients would produce, and it is reproducible to the byte.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import requests
from requests.adapters import BaseAdapter

from lab.clock import LAB_EPOCH, SimulatedClock
from lab.simulator.simulator import NotionSimulator
from lab.notion.api import NOTION_API_URL
from lab.simulator.transport import SimulatorAdapter

__all__ = ["run_together", "Actor"]

T = TypeVar("T")
Actor = Callable[[requests.Session, SimulatedClock], Any]


class _Conductor:
    def __init__(self, count: int) -> None:
        self.cv = threading.Condition()
        self.waiting: dict[int, float] = {}
        self.alive = set(range(count))
        self.turn: int | None = None

    def request_turn(self, actor: int, at: float) -> None:
        with self.cv:
            self.waiting[actor] = at
            self.cv.notify_all()
            self.cv.wait_for(lambda: self.turn == actor)

    def end_turn(self, actor: int) -> None:
        with self.cv:
            del self.waiting[actor]
            self.turn = None
            self.cv.notify_all()

    def finish(self, actor: int) -> None:
        with self.cv:
            self.alive.discard(actor)
            self.cv.notify_all()

    def conduct(self) -> None:
        with self.cv:
            while True:
                self.cv.wait_for(lambda: self.turn is None and set(self.waiting) == self.alive)
                if not self.alive:
                    return
                self.turn = min(self.waiting, key=lambda a: (self.waiting[a], a))
                self.cv.notify_all()


class _ConductedAdapter(BaseAdapter):
    def __init__(self, simulator: NotionSimulator, clock: SimulatedClock, conductor: _Conductor, actor: int) -> None:
        super().__init__()
        self._inner = SimulatorAdapter(simulator, clock)
        self._clock, self._conductor, self._actor = clock, conductor, actor

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        self._conductor.request_turn(self._actor, self._clock.now())
        try:
            return self._inner.send(request, **kwargs)
        finally:
            self._conductor.end_turn(self._actor)

    def close(self) -> None:
        pass


def run_together(simulator: NotionSimulator, actors: Sequence[Actor]) -> list[Any]:
    """Run each actor ``f(session, clock)`` concurrently against one simulator; return their results.

    Every actor's clock starts at the simulator clock's current time. Exceptions raised by an
    actor are re-raised here once every actor has stopped.
    """
    conductor = _Conductor(len(actors))
    results: list[Any] = [None] * len(actors)
    errors: list[BaseException | None] = [None] * len(actors)
    start_offset = simulator.clock.now()

    def run(index: int, actor: Actor) -> None:
        clock = SimulatedClock(getattr(simulator.clock, "start", LAB_EPOCH))
        clock.set(start_offset)
        session = requests.Session()
        session.mount(NOTION_API_URL, _ConductedAdapter(simulator, clock, conductor, index))
        try:
            results[index] = actor(session, clock)
        except BaseException as exc:  # re-raised in the caller's thread below
            errors[index] = exc
        finally:
            conductor.finish(index)

    threads = [threading.Thread(target=run, args=(i, a), daemon=True) for i, a in enumerate(actors)]
    for thread in threads:
        thread.start()
    conductor.conduct()
    for thread in threads:
        thread.join()
    for error in errors:
        if error is not None:
            raise error
    return results
