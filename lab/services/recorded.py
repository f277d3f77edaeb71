"""Replies recorded from an HTTP API, played back in place of the network.

:class:`RecordedSession` stands where a ``requests.Session`` would: a client posts to it as it
would to the service, and gets each recorded reply in turn as a ``requests.Response``, so that the
reply is read by the client's own code, exactly as a live one would be. Nothing leaves the
machine. It keeps the url and body of each request, never its headers, which carry the key.

>>> from lab.services import RecordedSession, call_model
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import requests

from lab.errors import LabError

__all__ = ["RecordedSession", "RecordingExhausted", "json_response"]


class RecordingExhausted(LabError, RuntimeError):
    """A request came after every recorded reply had been played."""


class RecordedSession:
    """Answers each ``post`` with the next of ``replies``: a JSON body (status 200) or a ``(status, body)`` pair.

    ``sent`` lists what each request carried (``url`` and ``json``), oldest first.
    """

    def __init__(self, *replies: Mapping[str, Any] | tuple[int, Mapping[str, Any]]) -> None:
        self.replies = [reply if isinstance(reply, tuple) else (200, reply) for reply in replies]
        self.sent: list[dict[str, Any]] = []

    def post(self, url: str, json: Any = None, **_: Any) -> requests.Response:
        """The next recorded reply to a POST of ``json`` to ``url`` (headers and timeout are ignored)."""
        if len(self.sent) >= len(self.replies):
            raise RecordingExhausted(f"{len(self.replies)} replies were recorded and request "
                                     f"{len(self.sent) + 1} (POST {url}) asked for one more")
        status, body = self.replies[len(self.sent)]
        self.sent.append({"url": url, "json": json})
        return json_response(status, body, url=url)

    @property
    def remaining(self) -> int:
        """Replies not played yet."""
        return len(self.replies) - len(self.sent)


def json_response(status: int, body: Any = None, *, url: str = "",
                  headers: Mapping[str, str] | None = None) -> requests.Response:
    """A ``requests.Response`` with ``body`` as its JSON (``{}`` for ``None``), as the network would return it."""
    response = requests.Response()
    response.status_code = status
    response._content = json.dumps(body if body is not None else {}).encode("utf-8")
    response.headers.update({"Content-Type": "application/json", **(headers or {})})
    response.encoding = "utf-8"
    response.url = url
    return response
