"""A sync that misses nothing: after every sync of a random history of edits, faults and crashes,
the incremental index equals a full index built from scratch (chunks with every column, pages).

The suite tries a fixed set of 120 histories (derandomized, about 20 s); set ``LAB_SYNC_HISTORIES``
to try more, e.g. ``LAB_SYNC_HISTORIES=1000 pytest tests/test_sync_histories.py`` (a few
minutes), with ``--hypothesis-show-statistics`` to see what they exercised.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from sync_histories import EDITS, run_history

edit = st.tuples(st.sampled_from(EDITS), st.integers(0, 60), st.integers(0, 60))
wait = st.tuples(st.just("wait"), st.sampled_from([5.0, 20.0, 45.0, 70.0, 600.0]))
crash_at = st.one_of(st.none(), st.none(), st.integers(1, 40))
run = st.tuples(st.sampled_from(["sync", "sync", "sync", "sync", "reindex"]), crash_at)
histories = st.tuples(st.tuples(st.just("sync"), crash_at),  # the first index, perhaps interrupted
                      st.lists(st.one_of(edit, edit, edit, wait, run), min_size=3, max_size=16)).map(
    lambda parts: [parts[0], *parts[1], ("wait", 70.0), ("sync", None)])


HISTORIES = int(os.environ.get("LAB_SYNC_HISTORIES", "120"))

# Histories every run tries first (pages by index among the live ones: 1 "Casos raros", a sub-page
# two levels down; 2 "Cancelaciones"; 4 "Casos"; 6 "Entregas").
UNSHARE_AND_SHARE_AGAIN = [("sync", None), ("unshare", 2, 0), ("wait", 70.0), ("sync", None), ("share", 0, 0),
                           ("wait", 70.0), ("sync", None)]
SHRINK_AND_EDIT_SUB_PAGES = [("sync", None), ("delete_block", 2, 1), ("edit", 1, 2), ("wait", 5.0), ("edit", 1, 3),
                             ("sync", None), ("wait", 20.0), ("edit", 4, 0), ("new_sub_page", 6, 1), ("sync", 4),
                             ("wait", 70.0), ("sync", None)]
TRASH_RESTORE_AND_RESUME = [("sync", 9), ("trash", 4, 0), ("wait", 70.0), ("sync", None), ("restore", 0, 0),
                            ("rename", 2, 5), ("reindex", 6), ("edit", 3, 1), ("wait", 45.0), ("reindex", None),
                            ("wait", 70.0), ("sync", None)]
# Page 5 of 10 holds a synced original (its 12th text block is inside it), page 9 shows it.
EDIT_SYNCED_ORIGINAL = [("sync", None), ("new_page", 0, 3), ("new_page", 1, 1), ("wait", 70.0), ("sync", None),
                        ("edit", 5, 11), ("wait", 70.0), ("sync", None), ("unshare", 5, 0), ("wait", 70.0),
                        ("sync", None), ("share", 0, 0), ("wait", 70.0), ("sync", None), ("trash", 5, 0),
                        ("wait", 70.0), ("sync", None), ("restore", 0, 0), ("wait", 70.0), ("sync", None)]


@pytest.mark.slow
@example(steps=EDIT_SYNCED_ORIGINAL, faults=True, seed=3)
@example(steps=UNSHARE_AND_SHARE_AGAIN, faults=False, seed=0)
@example(steps=SHRINK_AND_EDIT_SUB_PAGES, faults=True, seed=1)
@example(steps=TRASH_RESTORE_AND_RESUME, faults=True, seed=2)
@settings(max_examples=HISTORIES, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(steps=histories, faults=st.booleans(), seed=st.integers(0, 2**16))
def test_after_every_sync_of_a_random_history_the_index_equals_a_full_index_built_from_scratch(
        steps, faults, seed) -> None:
    result = run_history(steps, faults, seed)
    event(f"syncs: {min(result.syncs, 6)}{'+' if result.syncs >= 6 else ''}")
    event("with 429, 529 and 5xx" if faults else "without faults")
    event("a run crashed and was resumed" if result.crashes else "no crash")
    if result.resumed_pages:
        event("a first index or re-index resumed from its checkpoint")
    if result.synced_shown:
        event("a page showed another page's synced block")
    for kind in result.kinds:
        event(f"edit: {kind}")
