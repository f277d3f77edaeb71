"""Notion-shaped errors raised inside the simulator and turned into JSON responses."""

from __future__ import annotations

from typing import Any

from lab.errors import LabError
from lab.simulator.workspace import Integration

__all__ = ["APIError", "not_found", "validation_error"]


class APIError(LabError):
    """An error response: HTTP status, Notion ``code``, message and optional extras."""

    def __init__(self, status: int, code: str, message: str, *, additional_data: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.additional_data = additional_data
        self.headers = headers or {}

    def body(self, request_id: str) -> dict[str, Any]:
        """The JSON body Notion sends for this error."""
        body: dict[str, Any] = {"object": "error", "status": self.status, "code": self.code,
                                "message": self.message}
        if self.additional_data is not None:
            body["additional_data"] = self.additional_data
        body["request_id"] = request_id  # last, where Notion puts it
        return body


def not_found(kind: str, object_id: str, integration: Integration) -> APIError:
    """404 for an id that does not exist or is not shared: the two are indistinguishable.

    Like Notion, the answer names the integration that asked, and gives its bot id in
    ``additional_data.integration_id``: the one to share the page with.
    """
    return APIError(404, "object_not_found",
                    f"Could not find {kind} with ID: {object_id}. Make sure the relevant pages and databases are "
                    f"shared with your integration \"{integration.name}\".",
                    additional_data={"integration_id": integration.bot_id})


def validation_error(message: str) -> APIError:
    """400 for a request whose shape or values are wrong."""
    return APIError(400, "validation_error", message)
