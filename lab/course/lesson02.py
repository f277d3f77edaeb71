"""Lesson 02's seed, its heavy-weather fault rates and the figures its run summary reports."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from lab.simulator import LimitsConfig

__all__ = ["SEED", "HEAVY_FAULTS", "key_figures"]

SEED = 2  # seeds latency, injected faults, request ids and retry jitter
HEAVY_FAULTS = LimitsConfig(p_workspace=0.20, p_overload=0.05, p_server_error=0.02)


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    t1 = pd.read_csv(tables / "02_table1_clients.csv").set_index("client")
    quiet = pd.read_csv(tables / "02_quiet_workspace.csv")
    aware = quiet[(quiet["client"] == "budget-aware") & (quiet["passes"] == 4)].iloc[0]
    paced = t1.loc["paced, 1 pass"]
    return (f"paced 1 pass {int(paced['requests'])} req in {paced['duration_s']} s; burst 4 passes "
            f"{t1.loc['burst, 4 passes', 'duration_s']} s; budget-aware vs minimum {aware['vs_minimum']}")
