"""A sync that misses nothing: after every sync of a random history of edits, faults and crashes,
the incremental index equals a full index built from scratch (chunks with every column, pages)."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from sync_histories import EDITS, run_history

edit = st.tuples(st.sampled_from(EDITS), st.integers(0, 60), st.integers(0, 60))
wait = st.tuples(st.just("wait"), st.sampled_from([5.0, 20.0, 45.0, 70.0, 600.0]))
crash_at = st.one_of(st.none(), st.none(), st.integers(1, 40))
run = st.tuples(st.sampled_from(["sync", "sync", "sync", "sync", "reindex"]), crash_at)
histories = st.tuples(st.tuples(st.just("sync"), crash_at),  # the first index, perhaps interrupted
                      st.lists(st.one_of(edit, edit, edit, wait, run), min_size=3, max_size=16)).map(
    lambda parts: [parts[0], *parts[1], ("wait", 70.0), ("sync", None)])


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(steps=histories, faults=st.booleans(), seed=st.integers(0, 2**16))
def test_after_every_sync_of_a_random_history_the_index_equals_a_full_index_built_from_scratch(
        steps, faults, seed) -> None:
    result = run_history(steps, faults, seed)
    event(f"syncs: {min(result.syncs, 6)}{'+' if result.syncs >= 6 else ''}")
    event("with 429, 529 and 5xx" if faults else "without faults")
    event("a run crashed and was resumed" if result.crashes else "no crash")
    if result.resumed_pages:
        event("a first index or re-index resumed from its checkpoint")
    for kind in result.kinds:
        event(f"edit: {kind}")
