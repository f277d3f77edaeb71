"""The in-process transport: a ``requests.Session`` whose adapter calls the simulator.

Code written for ``requests`` runs against the simulator unchanged: it gets real
``requests.Response`` objects (``status_code``, ``headers``, ``json()``, ``text``, ``ok``,
``raise_for_status()``), only no socket is opened and no wall time passes.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict

from lab.clock import Clock
from lab.notion.api import NOTION_API_URL
from lab.simulator.simulator import NotionSimulator

__all__ = ["SimulatorAdapter", "in_process_session"]

class SimulatorAdapter(BaseAdapter):
    """A ``requests`` transport adapter that hands each prepared request to a simulator."""

    def __init__(self, simulator: NotionSimulator, clock: Clock | None = None) -> None:
        super().__init__()
        self.simulator = simulator
        self.clock = clock  # a caller's own timeline; None means the simulator's clock

    def send(self, request: requests.PreparedRequest, stream: bool = False, timeout: object = None,
             verify: object = True, cert: object = None, proxies: object = None) -> requests.Response:
        parts = urlsplit(request.url or "")
        body = request.body
        if isinstance(body, str):
            body = body.encode("utf-8")
        at = self.clock.now() if self.clock is not None else None
        answer = self.simulator.handle(request.method or "GET", parts.path, headers=dict(request.headers),
                                       query=dict(parse_qsl(parts.query, keep_blank_values=True)), body=body, at=at)
        if self.clock is not None:
            self.clock.sleep(answer.latency)
        response = requests.Response()
        response.status_code = answer.status
        response.reason = answer.reason
        response.headers = CaseInsensitiveDict(answer.headers)
        response._content = b"" if request.method == "HEAD" else answer.content  # as the server sends it
        response.encoding = "utf-8"
        response.url = request.url or ""
        response.request = request
        return response

    def close(self) -> None:
        pass


def in_process_session(simulator: NotionSimulator, base_url: str = NOTION_API_URL,
                       clock: Clock | None = None) -> requests.Session:
    """A session whose requests to ``base_url`` go to the simulator (other URLs are refused).

    Pass ``clock`` when several clients share one simulator, each on its own timeline.
    """
    session = requests.Session()
    session.trust_env = False  # no proxy or .netrc lookups per request: nothing here goes to the network
    session.mount("http://", _Refuse())
    session.mount("https://", _Refuse())
    session.mount(base_url, SimulatorAdapter(simulator, clock))
    return session


class _Refuse(BaseAdapter):
    """Keeps an in-process session off the network: only the simulator's URL is served."""

    def send(self, request: requests.PreparedRequest, **kwargs: object) -> requests.Response:
        raise requests.ConnectionError(f"in-process session: {request.url} is not the simulator's URL")

    def close(self) -> None:
        pass
