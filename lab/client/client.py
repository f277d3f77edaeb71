"""A Notion client that respects the API's limits, for the simulator and the real API alike.

The transport (a ``requests.Session``) and the clock are parameters: the in-process simulator
session and a :class:`~lab.clock.SimulatedClock` in the lessons, a plain session and the wall
clock against ``https://api.notion.com``. Method names follow the official SDK
(``client.blocks.children.list(block_id=...)``) so what a learner writes here transfers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import requests

from lab.client.errors import (ERRORS_BY_STATUS, InvalidObjectId, NotionAPIError, NotionClientError,
                               NotionConnectionError, RetriesExhausted)
from lab.client.log import RequestLog, RequestRecord
from lab.client.pacing import FixedRate, Pacer
from lab.clock import Clock, WallClock
from lab.notion.api import CONNECTION_REASON, LATEST_VERSION, NOTION_API_URL, WORKSPACE_REASON
from lab.notion.ids import is_notion_id
from lab.redaction import check_secret, redact
from lab.retry import SERVER_ERROR_STATUSES, RetryPolicy, parse_retry_after

__all__ = ["NotionClient"]

_REASONS = {CONNECTION_REASON: "connection", WORKSPACE_REASON: "workspace"}


@dataclass(frozen=True)
class _Answer:
    """What one attempt got: a 200's body, or an error's fields (status 0: no answer, the network failed)."""

    status: int
    code: str = ""
    reason: str = ""
    message: str = ""
    request_id: str = ""
    retry_after: float | None = None
    payload: dict[str, Any] | None = None


class NotionClient:
    """Paced, retrying access to the read side of the Notion API, with a request log.

    Parameters
    ----------
    token : the integration's secret. Kept private: never in the log, a repr or an error.
    session : the transport; ``lab.notion.in_process_session(sim)`` for the simulator.
    clock : where waits happen and log times come from (wall clock by default).
    pacer : ``FixedRate(3.0)`` by default; ``NoPacing()`` for a burst; ``BudgetAware``.
    retry : the :class:`lab.retry.RetryPolicy` that decides every wait and when to give up.
    """

    def __init__(self, token: str, *, session: requests.Session | None = None, clock: Clock | None = None,
                 base_url: str = NOTION_API_URL, version: str = LATEST_VERSION, pacer: Pacer | None = None,
                 retry: RetryPolicy | None = None, timeout: float = 30.0) -> None:
        if not token:
            raise ValueError("a Notion token is required (an internal integration's secret)")
        self._token = check_secret(token, "the Notion token")
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
        """Send one API call, pacing and retrying as the policy decides; return the JSON body of the 200.

        429 and 529 wait exactly the ``Retry-After`` the server asked for; 500/502/503/504 and
        network errors are retried with backoff only for idempotent calls (every read here).
        Anything else raises the typed error for its status at once.
        """
        attempt = 0
        while True:
            attempt += 1
            paced = self.pacer.delay(self.clock.now())
            self.clock.sleep(paced)
            sent = self.clock.now()
            self.pacer.sent(sent)
            answer = self._send(method, path, body, params)
            if answer.status:
                self.pacer.observed(self.clock.now(), answer.status, answer.reason, answer.retry_after)
            wait = None if answer.payload is not None else self.retry.wait(
                answer.status or None, answer.retry_after, idempotent=idempotent, attempt=attempt, rng=self._rng)
            self.log.append(RequestRecord(
                t=round(sent, 6), method=method, route=path, endpoint=endpoint, status=answer.status,
                code=answer.code, reason=answer.reason, retry_after=answer.retry_after, paced_s=round(paced, 6),
                wait_s=round(wait or 0.0, 6), attempt=attempt, request_id=answer.request_id))
            if answer.payload is not None:
                return answer.payload
            if wait is None:
                raise self._error(method, path, answer, attempt, idempotent)
            self.clock.sleep(wait)

    def _send(self, method: str, path: str, body: dict[str, Any] | None,
              params: dict[str, Any] | None) -> _Answer:
        try:
            response = self.session.request(method, self.base_url + path, headers=self._headers(),
                                            timeout=self.timeout, params=params,
                                            data=json.dumps(body) if body is not None else None)
        except (requests.ConnectionError, requests.Timeout) as exc:
            return _Answer(0, code="network_error", reason="network",
                           message=redact(f"{type(exc).__name__}: {exc}", self._token))
        payload = _json_or_none(response)
        if response.status_code == 200 and payload is not None:
            return _Answer(200, request_id=payload.get("request_id", ""), payload=payload)
        # the token leaves the raw text before _error_fields cuts it: a token cut in two no longer matches
        code, message, request_id, reason = _error_fields(payload, response.status_code,
                                                          redact(response.text, self._token))
        return _Answer(response.status_code, code=code, reason=reason, message=redact(message, self._token),
                       request_id=request_id, retry_after=_retry_after(response, payload))

    def _error(self, method: str, path: str, answer: _Answer, attempt: int, idempotent: bool) -> NotionClientError:
        """The typed error for the answer the policy gave up on."""
        if not answer.status:
            return NotionConnectionError(f"{method} {path} failed after {attempt} attempts: {answer.message}")
        if self.retry.is_retry(answer.status, idempotent=idempotent):
            error_type: type[NotionAPIError] = RetriesExhausted
        else:
            error_type = ERRORS_BY_STATUS.get(answer.status, NotionAPIError)
        return error_type(method, path, answer.status, answer.code, answer.message, answer.request_id, attempt)


def _path_id(value: Any, name: str) -> str:
    """``value`` if it is a Notion id; ids often come from responses or user input, and one put
    in a path unchecked could reach another endpoint, so anything else raises before a request."""
    if not is_notion_id(value):
        shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:79] + "…"
        raise InvalidObjectId(f"{name} {shown} is not a Notion id (a UUID: 32 hex digits, dashes optional); pass "
                              "the id of the object as Notion returns it (its `id` field, or the last 32 characters "
                              "of its url)")
    return value


class _DataSources:
    def __init__(self, client: NotionClient) -> None:
        self._client = client

    def query(self, data_source_id: str, **body: Any) -> dict[str, Any]:
        """``POST /v1/data_sources/{id}/query``: rows of a data source, filtered and sorted."""
        path = f"/v1/data_sources/{_path_id(data_source_id, 'data_source_id')}/query"
        return self._client.request("POST", path, body=body, endpoint="data_sources.query")

    def retrieve(self, data_source_id: str) -> dict[str, Any]:
        """``GET /v1/data_sources/{id}``: the data source and its property schema."""
        return self._client.request("GET", f"/v1/data_sources/{_path_id(data_source_id, 'data_source_id')}",
                                    endpoint="data_sources.retrieve")


class _Pages:
    def __init__(self, client: NotionClient) -> None:
        self._client = client

    def retrieve(self, page_id: str) -> dict[str, Any]:
        """``GET /v1/pages/{id}``."""
        return self._client.request("GET", f"/v1/pages/{_path_id(page_id, 'page_id')}", endpoint="pages.retrieve")


class _Children:
    def __init__(self, client: NotionClient) -> None:
        self._client = client

    def list(self, block_id: str, **params: Any) -> dict[str, Any]:
        """``GET /v1/blocks/{id}/children``: one page of a block's direct children."""
        path = f"/v1/blocks/{_path_id(block_id, 'block_id')}/children"
        return self._client.request("GET", path, params=params or None, endpoint="blocks.children.list")


class _Blocks:
    def __init__(self, client: NotionClient) -> None:
        self._client = client
        self.children = _Children(client)

    def retrieve(self, block_id: str) -> dict[str, Any]:
        """``GET /v1/blocks/{id}``."""
        return self._client.request("GET", f"/v1/blocks/{_path_id(block_id, 'block_id')}", endpoint="blocks.retrieve")


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
    """The header's seconds, else the body's ``additional_data.retry_after`` (Notion sends both)."""
    for raw in (response.headers.get("Retry-After"), ((payload or {}).get("additional_data") or {}).get("retry_after")):
        seconds = parse_retry_after(raw)
        if seconds is not None:
            return seconds
    return None
