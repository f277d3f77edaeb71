"""The scaled bakery: a workspace of any size for scale tests, built from the real one."""

from __future__ import annotations

import pytest

from lab.datasets.bakery import load_bakery_workspace
from lab.datasets.scaled_bakery import clone_key, scaled_bakery_spec
from lab.simulator import KB_INTEGRATION, bakery_simulator


def _publishable(spec):
    return [p for p in spec["pages"] if p.get("publishable") and p["parent"]["type"] == "data_source"]


def test_the_knowledge_base_holds_exactly_the_pages_asked_for_and_the_original_workspace_is_kept() -> None:
    base = load_bakery_workspace()
    spec = scaled_bakery_spec(130)
    assert len(_publishable(spec)) == 130
    assert spec["pages"][:len(base["pages"])] == base["pages"]
    assert len({p["key"] for p in spec["pages"]}) == len(spec["pages"])
    assert len({p["title"] for p in _publishable(spec)}) == 130


def test_copies_cycle_through_the_pages_so_every_size_keeps_the_same_mix() -> None:
    originals = _publishable(load_bakery_workspace())
    copies = _publishable(scaled_bakery_spec(len(originals) * 3))[len(originals):]
    assert [c["key"] for c in copies[:len(originals)]] == [clone_key(o["key"], 1) for o in originals]
    assert [c["key"] for c in copies[len(originals):]] == [clone_key(o["key"], 2) for o in originals]
    assert all(c["type"] == o["type"] for c, o in zip(copies, originals * 2))


def test_a_scaled_workspace_loads_in_the_simulator_and_every_copy_is_visible_to_the_indexer() -> None:
    sim = bakery_simulator(spec=scaled_bakery_spec(100, distinct_words=5))
    visible = [p for p in sim.workspace.pages.values()
               if p.publishable and sim.workspace.can_see(sim.workspace.integration_by_key(KB_INTEGRATION), p.id)]
    assert len(visible) == 100


def test_made_up_words_make_each_copy_s_vocabulary_its_own_and_repeat_with_the_seed() -> None:
    spec = scaled_bakery_spec(50, distinct_words=20, seed=3)
    extra = [p["blocks"][-1]["text"].split() for p in _publishable(spec)[40:]]
    assert all(len(words) == 20 for words in extra)
    assert len(set(extra[0]) & set(extra[1])) < 5
    assert scaled_bakery_spec(50, distinct_words=20, seed=3) == spec
    assert scaled_bakery_spec(50, distinct_words=20, seed=4) != spec


@pytest.mark.parametrize("kwargs", [{"n_pages": 10}, {"n_pages": 50, "distinct_words": -1}])
def test_sizes_below_the_bakery_or_negative_word_counts_are_refused(kwargs) -> None:
    with pytest.raises(ValueError):
        scaled_bakery_spec(**kwargs)
