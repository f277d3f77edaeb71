"""A faithful simulator of the Notion API (read side): the workspace model and its edits, routing,
filters, cursors formed as Notion forms them, rate limits and faults, Notion-shaped errors, an
in-process ``requests`` transport and an HTTP server, and the lab's ready-made workspaces.

>>> from lab.simulator import bakery_simulator, in_process_session
"""

from lab.simulator.faults import InjectedCrash, crashing_session
from lab.simulator.inventory import block_type_counts, page_inventory
from lab.simulator.limits import LimitsConfig
from lab.simulator.simulator import NotionSimulator, SimResponse
from lab.simulator.tokens import default_token, derived_token
from lab.simulator.transport import SimulatorAdapter, in_process_session
from lab.simulator.workspace import Workspace, WorkspaceError
from lab.simulator.workspaces import BATCH_INTEGRATION, KB_INTEGRATION, bakery_simulator, bakery_workspace

__all__ = ["LimitsConfig", "NotionSimulator", "SimResponse", "default_token", "derived_token", "SimulatorAdapter",
           "in_process_session", "Workspace", "WorkspaceError", "KB_INTEGRATION", "BATCH_INTEGRATION",
           "bakery_simulator", "bakery_workspace", "InjectedCrash", "crashing_session", "block_type_counts",
           "page_inventory"]
