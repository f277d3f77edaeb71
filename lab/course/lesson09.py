"""Lesson 09's seed, fault rates, its one served simulator and the figures its run summary reports."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pandas as pd

from lab.course.paths import DATA_DIR
from lab.simulator import LimitsConfig
from lab.simulator.server import ServedSimulator
from lab.simulator.workspaces import bakery_simulator

__all__ = ["SEED", "FAULTS", "POLICY", "OTHER_PAGE", "LOADER_RECORDING", "lesson_server", "key_figures"]

SEED = 9  # seeds latency, injected faults and request ids
FAULTS = LimitsConfig(p_workspace=0.03, p_overload=0.01)  # lesson 02's declared fault rates
POLICY = "politica-cancelaciones"  # the page whose top-level blocks the exercises list
OTHER_PAGE = "faq-cambios-y-cancelaciones"  # a second listing, for a borrowed cursor
#: What the reference loaders (dev extra only) gave for the bakery: recorded, and checked against a
#: fresh run, by tests/test_reference_loaders.py (``python -m tests.test_reference_loaders`` re-records).
LOADER_RECORDING = DATA_DIR / "recordings" / "09_reference_loaders.json"


@lru_cache(maxsize=1)
def lesson_server() -> ServedSimulator:
    """The lesson's one server on a free loopback port, started on first use; a cell run again
    gets the same server and address (a new kernel starts a new one)."""
    return ServedSimulator(bakery_simulator(seed=SEED))


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    compared = pd.read_csv(tables / "09_in_process_vs_http.csv")
    sdk = pd.read_csv(tables / "09_sdk_vs_lab_on_529.csv")
    raised = int(sdk["outcome"].str.startswith("raised").sum())
    return (f"HTTP vs in process: {int(compared['chunks'].iloc[1])} chunks, identical "
            f"{bool(compared['identical_chunks'].all())}; official SDK raised on {raised} of 6 calls (529)")
