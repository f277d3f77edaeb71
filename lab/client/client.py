"""A Notion client that respects the API's limits, for the simulator and the real API alike.

The transport (a ``requests.Session``) and the clock are parameters: the in-process simulator
session and a :class:`~lab.clock.SimulatedClock` in the lessons, a plain session and the wall
clock against ``https://api.notion.com``. Method names follow the official SDK
(``client.blocks.children.list(block_id=...)``) so what a learner writes here transfers.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import requests

from lab.client.errors import (ERRORS_BY_STATUS, NotionAPIError, NotionConnectionError, RetriesExhausted,
                               redact)
from lab.client.log import RequestLog, RequestRecord
from lab.client.pacing import FixedRate, Pacer
from lab.client.retry import RETRY_AFTER_STATUSES, SERVER_ERROR_STATUSES, RetryPolicy
from lab.clock import Clock, WallClock
from lab.notion.api import CONNECTION_REASON, LATEST_VERSION, NOTION_API_URL, WORKSPACE_REASON

__all__ = ["NotionClient"]

_REASONS = {CONNECTION_REASON: "connection", WORKSPACE_REASON: "workspace"}


class NotionClient:
    """Paced, retrying access to the read side of the Notion API, with a request log.

    Parameters
    ----------
    token : the integration's secret. Kept private: never in the log, a repr or an error.
    session : the transport; ``lab.notion.in_process_session(sim)`` for the simulator.
    clock : where waits happen and log times come from (wall clock by default).
    pacer : ``FixedRate(3.0)`` by default; ``NoPacing()`` for a burst; ``BudgetAware``.
    retry : attempts and backoff; 429/529 always wait exactly ``Retry-After``.
    """

    def __init__(self, token: str, *, session: requests.Session | None = None, clock: Clock | None = None,
                 base_url: str = NOTION_API_URL, version: str = LATEST_VERSION, pacer: Pacer | None = None,
                 retry: RetryPolicy | None = None, timeout: float = 30.0) -> None:
        if not token:
            raise ValueError("a Notion token is required (an internal integration's secret)")
        self._token = token
        self.session = session or requests.Session()
        self.clock = clock or WallClock()
        self.base_url = base_url.rstrip("/")
        self.version = version
        self.pacer = pacer if pacer is not None else FixedRate(3.0)
        self.retry = retry or RetryPolicy()
        self.timeout = timeout
        self.log = RequestLog()
        self._rng: np.random.Generator = self.retry.rng()
        self.data_sources = _DataSources(self)
        self.pages = _Pages(self)
        self.blocks = _Blocks(self)
        self.users = _Users(self)

    def __repr__(self) -> str:
        return (f"NotionClient(base_url={self.base_url!r}, version={self.version!r}, pacer={self.pacer!r}, "
                f"token='ntn_***')")

    # ------------------------------------------------------------------ endpoints

    def search(self, **body: Any) -> dict[str, Any]:
        """``POST /v1/search``: pages and data sources shared with the integration, by title."""
        return self.request("POST", "/v1/search", body=body, endpoint="search")

    # ------------------------------------------------------------------ the retry loop

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._token}", "Notion-Version": self.version,
                "Content-Type": "application/json"}

    def request(self, method: str, path: str, *, body: dict[str, Any] | None = None,
                params: dict[str, Any] | None = None, endpoint: str = "", idempotent: bool = True) -> dict[str, Any]:
        """Send one API call, pacing and retrying as needed; return the JSON body of the 200.

        429 and 529 wait exactly the ``Retry-After`` the server asked for; 500/502/503/504 and
        network errors are retried with backoff only for idempotent calls (every read here).
        Anything else raises the typed error for its status at once.
        """
        url = self.base_url + path
        attempt = 0
        while True:
            attempt += 1
            paced = self.pacer.delay(self.clock.now())
            self.clock.sleep(paced)
            sent = self.clock.now()
            self.pacer.sent(sent)
            try:
                response = self.session.request(method, url, headers=self._headers(), timeout=self.timeout,
                                                params=params, data=json.dumps(body) if body is not None else None)
            except (requests.ConnectionError, requests.Timeout) as exc:
                wait = self._network_failure(method, path, endpoint, sent, paced, attempt, idempotent, exc)
                self.clock.sleep(wait)
                continue
            payload = _json_or_none(response)
            status = response.status_code
            if status == 200 and payload is not None:
                self._record(sent, method, path, endpoint, status, "", "", None, paced, 0.0, attempt,
                             payload.get("request_id", ""))
                self.pacer.observed(self.clock.now(), status, "", None)
                return payload
            code, message, request_id, reason = _error_fields(payload, status, response.text)
            message = redact(message, self._token)
            retry_after: float | None = None
            if status in RETRY_AFTER_STATUSES:
                retry_after = _retry_after(response, payload)
                wait = retry_after if retry_after is not None else self.retry.backoff(attempt, self._rng)
            elif status in SERVER_ERROR_STATUSES and idempotent:
                wait = self.retry.backoff(attempt, self._rng)
            else:
                self._record(sent, method, path, endpoint, status, code, reason, None, paced, 0.0, attempt,
                             request_id)
                error_type = ERRORS_BY_STATUS.get(status, NotionAPIError)
                raise error_type(method, path, status, code, message, request_id, attempt)
            self.pacer.observed(self.clock.now(), status, reason, retry_after)
            if attempt >= self.retry.max_attempts:
                self._record(sent, method, path, endpoint, status, code, reason, retry_after, paced, 0.0, attempt,
                             request_id)
                raise RetriesExhausted(method, path, status, code, message, request_id, attempt)
            self._record(sent, method, path, endpoint, status, code, reason, retry_after, paced, wait, attempt,
                         request_id)
            self.clock.sleep(wait)

    def _network_failure(self, method: str, path: str, endpoint: str, sent: float, paced: float, attempt: int,
                         idempotent: bool, exc: Exception) -> float:
        detail = redact(f"{type(exc).__name__}: {exc}", self._token)
        if not idempotent or attempt >= self.retry.max_attempts:
            self._record(sent, method, path, endpoint, 0, "network_error", "network", None, paced, 0.0, attempt, "")
            raise NotionConnectionError(f"{method} {path} failed after {attempt} attempts: {detail}") from None
        wait = self.retry.backoff(attempt, self._rng)
        self._record(sent, method, path, endpoint, 0, "network_error", "network", None, paced, wait, attempt, "")
        return wait

    def _record(self, t: float, method: str, route: str, endpoint: str, status: int, code: str, reason: str,
                retry_after: float | None, paced: float, wait: float, attempt: int, request_id: str) -> None:
        self.log.append(RequestRecord(round(t, 6), method, route, endpoint, status, code, reason, retry_after,
                                      round(paced, 6), round(wait, 6), attempt, request_id))


class _DataSources:
    def __init__(self, client: NotionClient) -> None:
        self._client = client

    def query(self, data_source_id: str, **body: Any) -> dict[str, Any]:
        """``POST /v1/data_sources/{id}/query``: rows of a data source, filtered and sorted."""
        return self._client.request("POST", f"/v1/data_sources/{data_source_id}/query", body=body,
                                    endpoint="data_sources.query")

    def retrieve(self, data_source_id: str) -> dict[str, Any]:
        """``GET /v1/data_sources/{id}``: the data source and its property schema."""
        return self._client.request("GET", f"/v1/data_sources/{data_source_id}", endpoint="data_sources.retrieve")


class _Pages:
    def __init__(self, client: NotionClient) -> None:
        self._client = client

    def retrieve(self, page_id: str) -> dict[str, Any]:
        """``GET /v1/pages/{id}``."""
        return self._client.request("GET", f"/v1/pages/{page_id}", endpoint="pages.retrieve")


class _Children:
    def __init__(self, client: NotionClient) -> None:
        self._client = client

    def list(self, block_id: str, **params: Any) -> dict[str, Any]:
        """``GET /v1/blocks/{id}/children``: one page of a block's direct children."""
        return self._client.request("GET", f"/v1/blocks/{block_id}/children", params=params or None,
                                    endpoint="blocks.children.list")


