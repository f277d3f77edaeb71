"""The checkers of lesson 06's exercises (expected values computed, never typed)."""

from __future__ import annotations

from functools import lru_cache

from lab.client import collect_paginated_api
from lab.course.edits import afternoon_edits, apply_edits
from lab.course.lesson06 import STORAGE_FAQ, fresh_world, storage_faq_edit
from lab.course.story import World
from lab.exercises.checking import Exercises
from lab.ingest.quick_sync import edited_filter
from lab.ingest.reading import find_data_source, page_title
from lab.ingest.sync import SyncReport, cost_table, full_index, incremental_sync


#: The checkers of the exercises at the end of lesson 06: ``exercise(1).check(...)``.
exercise = Exercises("lesson06")


def _first_index(world: World) -> SyncReport:
    """16:00 as the lesson tells it: an edit, the first index, a second edit in the same minute."""
    ws, clock = world.simulator.workspace, world.simulator.clock
    clock.set(5)
    storage_faq_edit(ws, 1)
    report = full_index(world.client, world.store, clock)
    clock.set(45)
    storage_faq_edit(ws, 2)
    return report


@exercise.define(1)
def _strict_after_misses() -> dict:
    world = fresh_world()
    world.simulator.clock.set(5)
    storage_faq_edit(world.simulator.workspace, 1)
    world.simulator.clock.set(45)
    storage_faq_edit(world.simulator.workspace, 2)
    source = find_data_source(world.client)["id"]
    watermark = world.simulator.workspace.pages[world.simulator.workspace.page_id(STORAGE_FAQ)].edited

    def titles(operator: str) -> set[str]:
        rows = collect_paginated_api(world.client.data_sources.query, data_source_id=source,
                                     filter={"timestamp": "last_edited_time",
                                             "last_edited_time": {operator: watermark}})
        return {page_title(row) for row in rows}

    return {"missed_by_after": titles("on_or_after") - titles("after")}


@lru_cache(maxsize=None)
def _afternoon_runs() -> dict[str, tuple[int, int]]:
    """(requests, tokens embedded) of the first index, the 18:00 sync and a sync with no changes."""
    world = fresh_world()
    clock = world.simulator.clock
    first = _first_index(world)
    apply_edits(world.simulator.workspace, afternoon_edits())
    clock.set(2 * 3600)
    today = incremental_sync(world.client, world.store, clock)
    clock.set(3 * 3600)
    quiet = incremental_sync(world.client, world.store, clock)
    return {"first index": (first.requests, first.tokens_embedded),
            "today's sync": (today.requests, today.tokens_embedded),
            "a sync with no changes": (quiet.requests, quiet.tokens_embedded)}


@exercise.define(2)
def _month_prices() -> dict:
    month = {name: cost_table(_afternoon_runs(), usd_per_million=price).iloc[-1]["usd_embeddings"]
             for name, price in (("lite", 0.02), ("large", 0.12))}
    return {"month_usd_lite": float(month["lite"]), "month_usd_large": float(month["large"])}


@exercise.define(3)
def _restored_notice() -> dict:
    world = fresh_world()
    ws, clock = world.simulator.workspace, world.simulator.clock
    _first_index(world)
    apply_edits(ws, afternoon_edits())
    clock.set(2 * 3600)
    incremental_sync(world.client, world.store, clock)
    clock.set(2 * 3600 + 600)
    notice = ws.page_id("aviso-semana-santa-2026")
    ws.restore(notice)
    since = edited_filter(world.store.watermark("notion"))
    rows = collect_paginated_api(world.client.data_sources.query, filter=since,
                                 data_source_id=find_data_source(world.client)["id"])
    back = incremental_sync(world.client, world.store, clock)
    return {"chunks_new": back.chunks_new, "chunks_updated": back.chunks_updated,
            "tokens_embedded": back.tokens_embedded, "found_by_watermark": notice in {row["id"] for row in rows}}


