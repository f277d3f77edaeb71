"""A full index and a sync hold a batch of pages at a time: their memory does not grow with the workspace.

A full index and a one-edit sync of a 2,000-page workspace whose vocabulary grows with it (30
made-up words per page, as a real knowledge base's names, codes and jargon do) may need a little
more memory than a 200-page run (2.5 times, plus a few KB for each further page's metadata), never
ten times as much. Each size runs
in a process of its own (``bench.scale``): the simulated workspace is built, every code path is run
once on the bakery, the process's peak is reset, and the lab's memory is its peak during the runs
minus what the workspace held. Holding every chunk of the run at once (as the index did before it
published in batches), 2,000 pages took 9 times the memory of 200; with dense TF-IDF rows, 60 times.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import scale

DISTINCT_WORDS = 30  # made-up words per cloned page: the vocabulary grows with the workspace
PAGE_KB = 4  # what each page's metadata (ids, title, url, times) may add, on top of the 2.5 times


@pytest.mark.slow
def test_the_memory_of_an_index_and_a_sync_does_not_grow_with_the_workspace() -> None:
    if not Path("/proc/self/clear_refs").exists():
        pytest.skip("resetting a process's peak memory needs Linux's /proc/self/clear_refs")
    small, large = (scale.run_in_child("lab", pages, DISTINCT_WORDS, warm_up=True) for pages in (200, 2_000))
    assert "stopped" not in small and "stopped" not in large, (small, large)
    # the full index, then the quick syncs and the reconciling one: every run leaves every chunk indexed
    assert len(large["runs"]) >= 3 and {run["chunks"] for run in large["runs"]} == {15_750}
    # a few MB measured at 200 pages make a ratio alone noisy: 3.2 MB then 10.2 MB is 3.2 times, for 7 MB
    allowed = 2.5 * small["lab_mb"] + 1_800 * PAGE_KB / 1024
    assert large["lab_mb"] < allowed, (
        f"200 pages took {small['lab_mb']:.1f} MB, 2,000 pages {large['lab_mb']:.1f} MB (more than {allowed:.1f}: "
        f"2.5 times plus {PAGE_KB} KB for each further page): memory grows with the workspace")
