"""Fault injection for lessons and tests: a transport that crashes at a chosen request."""

from __future__ import annotations

from typing import Any

import requests
from requests.adapters import BaseAdapter

from lab.errors import LabError
from lab.clock import Clock
from lab.simulator.simulator import NotionSimulator
from lab.notion.api import NOTION_API_URL
from lab.simulator.transport import SimulatorAdapter

__all__ = ["InjectedCrash", "CrashAt", "crashing_session"]


class InjectedCrash(LabError, RuntimeError):
    """Stands for the process dying at that point: not a network error, nothing retries it."""


class CrashAt(BaseAdapter):
    """Passes requests to ``inner`` until request number ``at`` (1-based), which raises."""

    def __init__(self, inner: BaseAdapter, at: int) -> None:
        super().__init__()
        self.inner, self.at, self.count = inner, at, 0

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        self.count += 1
        if self.count == self.at:
            raise InjectedCrash(f"injected crash at request {self.count} ({request.method} {request.path_url})")
        return self.inner.send(request, **kwargs)

    def close(self) -> None:
        pass


def crashing_session(simulator: NotionSimulator, at: int, clock: Clock | None = None) -> requests.Session:
    """An in-process session to ``simulator`` whose request number ``at`` crashes."""
    session = requests.Session()
    session.mount(NOTION_API_URL, CrashAt(SimulatorAdapter(simulator, clock), at))
    return session
