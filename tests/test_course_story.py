"""A lesson's story: a step run again starts from the world as it was when it first ran."""

from __future__ import annotations

import pytest

from lab.course.lesson06 import afternoon_story
from lab.ingest.sync import full_index, incremental_sync


@pytest.mark.slow
def test_a_step_run_twice_does_the_same_thing_twice(tmp_path) -> None:
    story = afternoon_story(tmp_path / "i.sqlite")
    results = []
    for _ in range(2):
        ws, clock, client, store = story.step("first index")
        clock.set(5)
        report = full_index(client, store, clock)
        results.append((report.requests, report.chunks_total, clock.now(), len(client.log), store.count_chunks()))
    assert results[0] == results[1]


@pytest.mark.slow
def test_re_running_an_earlier_step_forgets_the_later_ones_and_restores_the_index(tmp_path) -> None:
    story = afternoon_story(tmp_path / "i.sqlite")
    ws, clock, client, store = story.step("first index")
    full_index(client, store, clock)
    ws, clock, client, store = story.step("unpublish")
    ws.set_publishable(ws.page_id("aviso-rosca-de-reyes"), False)
    clock.set(3600)
    incremental_sync(client, store, clock)
    after_sync = store.count_chunks()
    ws, clock, client, store = story.step("first index")
    assert story.steps == ["first index"]
    assert store.count_chunks() == 0 and clock.now() == 0
    assert ws.pages[ws.page_id("aviso-rosca-de-reyes")].publishable
    full_index(client, store, clock)
    assert store.count_chunks() > after_sync


def test_the_world_a_step_returns_is_not_the_recorded_one(tmp_path) -> None:
    story = afternoon_story(tmp_path / "i.sqlite")
    ws, clock, *_ = story.step("a")
    ws, clock, *_ = story.step("a")
    clock.set(100)
    ws, clock, *_ = story.step("a")
    assert clock.now() == 0