class _Blocks:
    def __init__(self, client: NotionClient) -> None:
        self._client = client
        self.children = _Children(client)

    def retrieve(self, block_id: str) -> dict[str, Any]:
        """``GET /v1/blocks/{id}``."""
        return self._client.request("GET", f"/v1/blocks/{block_id}", endpoint="blocks.retrieve")


class _Users:
    def __init__(self, client: NotionClient) -> None:
        self._client = client

    def me(self) -> dict[str, Any]:
        """``GET /v1/users/me``: the integration's bot user."""
        return self._client.request("GET", "/v1/users/me", endpoint="users.me")


def _json_or_none(response: requests.Response) -> dict[str, Any] | None:
    try:
        payload = response.json()
    except ValueError:
        return None
    return payload if isinstance(payload, dict) else None


def _error_fields(payload: dict[str, Any] | None, status: int, text: str) -> tuple[str, str, str, str]:
    if payload is None:
        return "invalid_response", f"non-JSON answer: {text[:120]!r}", "", ""
    extra = payload.get("additional_data") or {}
    reason = _REASONS.get(extra.get("rate_limit_reason", ""), "")
    if status == 529:
        reason = "overload"
    elif status in SERVER_ERROR_STATUSES:
        reason = "server_error"
    return (str(payload.get("code", "")), str(payload.get("message", "")), str(payload.get("request_id", "")),
            reason)


def _retry_after(response: requests.Response, payload: dict[str, Any] | None) -> float | None:
    for raw in (response.headers.get("Retry-After"), ((payload or {}).get("additional_data") or {}).get("retry_after")):
        try:
            if raw is not None:
                return max(0.0, float(raw))
        except (TypeError, ValueError):
            continue
    return None
