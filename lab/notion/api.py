"""Notion's public API as both sides of the wire know it: address, versions, plans, limit reasons.

The client (for the real API) and the simulator both import these; neither defines them again.
"""

from __future__ import annotations

__all__ = ["NOTION_API_URL", "VERSIONS", "LATEST_VERSION", "PLANS", "CONNECTION_REASON", "WORKSPACE_REASON"]

#: The API's host; the client appends ``/v1/...`` to it.
NOTION_API_URL = "https://api.notion.com"

#: ``Notion-Version`` values the lab speaks: data sources arrived in 2025-09-03; 2026-03-11 renamed
#: ``archived`` to ``in_trash`` and the ``transcription`` block to ``meeting_notes``.
VERSIONS = ("2025-09-03", "2026-03-11")
LATEST_VERSION = "2026-03-11"

#: Requests per connection window (60 s) by plan (Notion's request limits, 2026).
PLANS: dict[str, int] = {"free": 180, "plus": 180, "business": 600, "enterprise": 600}

#: The ``reason`` a 429 carries: this connection's window, or the workspace's shared budget.
CONNECTION_REASON = "public_api_request_rate_limit"
WORKSPACE_REASON = "public_api_space_request_rate_limit"
