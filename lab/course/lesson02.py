"""Lesson 02's seed and the checkers of its exercises (expected values computed, never typed)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from lab.client import BudgetAware, FixedRate
from lab.course.exercises import Exercises
from lab.course.indexing_runs import run_indexer
from lab.simulator import LimitsConfig

__all__ = ["SEED", "HEAVY_FAULTS", "exercise", "key_figures"]

SEED = 2  # seeds latency, injected faults, request ids and retry jitter
HEAVY_FAULTS = LimitsConfig(p_workspace=0.20, p_overload=0.05, p_server_error=0.02)


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


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    t1 = pd.read_csv(tables / "02_table1_clients.csv").set_index("client")
    quiet = pd.read_csv(tables / "02_quiet_workspace.csv")
    aware = quiet[(quiet["client"] == "budget-aware") & (quiet["passes"] == 4)].iloc[0]
    paced = t1.loc["paced, 1 pass"]
    return (f"paced 1 pass {int(paced['requests'])} req in {paced['duration_s']} s; burst 4 passes "
            f"{t1.loc['burst, 4 passes', 'duration_s']} s; budget-aware vs minimum {aware['vs_minimum']}")
