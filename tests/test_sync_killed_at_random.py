"""Syncs killed with SIGKILL at random moments, again and again, on both backends.

A child process edits the small workspace and syncs it, edit after edit, until the test kills it after a
delay drawn from a seeded generator, counted from the end of a sync it has announced (so the kills fall
among syncs however loaded the machine is): while it reads Notion, embeds, writes, commits or prints. After
every kill a reader finds the index of a complete generation (the one before the sync that was running, or
the one after it, compared by content), the watermark has not gone back, and a rerun of that sync
completes to what a full index of the workspace holds. The child forks a fresh process for every run, so
that each kill costs milliseconds rather than a Python start. The same holds of quick syncs (no
reconciliation): a complete generation is then the index that the same syncs, never killed, leave.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from lab.index import IndexStore
from lab.ingest.sync import SyncConfig, full_index, incremental_sync
from lab.simulator import NotionSimulator, Workspace
from sync_histories import EDITS, _client, apply_edit, config, content, reference, small_workspace

SEED = 32
KILLS = 8
MOST_SYNCS = 3  # a run is killed after 1 to this many syncs have published...
MAX_DELAY = 0.05  # ...and up to this many seconds more: a sync of the small workspace takes some 20 ms idle
STEP = 600  # simulated seconds from one edit to the next; each sync runs halfway between
_draw = random.Random(SEED)
SCHEDULE = [(_draw.choice(EDITS), _draw.randrange(50), _draw.randrange(50)) for _ in range(2_000)]

# Forks a process for each number it reads: that process syncs from that edit on until it is killed. The
# child and its runs share one pipe, so each line is one write() call (a pipe keeps those whole).
CHILD = textwrap.dedent("""
    import os, sys
    from test_sync_killed_at_random import say, sync_from
    for line in sys.stdin:
        pid = os.fork()
        if pid == 0:
            sync_from(sys.argv[1], int(line), sys.argv[2] == "quick")
            os._exit(0)
        say(f"started {pid}")
        say(f"ended {os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])}")
""")


def say(line: str) -> None:
    """Write one line to stdout in a single system call, so that lines from two processes never interleave."""
    os.write(1, f"{line}\n".encode())


def workspace_at(k: int) -> Workspace:
    """The small workspace after the schedule's first ``k`` edits, edit ``i`` made at ``i * STEP``."""
    ws = small_workspace()
    for i in range(1, k + 1):
        ws.clock.set(i * STEP)
        apply_edit(ws, *SCHEDULE[i - 1])
    return ws


def _config(quick: bool) -> SyncConfig:
    settings = config()
    if quick:
        settings.reconcile_every = None  # never on its own: every sync after the first index is quick
    return settings


