"""Ready-made simulators for the lab's workspaces, so a lesson starts in one line."""

from __future__ import annotations

from typing import Any

from lab.clock import Clock, SimulatedClock
from lab.simulator.limits import LimitsConfig
from lab.simulator.simulator import NotionSimulator
from lab.simulator.workspace import Workspace

__all__ = ["bakery_workspace", "bakery_simulator", "KB_INTEGRATION", "BATCH_INTEGRATION"]

KB_INTEGRATION = "indexador"
BATCH_INTEGRATION = "lote-nocturno"


def bakery_workspace(clock: Clock | None = None, spec: dict[str, Any] | None = None) -> Workspace:
    """The Trigo Lento workspace (``lab/datasets/data/workspace/bakery.json``) on a fresh simulated clock."""
    if spec is None:
        from lab.datasets.bakery import load_bakery_workspace
        spec = load_bakery_workspace()
    return Workspace.from_spec(spec, clock or SimulatedClock())


def bakery_simulator(seed: int = 0, limits: LimitsConfig | None = None, spec: dict[str, Any] | None = None,
                     clock: Clock | None = None, **kwargs: Any) -> NotionSimulator:
    """A fresh simulator serving the bakery workspace with the given seed and limits."""
    workspace = bakery_workspace(clock, spec)
    return NotionSimulator(workspace, seed=seed, limits=limits, **kwargs)
