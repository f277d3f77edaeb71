"""Typed errors of the lab's Notion client: each names the call, the status and the request id."""

from __future__ import annotations

from lab.errors import LabError

__all__ = ["NotionClientError", "NotionAPIError", "ObjectNotFound", "Unauthorized", "InvalidRequest",
           "RestrictedResource", "RetriesExhausted", "NotionConnectionError", "InvalidObjectId"]


class NotionClientError(LabError):
    """Base class of everything the client raises."""


class NotionAPIError(NotionClientError):
    """Notion answered with an error the client will not retry (or stopped retrying)."""

    def __init__(self, method: str, route: str, status: int, code: str, message: str, request_id: str,
                 attempts: int = 1) -> None:
        self.method = method
        self.route = route
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.attempts = attempts
        super().__init__(self._describe())

    def _describe(self) -> str:
        tries = f" after {self.attempts} attempts" if self.attempts > 1 else ""
        return (f"{self.method} {self.route} failed{tries}: {self.status} {self.code}: {self.message} "
                f"(request_id {self.request_id})")


class ObjectNotFound(NotionAPIError):
    """404: the id does not exist or is not shared with this integration (Notion cannot tell which)."""


class Unauthorized(NotionAPIError):
    """401: the token is missing or unknown."""


class InvalidRequest(NotionAPIError):
    """400: the request itself is wrong (version, body, filter, page size, cursor...)."""


class RestrictedResource(NotionAPIError):
    """403: the integration lacks the capability this call needs."""


class RetriesExhausted(NotionAPIError):
    """A retryable status (429, 529, 5xx) was still coming back after the last allowed attempt."""


class NotionConnectionError(NotionClientError):
    """The network failed on every attempt (connection refused, reset, timed out)."""


class InvalidObjectId(NotionClientError, ValueError):
    """An id given to the client is not a Notion id, so no request was sent: put in a path, it
    could reach another endpoint ("../users/me") or add a query string."""


ERRORS_BY_STATUS: dict[int, type[NotionAPIError]] = {
    400: InvalidRequest, 401: Unauthorized, 403: RestrictedResource, 404: ObjectNotFound,
}
