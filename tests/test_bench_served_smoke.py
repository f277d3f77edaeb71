"""The served-search benchmark runs end to end in quick mode (no timing is checked)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from lab.course.paths import REPO_ROOT


@pytest.mark.slow
def test_the_quick_served_search_benchmark_reports_both_searches_with_equal_rankings() -> None:
    run = subprocess.run([sys.executable, "-m", "bench", "--quick", "--only", "served"], cwd=REPO_ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "served search (IndexSearcher) vs its recipe in memory, 94 questions x 1 round(s)" in run.stdout
    header, row = run.stdout.splitlines()[2:4]
    assert "served p95 ms" in header and "in memory p50 ms" in header and "open with kept state s" in header
    assert row.split()[:4] == ["bakery", "40", "315", "tuned"] and row.split()[-1] == "True"
