"""A faithful simulator of the Notion API (read side): workspace model, semantics, transports.

>>> from lab.notion import Workspace, NotionSimulator, in_process_session
"""

from lab.notion.limits import PLANS, LimitsConfig
from lab.notion.objects import LATEST_VERSION, VERSIONS
from lab.notion.richtext import plain_text, rich_text
from lab.notion.simulator import NotionSimulator, SimResponse, default_token
from lab.notion.transport import NOTION_API_URL, SimulatorAdapter, in_process_session
from lab.notion.workspace import Workspace, WorkspaceError

__all__ = ["PLANS", "LimitsConfig", "LATEST_VERSION", "VERSIONS", "plain_text", "rich_text", "NotionSimulator",
           "SimResponse", "default_token", "NOTION_API_URL", "SimulatorAdapter", "in_process_session",
           "Workspace", "WorkspaceError"]
