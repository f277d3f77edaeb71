"""Syncs killed with SIGKILL at random moments, again and again, on both backends.

A child process edits the small workspace and syncs it, edit after edit, until the test kills it after a
delay drawn from a seeded generator: while it reads Notion, embeds, writes, commits or prints. After
every kill a reader finds the index of a complete generation (the one before the sync that was running, or
the one after it, compared by content), the watermark has not gone back, and a rerun of that sync
completes to what a full index of the workspace holds. The child forks a fresh process for every run, so
that each kill costs milliseconds rather than a Python start.
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

from lab.index import IndexStore
from lab.ingest.sync import full_index, incremental_sync
from lab.simulator import NotionSimulator, Workspace
from sync_histories import EDITS, _client, apply_edit, config, content, reference, small_workspace

SEED = 32
KILLS = 8
MAX_DELAY = 0.3  # seconds after the child is ready; a sync of the small workspace takes some 20 ms
STEP = 600  # simulated seconds from one edit to the next; each sync runs halfway between
_draw = random.Random(SEED)
SCHEDULE = [(_draw.choice(EDITS), _draw.randrange(50), _draw.randrange(50)) for _ in range(2_000)]

# Forks a process for each number it reads: that process syncs from that edit on until it is killed.
CHILD = textwrap.dedent("""
    import os, sys
    from test_sync_killed_at_random import sync_from
    for line in sys.stdin:
        pid = os.fork()
        if pid == 0:
            sync_from(sys.argv[1], int(line))
            os._exit(0)
        print(f"started {pid}", flush=True)
        print(f"ended {os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])}", flush=True)
""")


def workspace_at(k: int) -> Workspace:
    """The small workspace after the schedule's first ``k`` edits, edit ``i`` made at ``i * STEP``."""
    ws = small_workspace()
    for i in range(1, k + 1):
        ws.clock.set(i * STEP)
        apply_edit(ws, *SCHEDULE[i - 1])
    return ws


def sync_at(ws: Workspace, k: int, store: IndexStore) -> None:
    """Sync ``store`` with ``ws`` as the sync after edit ``k`` does, halfway to the next edit."""
    sim = NotionSimulator(ws, seed=k)
    sim.clock.set(k * STEP + STEP // 2)
    incremental_sync(_client(sim, None), store, sim.clock, config())


def sync_from(url: str, first: int) -> None:
    """In the child: edit ``first`` and sync, edit ``first + 1`` and sync..., saying which sync published."""
    ws = workspace_at(first - 1)
    store = IndexStore(url)
    print("ready", flush=True)
    for k in range(first, len(SCHEDULE) + 1):
        ws.clock.set(k * STEP)
        apply_edit(ws, *SCHEDULE[k - 1])
        sync_at(ws, k, store)
        print(f"synced {k}", flush=True)


@lru_cache(maxsize=None)
def generation(k: int) -> dict[str, Any]:
    """What the index holds once the sync after edit ``k`` has published: a full index of the workspace then."""
    return reference(workspace_at(k), k * STEP + STEP // 2)


def _run_until_killed(child: subprocess.Popen, first: int, delay: float, runs: list[int]) -> list[int]:
    """Start a run from edit ``first`` in the child, kill it ``delay`` seconds after it is ready; the syncs
    it said had published. The run's process id is in ``runs`` until it has ended."""
    child.stdin.write(f"{first}\n")
    child.stdin.flush()
    pid, ready = None, False
    while pid is None or not ready:  # the two lines come from two processes, in either order
        line = child.stdout.readline()
        assert line, child.stderr.read()
        if line.startswith("started "):
            pid = int(line.split()[1])
            runs.append(pid)
        else:
            assert line == "ready\n", line
            ready = True
    time.sleep(delay)
    os.kill(pid, signal.SIGKILL)
    published = []
    for line in child.stdout:
        if line.startswith("ended "):
            runs.remove(pid)
            assert int(line.split()[1]) == -signal.SIGKILL, f"the run ended by itself: {child.stderr.read()}"
            return published
        published.append(int(line.split()[1]))
    raise AssertionError(f"the child ended: {child.stderr.read()}")


def test_syncs_killed_at_random_moments_leave_readers_on_a_complete_generation_every_time(store_url) -> None:
    ws = workspace_at(0)
    sim = NotionSimulator(ws, seed=0)
    sim.clock.set(STEP // 2)
    with IndexStore(store_url) as store:
        full_index(_client(sim, None), store, sim.clock, config())
        watermark = store.watermark("notion")
    delays = random.Random(SEED)
    environment = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}  # safe to fork
    child = subprocess.Popen([sys.executable, "-c", CHILD, store_url], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parent, env=environment)
    first, published, runs = 1, 0, []
    try:
        for kill in range(KILLS):
            synced = _run_until_killed(child, first, delays.uniform(0, MAX_DELAY), runs)
            assert synced == list(range(first, first + len(synced)))
            published += len(synced)
            running = first + len(synced)  # the sync the kill interrupted (or that published unannounced)
            with IndexStore(store_url) as reader, reader.read_transaction():
                found, mark = content(reader), reader.watermark("notion")
            assert found in (generation(running - 1), generation(running)), f"kill {kill}: not a complete generation"
            assert mark >= watermark, f"kill {kill}: the watermark went back"
            with IndexStore(store_url) as store:
                sync_at(workspace_at(running), running, store)  # the rerun
                assert content(store) == generation(running), f"kill {kill}: the rerun differs from a full index"
                assert store.watermark("notion") >= mark
                watermark = store.watermark("notion")
            first = running + 1
    finally:
        for pid in runs:  # a run a failed check left behind
            os.kill(pid, signal.SIGKILL)
        child.stdin.close()
        child.wait(timeout=30)
    assert published > KILLS  # the kills fell among syncs, not only before the first
