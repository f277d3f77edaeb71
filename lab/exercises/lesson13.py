"""The checkers of lesson 13's exercises (expected values computed, never typed).

Both backends end every run in the same state, so the expected values come from an index in memory
(SQLite): a learner's PostgreSQL workspace must match them.
"""

from __future__ import annotations

from lab.client import NotionClient
from lab.course.edits import afternoon_edits, apply_edits
from lab.course.lesson13 import bakery_world, evening_hours_edit
from lab.exercises.checking import Exercises
from lab.ingest.sync import full_index, incremental_sync
from lab.simulator import KB_INTEGRATION, InjectedCrash, crashing_session

#: The checkers of the exercises at the end of lesson 13: ``exercise(1).check(...)``.
exercise = Exercises("lesson13")


@exercise.define(1)
def _crash_then_rerun() -> dict:
    world = bakery_world(":memory:")
    ws, clock, client, store = world.parts
    full_index(client, store, clock)
    apply_edits(ws, afternoon_edits())
    clock.set(2 * 3600)
    incremental_sync(client, store, clock)
    apply_edits(ws, [evening_hours_edit()])
    sim = world.simulator
    crashing = NotionClient(sim.token_for(KB_INTEGRATION), session=crashing_session(sim, at=3), clock=clock)
    try:
        incremental_sync(crashing, store, clock)
    except InjectedCrash:
        pass
    after_crash = store.generation()
    rerun = incremental_sync(client, store, clock)
    return {"generation_after_crash": after_crash, "generation_after_rerun": store.generation(),
            "rerun_requests": rerun.requests}


@exercise.define(2)
def _third_workspace() -> dict:
    world = bakery_world(":memory:", seed=9)
    ws, clock, client, store = world.parts
    full_index(client, store, clock)
    apply_edits(ws, afternoon_edits())
    clock.set(2 * 3600)
    report = incremental_sync(client, store, clock)
    return {"chunks_total": report.chunks_total, "generation": store.generation(), "same_as_sqlite": True}
