"""A Notion workspace served on a free loopback port, for the length of a test.

Code that talks to Notion (the official SDKs, or any HTTP client) is pointed at :attr:`ServedNotion.base_url`
with :attr:`ServedNotion.token` and meets Notion's behaviour, not a recording: permissions per
integration, cursor pagination, filters, Notion-shaped errors, the plan's rate limits with
``Retry-After``, and faults (workspace 429s, 529 overloads, 5xx) switched on and off from the test.
It is moto's server mode for Notion: one object per test, a fresh workspace each time.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from lab.clock import WallClock
from lab.errors import LabError
from lab.simulator import LimitsConfig, NotionSimulator, Workspace
from lab.simulator.server import SimulatorHTTPServer
from lab.simulator.simulator import ServedRequest
from lab.simulator.spec import check_workspace_spec, load_workspace_spec
from lab.simulator.workspace import Page

__all__ = ["ServedNotion", "served_notion", "LIMIT_OPTIONS", "workspace_spec"]

#: What :meth:`ServedNotion.set_limits` (and the pytest marker) can switch: the plan, the windows
#: and budgets, and the fault probabilities (``p_workspace``, ``p_overload``, ``p_server_error``).
LIMIT_OPTIONS = tuple(field.name for field in fields(LimitsConfig))


def workspace_spec(workspace: str | Path | Mapping[str, Any] | None) -> dict[str, Any]:
    """The spec to serve: a JSON file's (checked), a dict (checked), or the lab's bakery when ``None``."""
    if workspace is None:
        from lab.datasets.bakery import load_bakery_workspace

        return load_bakery_workspace()
    if isinstance(workspace, Mapping):
        spec = dict(workspace)
        check_workspace_spec(spec)
        return spec
    return load_workspace_spec(workspace)


def limits_from(options: Mapping[str, Any], base: LimitsConfig | None = None) -> LimitsConfig:
    """``base`` (Notion's free plan by default) with ``options`` changed; an unknown name is an error."""
    unknown = sorted(set(options) - set(LIMIT_OPTIONS))
    if unknown:
        raise LabError(f"unknown limit option(s) {unknown}; the options are {list(LIMIT_OPTIONS)}")
    return replace(base or LimitsConfig(), **options)


class ServedNotion:
    """A workspace behind the Notion API on ``base_url`` until :meth:`stop` (or the end of a ``with``).

    Parameters
    ----------
    workspace : a workspace spec, as a path to a JSON file or a dict (``docs/workspace-spec.md``);
        the lab's bakery when ``None``.
    limits : plan, budgets and fault probabilities (Notion's free plan, no faults, by default).
    seed : seeds the faults drawn, the latencies and the request ids.
    token : the first integration's token; a fresh random one when ``None``, so code under test
        cannot pass with a token written into it. The other integrations' tokens derive from it.
    """

    def __init__(self, workspace: str | Path | Mapping[str, Any] | None = None, *, limits: LimitsConfig | None = None,
                 seed: int = 0, token: str | None = None, host: str = "127.0.0.1", port: int = 0) -> None:
        self.workspace = Workspace.from_spec(workspace_spec(workspace), WallClock())
        if not self.workspace.integrations:
            raise LabError("the workspace has no integration, so no token could open it; add one to the spec")
        self.integration = next(iter(self.workspace.integrations))
        self.token = token if token is not None else "ntn_" + secrets.token_hex(23)
        self.simulator = NotionSimulator(self.workspace, clock=self.workspace.clock, limits=limits, seed=seed,
                                         tokens={self.integration: self.token}, secret=self.token)
        # A test starts and stops one each time: a short poll makes stopping take milliseconds, not half a second.
        self._server = SimulatorHTTPServer(self.simulator, host, port).start_in_background(poll_interval=0.02)
        self._running = True
        self.base_url = self._server.base_url

    def token_for(self, integration: str) -> str:
        """The token of the integration with this key (the first integration's is :attr:`token`)."""
        return self.simulator.token_for(integration)

    def page_id(self, key: str) -> str:
        """The Notion id of the page with this key in the spec."""
        return self.workspace.page_id(key)

    def page(self, key: str) -> Page:
        """The page with this key, to read or edit (``workspace.edit_block_text(...)``, ``rename``...)."""
        return self.workspace.page(self.workspace.page_id(key))

    def data_source_id(self, key: str) -> str:
        """The Notion id of the data source with this key in the spec."""
        for source in self.workspace.data_sources.values():
            if source.key == key:
                return source.id
        raise LabError(f"no data source has the key {key!r}; the keys are "
                       f"{sorted(s.key for s in self.workspace.data_sources.values())}")

    @property
    def limits(self) -> LimitsConfig:
        """The plan, budgets and fault probabilities requests are answered under now."""
        return self.simulator.limits

    def set_limits(self, **options: Any) -> LimitsConfig:
        """Switch limits or faults from the next request on, e.g. ``set_limits(p_overload=1.0)``; return
        the limits that were in force, for :meth:`set_limits` to restore them."""
        before = self.simulator.limits
        changed = limits_from(options, before)
        with self._server.lock:  # never between two halves of a request
            self.simulator.set_limits(changed)
        return before

    @contextmanager
    def limited(self, **options: Any) -> Iterator[LimitsConfig]:
        """Limits or faults switched for the length of a ``with`` (``with notion.limited(p_overload=1.0):``)."""
        before = self.set_limits(**options)
        try:
            yield self.simulator.limits
        finally:
            with self._server.lock:
                self.simulator.set_limits(before)

    @property
    def requests(self) -> list[ServedRequest]:
        """What the server answered, oldest first: time, integration, method, route, status, error code."""
        return list(self.simulator.served)

    def stop(self) -> None:
        """Stop serving and free the port (stopping twice is harmless)."""
        if self._running:
            self._running = False
            self._server.stop()

    def __enter__(self) -> "ServedNotion":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:  # never the token
        return f"ServedNotion({self.workspace.name!r} at {self.base_url}, plan {self.limits.plan!r})"


@contextmanager
def served_notion(workspace: str | Path | Mapping[str, Any] | None = None, *, limits: LimitsConfig | None = None,
                  seed: int = 0, token: str | None = None) -> Iterator[ServedNotion]:
    """Serve a workspace on a free loopback port for the length of a ``with``, then free the port."""
    served = ServedNotion(workspace, limits=limits, seed=seed, token=token)
    try:
        yield served
    finally:
        served.stop()
