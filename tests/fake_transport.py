"""A scripted stand-in for ``requests``: plays answers in order, records what was sent, never uses the network.

Each client under test (Notion, Voyage AI, Anthropic) gets a :class:`ScriptedSession` instead of
a ``requests.Session``; :func:`policy_waits` replays the same answers through the retry policy,
so a test can check that the client waited exactly what the policy decided.
"""

from __future__ import annotations

from typing import Any

import requests

from lab.retry import RetryPolicy, parse_retry_after
from lab.services.recorded import json_response

Step = requests.Response | Exception


def answer(status: int, body: Any = None, headers: dict[str, str] | None = None) -> requests.Response:
    """A ``requests.Response`` with a JSON body, as the transport would return it."""
    return json_response(status, body, headers=headers)


class ScriptedSession:
    """Answers each call with the next step of ``script``: a response to return or an exception to raise."""

    def __init__(self, *script: Step) -> None:
        self.script = list(script)
        self.sent: list[dict[str, Any]] = []

    def request(self, method: str, url: str, **kwargs: Any) -> requests.Response:
        self.sent.append({"method": method, "url": url, **kwargs})
        step = self.script.pop(0)
        if isinstance(step, Exception):
            raise step
        return step

    def post(self, url: str, **kwargs: Any) -> requests.Response:
        return self.request("POST", url, **kwargs)


def policy_waits(policy: RetryPolicy, script: list[Step], *, idempotent: bool) -> list[float | None]:
    """What ``policy`` decides after each failed step of ``script``, replayed with a fresh jitter stream."""
    rng = policy.rng()
    waits = []
    for attempt, step in enumerate(script, start=1):
        if isinstance(step, requests.Response) and step.status_code == 200:
            break
        status = step.status_code if isinstance(step, requests.Response) else None
        retry_after = parse_retry_after(step.headers.get("Retry-After")) if status else None
        waits.append(policy.wait(status, retry_after, idempotent=idempotent, attempt=attempt, rng=rng))
    return waits
