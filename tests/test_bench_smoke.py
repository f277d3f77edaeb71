"""The benchmarks run end to end in quick mode and report every comparison (no timing is checked)."""

from __future__ import annotations

import re
import subprocess
import sys

from lab.course.paths import REPO_ROOT


def test_quick_benchmarks_print_one_row_per_comparison_and_agree_with_the_references() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--only", "tfidf", "map", "bm25", "search"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert re.split(r"\s{2,}", lines[0]) == ["benchmark", "size", "lab", "reference", "ratio lab/ref", "check"]
    rows = [line for line in lines[2:] if not line.startswith("ratio below 1")]
    expected = [
        ("tfidf fit+transform time", "300"), ("tfidf fit+transform peak memory", "300"),
        ("tfidf fit+transform time", "600"), ("tfidf fit+transform peak memory", "600"),
        ("map (2 components) time", "1,200"), ("map (2 components) peak memory", "1,200"),
        ("bm25 index time", "600"), ("bm25 queries per second (top 10)", "600"),
        ("bm25 queries per second (top 10)", "600"),
        ("tfidf search, queries per second (top 10)", "600"),
        ("stored 128-d vectors search, queries per second (top 10)", "600"),
    ]
    assert [tuple(re.split(r"\s{2,}", row)[:2]) for row in rows] == expected
    differences = [float(value) for value in re.findall(r"max \|diff\| ([0-9.e+-]+)", run.stdout)]
    assert len(differences) == 3 and max(differences) < 1e-6
    assert run.stdout.count("same top-10 scores for 100.0%") == 4  # bm25s numba and numpy, TF-IDF, dense
    assert "(bm25s numba)" in run.stdout and "(bm25s numpy)" in run.stdout
