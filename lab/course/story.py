"""A lesson told over simulated time, whose cells can be run again.

Lesson 06 is a story: an index at 16:00, edits until 17:40, a sync at 18:00, a crash at 20:00 (UTC,
the lessons' clock; 10:00 to 14:00 in Mexico City). Each of those cells changes the world (the
simulated workspace and its clock, the client's log, the index file), so running one again would
find the world already changed: the clock cannot go back, the block to edit no longer says what it
said. A :class:`Story` keeps the world as it was before each step, so a cell that starts with

    ws, clock, client, store = story.step("18:00 sync")

does exactly what it did the first time, however often it runs. Re-running a step forgets the
steps recorded after it: later cells continue from the re-run, as a learner expects.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from lab.client import NotionClient
from lab.course.step_history import StepHistory
from lab.simulator.simulator import NotionSimulator
from lab.simulator.workspace import Workspace
from lab.clock import SimulatedClock
from lab.index import IndexStore

__all__ = ["World", "Story"]


@dataclass
class World:
    """Everything a step can change: the simulator (workspace, clock, random streams), the
    client talking to it, and the index."""

    simulator: NotionSimulator
    client: NotionClient
    store: IndexStore

    @property
    def parts(self) -> tuple[Workspace, SimulatedClock, NotionClient, IndexStore]:
        return self.simulator.workspace, self.simulator.clock, self.client, self.store


@dataclass(frozen=True)
class _Snapshot:
    simulator_and_client: tuple[NotionSimulator, NotionClient]
    index: bytes


class Story(StepHistory[_Snapshot]):
    """The world before each step of a lesson, by step name, in the order steps first ran."""

    def __init__(self, world: World) -> None:
        super().__init__()
        self.world = world

    def step(self, name: str) -> tuple[Workspace, SimulatedClock, NotionClient, IndexStore]:
        """Start step ``name``: from the world as it was when this step first ran, if it ran
        before; otherwise from the world as it is now. Returns (workspace, clock, client, index)."""
        self._begin(name)
        return self.world.parts

    def _snapshot(self) -> _Snapshot:
        simulator, client = copy.deepcopy((self.world.simulator, self.world.client))
        return _Snapshot((simulator, client), self.world.store.serialize())

    def _restore(self, snapshot: _Snapshot) -> None:
        simulator, client = copy.deepcopy(snapshot.simulator_and_client)  # the snapshot stays reusable
        self.world.store.restore(snapshot.index)
        self.world = World(simulator, client, self.world.store)
