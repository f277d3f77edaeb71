"""Notion's wire vocabulary, shared by the client and the simulator: the API's address, versions,
plans, rate-limit reasons and windows, rich text, and the metadata of a page.

>>> from lab.notion import NOTION_API_URL, LATEST_VERSION, plain_text
"""

from lab.notion.api import CONNECTION_REASON, LATEST_VERSION, NOTION_API_URL, PLANS, VERSIONS, WORKSPACE_REASON
from lab.notion.ids import is_notion_id
from lab.notion.pages import MalformedPageError, PageMetadata
from lab.notion.richtext import MAX_RUN_CHARS, plain_text, rich_text
from lab.notion.windows import window_index

__all__ = ["NOTION_API_URL", "VERSIONS", "LATEST_VERSION", "PLANS", "CONNECTION_REASON", "WORKSPACE_REASON",
           "MAX_RUN_CHARS", "plain_text", "rich_text", "window_index", "PageMetadata", "MalformedPageError",
           "is_notion_id"]
