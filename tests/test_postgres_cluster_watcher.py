"""A lesson's throwaway PostgreSQL cluster does not outlive the kernel that started it, even a killed one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lab.course.paths import REPO_ROOT
from lab.testing.postgres_cluster import REQUIRE_ENV as REQUIRE_POSTGRES_ENV, skip_reason

STARTS_A_CLUSTER = """
from lab.testing.postgres_cluster import PostgresCluster
cluster = PostgresCluster.start()
cluster.stop_when_this_process_ends()
print(cluster.folder, flush=True)
import time; time.sleep(120)
"""


@pytest.mark.slow
def test_a_cluster_is_stopped_and_removed_when_the_process_that_started_it_is_killed() -> None:
    reason = skip_reason()
    if reason:
        pytest.skip(f"PostgreSQL tests did not run: {reason}")
    child = subprocess.Popen([sys.executable, "-c", STARTS_A_CLUSTER], stdout=subprocess.PIPE, text=True,
                             cwd=REPO_ROOT)
    folder = Path(child.stdout.readline().strip())
    assert (folder / "data" / "postmaster.pid").exists(), f"no server started ({REQUIRE_POSTGRES_ENV})"
    server = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    os.kill(child.pid, signal.SIGKILL)  # as a kernel is killed: no atexit, no finally
    child.wait()
    deadline = time.monotonic() + 30
    while folder.exists() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not folder.exists(), "the cluster's folder outlived the process that started it"
    assert not _running(server), f"the server (pid {server}) outlived the process that started it"


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (an exited one its parent has not reaped yet, a zombie, is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")
