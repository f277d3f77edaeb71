"""The checkers of lesson 02's exercises (expected values computed, never typed)."""

from __future__ import annotations

from lab.client import BudgetAware, FixedRate
from lab.course.lesson02 import HEAVY_FAULTS, SEED
from lab.exercises.checking import Exercises
from lab.exercises.runs import run_indexer
from lab.simulator import LimitsConfig

__all__ = ["exercise"]

#: The checkers of the exercises at the end of lesson 02: ``exercise(1).check(...)``.
exercise = Exercises("lesson02")


@exercise.define(1)
def _fast_paced_pass() -> dict:
    fast = run_indexer("paced at 10/s", FixedRate(10.0), passes=1, seed=SEED, limits=LimitsConfig(plan="business"))
    return {"predicted_s": len(fast.log) / 10, "measured_s": fast.duration}


@exercise.define(2)
def _heavy_faults() -> dict:
    clean = run_indexer("clean", FixedRate(3.0), seed=SEED)
    heavy = run_indexer("heavy", FixedRate(3.0), seed=SEED, max_attempts=20, limits=HEAVY_FAULTS)
    blocks = [[[b["id"] for _, b in p.blocks] for p in run.read.pages] for run in (clean, heavy)]
    return {"identical_read": blocks[0] == blocks[1], "extra_requests": len(heavy.log) - len(clean.log),
            "extra_seconds": heavy.duration - clean.duration}


@exercise.define(3)
def _first_window() -> dict:
    log = run_indexer("budget-aware, 4 passes", BudgetAware.for_plan("free"), passes=4, seed=SEED).log
    return {"first_window_requests": int((log["t"] < 60).sum()),
            "second_window_start_s": float(log.loc[log["t"] >= 60, "t"].iloc[0])}
