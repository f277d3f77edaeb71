"""Replies recorded from an HTTP API, played back in place of the network.

:class:`RecordedSession` stands where a ``requests.Session`` would: a client posts to it as it
would to the service, and gets each recorded reply in turn as a ``requests.Response``, so that the
reply is read by the client's own code, exactly as a live one would be. Nothing leaves the
machine. It keeps the url and body of each request, never its headers, which carry the key.

Replies a lesson plays are kept in a file (:func:`read_replies`): a ``note`` saying where they come
from, and for each reply its name, its HTTP status, its JSON body and what request it answers
(``answers``: the query, the passages, ...), which :meth:`RecordedReplies.check` compares with what
the code about to be played back will send, so a reply is never read against another request.

>>> from lab.services import RecordedSession, call_model
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import requests

from lab.errors import LabError
from lab.json_files import JSONFileError, read_json_file

__all__ = ["RecordedReplies", "RecordedReply", "RecordedSession", "RecordingError", "RecordingExhausted",
           "RecordingMismatch", "json_response", "read_replies"]

#: A file of replies holds a few bodies, not a corpus.
MAX_RECORDING_BYTES = 2_000_000


class RecordingExhausted(LabError, RuntimeError):
    """A request came after every recorded reply had been played."""


class RecordingError(LabError, ValueError):
    """A file of recorded replies is not what :func:`read_replies` reads; the message names the file and the problem."""


class RecordingMismatch(LabError, ValueError):
    """A recorded reply was written for another request than the one about to be played back."""


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


@dataclass(frozen=True)
class RecordedReply:
    """One reply as the service would send it: its HTTP ``status``, its JSON ``body``, and what the request
    it answers carried (``answers``), as far as the file says."""

    status: int
    body: Any
    answers: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RecordedReplies:
    """Named replies read from a file, and the ``note`` that says where they come from."""

    note: str
    replies: Mapping[str, RecordedReply]

    def reply(self, name: str) -> RecordedReply:
        """The reply called ``name``; ``KeyError`` naming the ones kept."""
        if name not in self.replies:
            raise KeyError(f"no reply called {name!r} is recorded; the file keeps {', '.join(map(repr, self.replies))}")
        return self.replies[name]

    def session(self, *names: str) -> RecordedSession:
        """A :class:`RecordedSession` that answers each request with the next of the replies ``names``."""
        return RecordedSession(*((self.reply(name).status, self.reply(name).body) for name in names))

    def check(self, name: str, **sent: Any) -> None:
        """Raise :class:`RecordingMismatch` unless each of ``sent`` equals what reply ``name`` answers."""
        answers = self.reply(name).answers
        for key, value in sent.items():
            if key not in answers:
                raise RecordingMismatch(f"the reply {name!r} does not say which {key} it answers")
            recorded = answers[key]
            if isinstance(value, (list, tuple)) and isinstance(recorded, list):
                value = list(value)
                first = next((i for i, (a, b) in enumerate(zip(recorded, value)) if a != b), None)
                if first is not None or len(recorded) != len(value):
                    where = (f"item {first + 1} is {recorded[first]!r} there and {value[first]!r} here"
                             if first is not None else f"{len(recorded)} recorded, {len(value)} sent")
                    raise RecordingMismatch(f"the reply {name!r} answers other {key}: {where}; "
                                            "write the reply again for the request now sent")
            elif recorded != value:
                raise RecordingMismatch(f"the reply {name!r} answers the {key} {recorded!r}, not {value!r}; "
                                        "write the reply again for the request now sent")


def read_replies(path: str | os.PathLike[str]) -> RecordedReplies:
    """The replies kept in the JSON file at ``path``: ``{"note": ..., "replies": {name: {"status": ..., "body":
    ..., "answers": {...}}}}``; :class:`RecordingError` naming the file and what is wrong with it."""
    try:
        data = read_json_file(path, MAX_RECORDING_BYTES)
    except JSONFileError as error:
        raise RecordingError(f"{os.fspath(path)} {error}") from None
    where = os.path.basename(os.fspath(path))
    if not isinstance(data, dict) or not isinstance(data.get("note"), str) or not data["note"].strip():
        raise RecordingError(f"{where} has no 'note' saying where its replies come from")
    entries = data.get("replies")
    if not isinstance(entries, dict) or not entries:
        raise RecordingError(f"{where} has no 'replies' object naming each reply")
    replies = {}
    for name, entry in entries.items():
        status = entry.get("status") if isinstance(entry, dict) else None
        if isinstance(status, bool) or not isinstance(status, int) or not 100 <= status <= 599:
            raise RecordingError(f"{where}: reply {name!r} has no HTTP 'status' (a whole number from 100 to 599)")
        if "body" not in entry:
            raise RecordingError(f"{where}: reply {name!r} has no 'body'")
        answers = entry.get("answers", {})
        if not isinstance(answers, dict):
            raise RecordingError(f"{where}: reply {name!r} has an 'answers' that is not an object")
        replies[name] = RecordedReply(status, entry["body"], answers)
    return RecordedReplies(note=data["note"], replies=replies)