def sync_at(ws: Workspace, k: int, store: IndexStore, quick: bool = False) -> None:
    """Sync ``store`` with ``ws`` as the sync after edit ``k`` does, halfway to the next edit."""
    sim = NotionSimulator(ws, seed=k)
    sim.clock.set(k * STEP + STEP // 2)
    incremental_sync(_client(sim, None), store, sim.clock, _config(quick))


def sync_from(url: str, first: int, quick: bool = False) -> None:
    """In the child: edit ``first`` and sync, edit ``first + 1`` and sync..., saying which sync published."""
    ws = workspace_at(first - 1)
    store = IndexStore(url)
    say("ready")
    for k in range(first, len(SCHEDULE) + 1):
        ws.clock.set(k * STEP)
        apply_edit(ws, *SCHEDULE[k - 1])
        sync_at(ws, k, store, quick)
        say(f"synced {k}")


class _QuickPath:
    """The index along the path the child took, for quick syncs: what one leaves depends on when each page
    was last read, not only on the workspace, so the reference makes the same syncs as the index did (the
    first index, every sync that published, a killed one that published, and the reruns), in memory."""

    def __init__(self) -> None:
        sim = NotionSimulator(workspace_at(0), seed=0)
        sim.clock.set(STEP // 2)
        self.store = IndexStore(":memory:")
        full_index(_client(sim, None), self.store, sim.clock, config())
        self.synced = 0

    def complete(self, k: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """The reference after the syncs up to ``k - 1``, and after sync ``k`` too (the two a kill during
        sync ``k`` may leave), each as :func:`_state`; the reference stays at the first."""
        for done in range(self.synced + 1, k):
            sync_at(workspace_at(done), done, self.store, quick=True)
        self.synced = k - 1
        after = IndexStore(":memory:")
        after.restore(self.store.serialize())
        sync_at(workspace_at(k), k, after, quick=True)
        return _state(self.store), _state(after)

    def rerun(self, k: int, published: bool) -> dict[str, Any]:
        """Sync ``k`` again after a kill (after the killed run itself if it ``published``); the state then."""
        for _ in range(2 if published else 1):
            sync_at(workspace_at(k), k, self.store, quick=True)
        self.synced = k
        return _state(self.store)


def _state(store: IndexStore) -> dict[str, Any]:
    """What the index holds, with when each page was read and the watermark (a quick sync's next reads hang on them)."""
    return {**content(store), "read_at": store.read_times(), "watermark": store.watermark("notion")}


@lru_cache(maxsize=None)
def generation(k: int) -> dict[str, Any]:
    """What the index holds once the sync after edit ``k`` has published: a full index of the workspace then."""
    return reference(workspace_at(k), k * STEP + STEP // 2)


def _run_until_killed(child: subprocess.Popen, first: int, after: int, delay: float, runs: list[int]) -> list[int]:
    """Start a run from edit ``first`` in the child, kill it ``delay`` seconds after ``after`` of its syncs
    said they had published; all the syncs it said had published. The run's process id is in ``runs`` until
    it has ended."""
    child.stdin.write(f"{first}\n")
    child.stdin.flush()
    pid, ready, published = None, False, []
    while pid is None or len(published) < after:  # the child's line and the run's come in any order
        line = child.stdout.readline()
        assert line, child.stderr.read()
        if line.startswith("started "):
            pid = int(line.split()[1])
            runs.append(pid)
        elif line == "ready\n":
            ready = True
        else:
            assert ready and line.startswith("synced "), line
            published.append(int(line.split()[1]))
    time.sleep(delay)
    os.kill(pid, signal.SIGKILL)
    for line in child.stdout:
        if line.startswith("ended "):
            runs.remove(pid)
            assert int(line.split()[1]) == -signal.SIGKILL, f"the run ended by itself: {child.stderr.read()}"
            return published
        published.append(int(line.split()[1]))
    raise AssertionError(f"the child ended: {child.stderr.read()}")


@pytest.mark.slow
@pytest.mark.parametrize("quick", [False, True], ids=["reconciling", "quick"])
def test_syncs_killed_at_random_moments_leave_readers_on_a_complete_generation_every_time(store_url, quick) -> None:
    ws = workspace_at(0)
    sim = NotionSimulator(ws, seed=0)
    sim.clock.set(STEP // 2)
    with IndexStore(store_url) as store:
        full_index(_client(sim, None), store, sim.clock, config())
        watermark = store.watermark("notion")
    delays = random.Random(SEED)
    environment = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}  # safe to fork
    path = _QuickPath() if quick else None
    child = subprocess.Popen([sys.executable, "-c", CHILD, store_url, "quick" if quick else "reconciling"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=Path(__file__).parent, env=environment)
    first, runs = 1, []
    try:
        for kill in range(KILLS):
            after = delays.randint(1, MOST_SYNCS)
            synced = _run_until_killed(child, first, after, delays.uniform(0, MAX_DELAY), runs)
            assert len(synced) >= after
            assert synced == list(range(first, first + len(synced)))
            running = first + len(synced)  # the sync the kill interrupted (or that published unannounced)
            with IndexStore(store_url) as reader, reader.read_transaction():
                found, mark = (_state if quick else content)(reader), reader.watermark("notion")
            complete = path.complete(running) if path else (generation(running - 1), generation(running))
            assert found in complete, f"kill {kill}: not a complete generation"
            assert mark >= watermark, f"kill {kill}: the watermark went back"
            with IndexStore(store_url) as store:
                sync_at(workspace_at(running), running, store, quick)  # the rerun
                if path:
                    rerun = path.rerun(running, published=found != complete[0])
                    assert _state(store) == rerun, f"kill {kill}: the rerun differs from the same syncs never killed"
                else:
                    assert content(store) == generation(running), f"kill {kill}: the rerun differs from a full index"
                assert store.watermark("notion") >= mark
                watermark = store.watermark("notion")
            first = running + 1
    finally:
        for pid in runs:  # a run a failed check left behind
            os.kill(pid, signal.SIGKILL)
        child.stdin.close()
        child.wait(timeout=30)
