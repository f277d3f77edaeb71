"""The benchmarks run end to end in quick mode and report every comparison (no timing is checked)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from lab.course.paths import REPO_ROOT


@pytest.mark.slow
def test_quick_benchmarks_print_one_row_per_comparison_and_agree_with_the_references() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--only", "tfidf", "map", "search"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert re.split(r"\s{2,}", lines[0]) == ["benchmark", "size", "lab", "reference", "ratio lab/ref", "check"]
    rows = [line for line in lines[2:] if line and not line.startswith("ratio below 1")]
    expected = [
        ("tfidf fit+transform time", "300"), ("tfidf fit+transform peak memory", "300"),
        ("tfidf fit+transform time", "600"), ("tfidf fit+transform peak memory", "600"),
        ("map (2 components) time", "1,200"), ("map (2 components) peak memory", "1,200"),
        ("tfidf search, queries per second (top 10)", "600"),
        ("stored 128-d vectors search, queries per second (top 10)", "600"),
    ]
    assert [tuple(re.split(r"\s{2,}", row)[:2]) for row in rows] == expected
    differences = [float(value) for value in re.findall(r"max \|diff\| ([0-9.e+-]+)", run.stdout)]
    assert len(differences) == 3 and max(differences) < 1e-6
    assert run.stdout.count("same top-10 scores for 100.0%") == 2  # TF-IDF, dense


@pytest.mark.slow
def test_quick_bm25_benchmark_measures_every_shape_and_agrees_with_bm25s_numba_and_numpy_on_each() -> None:
    run = subprocess.run([sys.executable, "-m", "bench", "--quick", "--only", "bm25"], cwd=REPO_ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    queries, index = run.stdout.split("bm25: index time and memory")
    lines = queries.strip().splitlines()
    assert re.split(r"\s{2,}", lines[1])[:9] == [
        "corpus", "docs", "queries (100 each)", "lab q/s", "bm25s numba q/s", "lab/numba", "bm25s numpy q/s",
        "lab/numpy", "same top 10 (numba / numpy)"]
    rows = [re.split(r"\s{2,}", line) for line in lines[3:]]
    assert [row[:3] for row in rows] == [
        ["topical", "600", "2-5 topical words"], ["Zipf", "600", "2-5 words"], ["Zipf", "600", "short, 1-2 words"],
        ["Zipf", "600", "long, 10-20 words"], ["Zipf", "600", "frequent words"], ["Zipf", "600", "mid-frequency words"],
        ["Zipf", "600", "rare words"]]
    assert all(row[8].startswith("scores 100.0% / 100.0%, documents ") for row in rows)
    index_rows = [re.split(r"\s{2,}", line) for line in index.strip().splitlines()[2:4]]
    assert [row[:2] for row in index_rows] == [["topical", "600"], ["Zipf", "600"]]
    assert index_rows[1][5].endswith(" MB") and index_rows[1][7].endswith(" MB")  # memory of the largest corpus
