"""The served-indexer benchmark runs end to end in quick mode: the indexer in its own process reads the
workspace over HTTP, and its peak memory is measured apart from the server's (no timing is checked)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from lab.course.paths import REPO_ROOT


@pytest.mark.slow
def test_the_quick_served_indexer_benchmark_indexes_every_chunk_and_reports_both_processes() -> None:
    run = subprocess.run([sys.executable, "-m", "bench", "--quick", "--only", "served-index"], cwd=REPO_ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert "indexer peak MB" in lines[-4] and "server MB" in lines[-4]
    # each row ends: seconds, CPU s, requests, chunks, indexer peak MB, server MB, index MB
    rows = {" ".join(line.split()[1:-7]): line.split() for line in lines[-3:]}
    assert set(rows) == {"full index", "quick no-change sync", "reconciling sync"}
    assert rows["full index"][0] == "200" and rows["full index"][-5:-3] == ["348", "1575"]  # requests, chunks
    assert {row[-4] for row in rows.values()} == {"1575"}  # every run leaves every chunk indexed
    assert int(rows["reconciling sync"][-5]) > int(rows["quick no-change sync"][-5])  # it lists the rows
    assert all(float(row[-3]) > 0 and float(row[-2]) > 0 for row in rows.values())  # both processes measured
