"""The Notion API, simulated: routing, headers, permissions, pagination, limits and errors.

:class:`NotionSimulator` answers one request at a time through :meth:`NotionSimulator.handle`,
the single core behind both transports: the in-process one (a ``requests`` adapter, see
``lab.simulator.transport``) and the HTTP server (``python -m lab serve``). Every client mistake is
answered with a Notion-shaped error body; nothing a client sends can produce a traceback.
"""

from __future__ import annotations

import json
import math
import re
from collections import deque
from datetime import datetime, timedelta, timezone
from dataclasses import astuple, dataclass, field
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, Callable, Mapping

import numpy as np

from lab.clock import Clock
from lab.notion.api import LATEST_VERSION
from lab.simulator.cursors import resume_position
from lab.simulator.errors import APIError, not_found, validation_error
from lab.simulator.filters import compile_filter, compile_sorts
from lab.simulator.ids import is_uuid, normalise_id, object_id
from lab.simulator.json_wire import dump_json, is_valid_unicode, parse_json_body, shown
from lab.simulator.limits import LimitsConfig, RateLimiter
from lab.simulator.objects import (block_object, bot_user_object, data_source_object, database_object,
                                page_as_block, page_object)
from lab.simulator.versions import API_VERSIONS, MULTI_SOURCE_MINIMUM, SERVED_VERSIONS, api_version
from lab.simulator.tokens import default_token, derived_token
from lab.simulator.workspace import DataSource, Integration, Page, Workspace, revision

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["NotionSimulator", "SimResponse", "ServedRequest", "MAX_BODY_BYTES", "QUERY_RESULT_LIMIT",
           "SERVED_LOG_SIZE", "too_large"]

MAX_BODY_BYTES = 500_000
QUERY_RESULT_LIMIT = 10_000
MAX_PAGE_SIZE = 100
#: Lines the server-side log keeps (the most recent ones): enough for any lesson's run, and a
#: server that answers for days keeps a flat memory.
SERVED_LOG_SIZE = 10_000

_REASONS = {529: "Site Overloaded"}  # Notion's own status; the others are the standard phrases


@dataclass(frozen=True)
class SimResponse:
    """What the simulator answers: status, headers and a JSON body, encoded when the answer is made
    (a snapshot: later edits of the workspace do not reach it, and nothing copies the workspace's data)."""

    status: int
    headers: dict[str, str]
    content: bytes  # the body as UTF-8 JSON, as both transports send it
    latency: float = 0.0

    @property
    def reason(self) -> str:
        """The status line's phrase ("Not Found", "Site Overloaded" for Notion's 529)."""
        try:
            return _REASONS.get(self.status) or HTTPStatus(self.status).phrase
        except ValueError:
            return ""

    @property
    def body(self) -> dict[str, Any]:
        """The JSON body, decoded: the caller's own copy."""
        return json.loads(self.content)


def too_large(length: int, limit: int) -> APIError:
    """400 `validation_error` for a body over the size limit (as Notion answers), sent before the body is read."""
    return APIError(400, "validation_error", f"Request body too large: {length} bytes; the limit is {limit} bytes.")


@dataclass(frozen=True, slots=True)
class ServedRequest:
    """One line of the server-side log (the connection is named, its token never)."""

    at: float
    connection: str
    method: str
    route: str
    status: int
    code: str
    reason: str
    latency: float


@dataclass
class _Request:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: bytes | None
    integration: Integration | None = None
    version: str = LATEST_VERSION
    params: dict[str, Any] = field(default_factory=dict)


_ID = r"(?P<id>[^/]+)"
_ROUTES: list[tuple[re.Pattern[str], str, dict[str, str]]] = [
    (re.compile(r"/v1/search"), "search", {"POST": "search"}),
    (re.compile(rf"/v1/data_sources/{_ID}/query"), "data_sources.query", {"POST": "query_data_source"}),
    (re.compile(rf"/v1/data_sources/{_ID}"), "data_sources", {"GET": "retrieve_data_source", "PATCH": None}),
    (re.compile(rf"/v1/databases/{_ID}/query"), "databases.query", {"POST": "query_database"}),
    (re.compile(rf"/v1/databases/{_ID}"), "databases", {"GET": "retrieve_database", "PATCH": None}),
    (re.compile(rf"/v1/pages/{_ID}"), "pages", {"GET": "retrieve_page", "PATCH": None}),
    (re.compile(rf"/v1/blocks/{_ID}/children"), "blocks.children", {"GET": "list_children", "PATCH": None}),
    (re.compile(rf"/v1/blocks/{_ID}"), "blocks", {"GET": "retrieve_block", "PATCH": None, "DELETE": None}),
    (re.compile(r"/v1/users/me"), "users.me", {"GET": "me"}),
    (re.compile(r"/v1/users"), "users", {"GET": None}),
    (re.compile(r"/v1/pages"), "pages.create", {"POST": None}),
]
#: The query-string parameters each route takes (Notion's reference); any other is refused as Notion
#: refuses it, "query.<name> should be not present" (a link pasted whole, ``<id>?v=<view>``, is the
#: usual way to send one). The property list is accepted and, here, not applied: every property is sent.
_QUERY_PARAMETERS: dict[str, tuple[str, ...]] = {
    "blocks.children": ("start_cursor", "page_size"), "pages": ("filter_properties",),
    "data_sources.query": ("filter_properties",), "databases.query": ("filter_properties",)}
_ID_NAMES = {"data_sources.query": "data_source_id", "data_sources": "data_source_id",
             "databases.query": "database_id", "databases": "database_id", "pages": "page_id",
             "blocks.children": "block_id", "blocks": "block_id"}


class _ListingCache:
    """The results of the last few listings (data source queries, searches), reused while nothing in the workspace changed.

    Reading a data source of 10,000 rows takes 100 requests, and filtering and sorting every row
    again for each of them made a listing quadratic. A cached listing is exactly the one the
    workspace would give now: it is keyed by the workspace's revision, which moves with any change
    to a page, a data source or what an integration can see. A copy of the simulator (a lesson's
    snapshot) starts with an empty cache.
    """

    SIZE = 8

    def __init__(self) -> None:
        self._rows: dict[tuple[int, int, str, str], list[Any]] = {}

    def get(self, workspace: Workspace, integration: str, scope: str) -> list[Any] | None:
        return self._rows.get((id(workspace), revision(), integration, scope))

    def put(self, workspace: Workspace, integration: str, scope: str, rows: list[Any]) -> None:
        current = revision()
        self._rows = {key: value for key, value in self._rows.items() if key[1] == current}
        if len(self._rows) >= self.SIZE:
            self._rows.pop(next(iter(self._rows)))
        self._rows[(id(workspace), current, integration, scope)] = rows

    def __deepcopy__(self, memo: dict[int, Any]) -> _ListingCache:
        return _ListingCache()


class NotionSimulator:
    """A Notion workspace behind the read side of the API, with its limits and its errors.

    Parameters
    ----------
    workspace : the workspace to serve (edits made to it show up in the next response).
    clock : simulated or wall clock; with a simulated clock each request advances it by a
        latency drawn from a seeded log-normal distribution.
    limits : plan, window budgets and fault probabilities.
    seed : seeds latency, injected faults, request ids and, without ``secret``, the tokens.
    tokens : integration key -> token, for the integrations whose token the caller chooses.
    secret : when given (a served simulator), every other integration's token derives from it
        (:func:`lab.simulator.tokens.derived_token`), not from the seed.
    served_log_size : lines of :attr:`served` kept, the most recent (memory stays flat).
    """

    def __init__(self, workspace: Workspace, *, clock: Clock | None = None, limits: LimitsConfig | None = None,
                 seed: int = 0, latency_median: float = 0.15, latency_sigma: float = 0.3,
                 tokens: Mapping[str, str] | None = None, max_body_bytes: int = MAX_BODY_BYTES,
                 secret: str | None = None, served_log_size: int = SERVED_LOG_SIZE) -> None:
        self.workspace = workspace
        self.clock = clock or workspace.clock
        self.limits = limits or LimitsConfig()
        self.seed = seed
        latency_seed, fault_seed = np.random.SeedSequence(seed).spawn(2)
        self._latency_rng = np.random.default_rng(latency_seed)
        self.limiter = RateLimiter(self.limits, np.random.default_rng(fault_seed))
        self.latency_median = latency_median
        self.latency_sigma = latency_sigma
        self.max_body_bytes = max_body_bytes
        issued = {key: default_token(key, seed) if secret is None else derived_token(secret, key)
                  for key in workspace.integrations}
        self._tokens = {token: key for key, token in (issued | dict(tokens or {})).items()}
        self._requests = 0
        self.served: deque[ServedRequest] = deque(maxlen=served_log_size)
        self._listings = _ListingCache()

    # ------------------------------------------------------------------ public helpers

    def token_for(self, integration_key: str) -> str:
        """The secret token of an integration (pass it to a client; never print it)."""
        for token, key in self._tokens.items():
            if key == integration_key:
                return token
        raise KeyError(f"no integration {integration_key!r}; known: {sorted(set(self._tokens.values()))}")

    def set_limits(self, limits: LimitsConfig) -> None:
        """Answer every later request under ``limits`` (plan, budgets, fault probabilities), keeping the
        requests already counted in the current windows and the seeded fault stream."""
        self.limits = limits
        self.limiter.config = limits

    def served_frame(self) -> pd.DataFrame:
        """The server-side request log as a DataFrame (connection names, never tokens), its most
        recent :data:`SERVED_LOG_SIZE` lines."""
        columns = ["at", "connection", "method", "route", "status", "code", "reason", "latency"]
        import pandas as pd  # here, not at the top: the served simulator and the command line start without it

        return pd.DataFrame([astuple(r) for r in self.served], columns=columns)

    def __repr__(self) -> str:
        return (f"NotionSimulator(workspace={self.workspace.name!r}, plan={self.limits.plan!r}, seed={self.seed}, "
                f"requests={self._requests})")

    # ------------------------------------------------------------------ the core

    def handle(self, method: str, path: str, *, headers: Mapping[str, str] | None = None,
               query: Mapping[str, str] | None = None, body: bytes | None = None,
               at: float | None = None) -> SimResponse:
        """Answer one request. Client mistakes become Notion errors; nothing raises.

        Without ``at`` the request arrives at the simulator's clock time and the clock then
        advances by the drawn latency. With ``at`` (several clients on their own timelines) the
        request arrives at that time and the caller advances its own clock by ``latency``.
        """
        self._requests += 1
        request_id = object_id("request", self.seed, self._requests)
        arrival = self.clock.now() if at is None else at
        request = _Request(method.upper(), path, dict(query or {}),
                           {k.lower(): v for k, v in (headers or {}).items()}, body)
        route = "?"
        try:
            self._check_unicode(request)
            route, handler, ids = self._route(request)
            self._authenticate(request)
            self._check_version(request)
            self.limiter.admit(request.integration.key, arrival)
            request.params = self._parse_body(request) if request.method == "POST" else {}
            self._check_query(request, route)
            if route != "users.me" and "read_content" not in request.integration.capabilities:
                raise APIError(403, "restricted_resource",
                               "Insufficient permissions for this endpoint: the integration lacks the "
                               "read content capability.")
            status, payload = 200, handler(request, *ids)
            extra_headers: dict[str, str] = {}
        except APIError as error:
            status, payload, extra_headers = error.status, error.body(request_id), dict(error.headers)
        except Exception as exc:  # a simulator bug must still look like Notion, never a traceback
            status, extra_headers = 500, {}
            payload = APIError(500, "internal_server_error",
                               f"Unexpected error occurred ({type(exc).__name__}).").body(request_id)
        else:
            payload["request_id"] = request_id
        latency = self._draw_latency()
        if at is None:
            advance = getattr(self.clock, "advance", None)
            if advance is not None:
                advance(latency)
        headers_out = {"Content-Type": "application/json; charset=utf-8", "x-request-id": request_id,
                       **extra_headers}
        reason = payload.get("additional_data", {}).get("rate_limit_reason", "") if status != 200 else ""
        self.served.append(ServedRequest(round(arrival, 6), request.integration.key if request.integration else "-",
                                         request.method, route, status, payload.get("code", "") if status != 200
                                         else "", reason, latency))
        return SimResponse(status, headers_out, dump_json(payload), latency)

    def _draw_latency(self) -> float:
        return float(self._latency_rng.lognormal(math.log(self.latency_median), self.latency_sigma))

    def _route(self, request: _Request) -> tuple[str, Callable[..., dict[str, Any]], tuple[str, ...]]:
        path = request.path.split("?", 1)[0].rstrip("/") or "/"
        for pattern, name, methods in _ROUTES:
            match = pattern.fullmatch(path)
            if not match:
                continue
            version = API_VERSIONS.get(request.headers.get("notion-version", ""))
            if version is not None and name not in version.routes:  # a route this version does not have
                break
            # HEAD is GET without the body (RFC 9110; the server sends no body for it)
            handler_name = methods.get("GET" if request.method == "HEAD" else request.method)
            if handler_name is None:
                shown_path = path if len(path) <= 120 else path[:119] + "…"
                served = [m for m, h in methods.items() if h]
                raise APIError(400, "invalid_request",
                               f"Unsupported request: {request.method[:20]} {shown_path}. This simulator serves the "
                               f"read side of the API; " + (f"{shown_path} accepts {', '.join(served)}." if served
                                                            else f"it serves no method of {shown_path}."))
            ids: tuple[str, ...] = ()
            if "id" in match.groupdict():
                raw = match.group("id")
                if not is_uuid(raw):
                    raise validation_error(f"path failed validation: path.{_ID_NAMES[name]} should be a valid "
                                           f"uuid, instead was `{shown(raw)}`.")
                ids = (normalise_id(raw),)
            return name, getattr(self, "_" + handler_name), ids
        raise APIError(400, "invalid_request_url", "Invalid request URL.")

    @staticmethod
    def _check_unicode(request: _Request) -> None:
        """A 400 for a path, query or header that holds a lone UTF-16 surrogate (only an
        in-process caller can send one: HTTP delivers bytes)."""
        texts = [request.path, *request.query, *request.query.values(), *request.headers.values()]
        if not all(isinstance(text, str) and is_valid_unicode(text) for text in texts):
            raise validation_error("request failed validation: the path, query or headers hold text that is not "
                                   "valid Unicode (an unpaired UTF-16 surrogate); send valid Unicode text.")

    def _authenticate(self, request: _Request) -> None:
        auth = request.headers.get("authorization", "")
        scheme, _, token = auth.partition(" ")
        key = self._tokens.get(token.strip()) if scheme.lower() == "bearer" else None
        if key is None:
            raise APIError(401, "unauthorized", "API token is invalid.")
        request.integration = self.workspace.integrations[key]

    def _check_version(self, request: _Request) -> None:
        version = request.headers.get("notion-version")
        if version is None:
            raise APIError(400, "missing_version",
                           "Notion-Version header failed validation: Notion-Version header should be defined, "
                           "instead was `undefined`.")
        if version not in SERVED_VERSIONS:
            raise validation_error(f"Notion-Version header failed validation: `{version[:40]}` is not a supported "
                                   f"version; use one of {', '.join(SERVED_VERSIONS)}.")
        request.version = version

    def _parse_body(self, request: _Request) -> dict[str, Any]:
        raw = request.body or b""
        if len(raw) > self.max_body_bytes:
            raise too_large(len(raw), self.max_body_bytes)
        if not raw.strip():
            return {}
        parsed = parse_json_body(raw)
        if not isinstance(parsed, dict):
            raise validation_error(f"body failed validation: body should be an object, instead was "
                                   f"`{shown(parsed)}`.")
        return parsed

    @staticmethod
    def _check_query(request: _Request, route: str) -> None:
        """Notion's 400 for a query-string parameter the route does not take."""
        allowed = _QUERY_PARAMETERS.get(route, ())
        for key, value in request.query.items():
            if key not in allowed:
                name = shown(key, 40).strip('"')  # escaped, cut short: a message never echoes a whole request
                raise validation_error(f"query failed validation: query.{name} should be not present, instead was "
                                       f"`{shown(value)}`.")

    # ------------------------------------------------------------------ pagination

    @staticmethod
    def _page_size(raw: Any, where: str) -> int:
        """The page size asked for. A query string carries it as text; a body as a JSON number, and
        ``5.0`` is the number 5 there (JavaScript's JSON.parse, and so Notion, cannot tell them apart)."""
        if raw is None:
            return MAX_PAGE_SIZE
        if where == "query" and isinstance(raw, str) and re.fullmatch(r"-?\d{1,20}", raw.strip()):
            raw = int(raw)
        if isinstance(raw, float) and raw.is_integer():
            raw = int(raw)
        if isinstance(raw, float) and math.isfinite(raw):
            raise validation_error(f"{where} failed validation: {where}.page_size should be an integer, instead "
                                   f"was `{shown(raw)}`.")
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise validation_error(f"{where} failed validation: {where}.page_size should be a number, instead "
                                   f"was `{shown(raw)}`.")
        if not 1 <= raw <= MAX_PAGE_SIZE:
            raise validation_error(f"{where} failed validation: {where}.page_size should be ≤ {MAX_PAGE_SIZE} "
                                   f"and ≥ 1, instead was `{raw}`.")
        return raw

    def _paginate(self, items: list[Any], render: Callable[[Any], dict[str, Any]], item_id: Callable[[Any], str],
                  params: Mapping[str, Any], where: str, list_type: str, limit: int | None = None) -> dict[str, Any]:
        """One page of a listing; only the returned window is rendered, so long lists stay cheap.

        ``item_id`` gives the id an item is printed with: the next item's id is the page's
        ``next_cursor``, as Notion forms it (:mod:`lab.simulator.cursors`)."""
        size = self._page_size(params.get("page_size"), where)
        cursor = params.get("start_cursor")
        total = len(items) if limit is None else min(len(items), limit)
        offset = 0 if cursor is None else resume_position(cursor, (item_id(items[i]) for i in range(total)))
        window = items[offset:min(offset + size, total)]
        end = offset + len(window)
        has_more = end < total
        body: dict[str, Any] = {"object": "list", "results": [render(item) for item in window],
                                "next_cursor": item_id(items[end]) if has_more else None,
                                "has_more": has_more, "type": list_type, list_type: {}}
        if limit is not None and len(items) > limit and end >= total:
            body["request_status"] = {"type": "incomplete", "incomplete_reason": "query_result_limit_reached"}
        return body

    @staticmethod
    def _check_keys(params: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
        unknown = sorted(set(params) - set(allowed))
        if unknown:
            raise validation_error(f"body failed validation: {where} has unknown parameter(s) "
                                   f"{', '.join(f'`{shown(k)}`' for k in unknown[:5])}; expected {', '.join(allowed)}.")

    # ------------------------------------------------------------------ endpoints

    def _visible(self, request: _Request, object_id_: str) -> bool:
        return self.workspace.can_see(request.integration, object_id_)

    def _search(self, request: _Request) -> dict[str, Any]:
        params = request.params
        self._check_keys(params, ("query", "filter", "sort", "start_cursor", "page_size"), "body")
        query = params.get("query", "")
        if not isinstance(query, str):
            raise validation_error(f"body failed validation: body.query should be a string, instead was "
                                   f"`{shown(query)}`.")
        version = api_version(request.version)
        kinds = {"page", version.table_object}
        if "filter" in params:
            flt = params["filter"]
            if (not isinstance(flt, dict) or flt.get("property") != "object" or not isinstance(flt.get("value"), str)
                    or flt["value"] not in kinds or set(flt) != {"property", "value"}):
                raise validation_error("body failed validation: body.filter should be "
                                       f"{{\"property\": \"object\", \"value\": \"page\" or "
                                       f"\"{version.table_object}\"}}.")
            kinds = {flt["value"]}
        descending = True
        if "sort" in params:
            sort = params["sort"]
            if (not isinstance(sort, dict) or sort.get("timestamp") != "last_edited_time"
                    or sort.get("direction", "descending") not in ("ascending", "descending")
                    or not set(sort) <= {"timestamp", "direction"}):
                raise validation_error("body failed validation: body.sort should be {\"timestamp\": "
                                       "\"last_edited_time\", \"direction\": \"ascending\" or \"descending\"}.")
            descending = sort.get("direction", "descending") == "descending"
        ws = self.workspace
        indexed = self._search_index_cutoff()
        scope = "search/" + json.dumps([query, sorted(kinds), descending, indexed and indexed.isoformat()])
        results = self._listings.get(ws, request.integration.key, scope)
        if results is None:
            needle = query.lower()
            found: list[tuple[str, str, Any]] = []
            if "page" in kinds:
                for page in ws.pages.values():
                    if (not page.in_trash and needle in page.title.lower() and self._visible(request, page.id)
                            and (indexed is None or _instant(page.edited) <= indexed)):
                        found.append((page.edited, page.id, page))
            if "data_source" in kinds:
                for ds in ws.data_sources.values():
                    if not ds.in_trash and needle in ds.title.lower() and self._visible(request, ds.id):
                        found.append((ds.edited, ds.id, ds))
            if "database" in kinds:  # before data sources: each database with one source, as its table
                for ds in ws.data_sources.values():
                    if (not ds.in_trash and needle in ds.title.lower() and self._visible(request, ds.id)
                            and len(ws.database_sources(ds.database_id)) == 1):
                        found.append((ds.edited, ds.database_id, [ds]))
            found.sort(key=lambda item: (item[0], item[1]), reverse=descending)
            results = [obj for _, _, obj in found]
            self._listings.put(ws, request.integration.key, scope, results)

        def render(obj: Any) -> dict[str, Any]:
            if isinstance(obj, Page):
                return page_object(ws, obj, request.version)
            if isinstance(obj, list):
                return database_object(obj, request.version)
            return data_source_object(obj, request.version)

        def item_id(obj: Any) -> str:
            return obj[0].database_id if isinstance(obj, list) else obj.id

        return self._paginate(results, render, item_id, params, "body", version.list_type)

    def _search_index_cutoff(self) -> datetime | None:
        """With a search delay, the last edit time search has indexed by now (a page edited later is left
        out); None without one."""
        if not self.limits.search_delay:
            return None
        return self.clock.datetime().astimezone(timezone.utc) - timedelta(seconds=self.limits.search_delay)

    def _query_data_source(self, request: _Request, ds_id: str) -> dict[str, Any]:
        ds = self.workspace.data_sources.get(ds_id)
        if ds is None or not self._visible(request, ds_id):
            raise not_found("data_source", ds_id, request.integration)
        return self._query_rows(request, ds)

    def _query_database(self, request: _Request, database_id: str) -> dict[str, Any]:
        """``POST /v1/databases/{id}/query`` (before 2025-09-03): the rows of the database's one source."""
        return self._query_rows(request, self._single_source(request, database_id))

    def _query_rows(self, request: _Request, ds: DataSource) -> dict[str, Any]:
        ws, ds_id = self.workspace, ds.id
        params = request.params
        has_sources = api_version(request.version).has_data_sources
        self._check_keys(params, ("filter", "sorts", "start_cursor", "page_size", "in_trash", "archived")
                         + (("result_type",) if has_sources else ()), "body")
        trashed, kinds = _trash_wanted(params), params.get("result_type", "page")
        if kinds not in ("page", "data_source"):
            raise validation_error(f"body failed validation: body.result_type should be `\"page\"` or "
                                   f"`\"data_source\"`, instead was `{shown(kinds)}`.")
        predicate = compile_filter(params["filter"], ds) if "filter" in params else (lambda page: True)
        sort_keys = compile_sorts(params["sorts"], ds) if "sorts" in params else []
        scope = "query/" + ds_id + "/" + json.dumps([params.get("filter"), params.get("sorts"), trashed, kinds],
                                                    sort_keys=True)
        rows = self._listings.get(ws, request.integration.key, scope)
        if rows is None:
            rows = [p for p in ws.pages.values()
                    if kinds == "page" and p.parent_type == "data_source_id" and p.parent_id == ds_id
                    and p.in_trash == trashed and self._visible(request, p.id) and predicate(p)]
            rows.sort(key=lambda p: (p.created, p.id))
            for key, descending in reversed(sort_keys):  # stable sorts, last key first
                rows.sort(key=key, reverse=descending)
            self._listings.put(ws, request.integration.key, scope, rows)
        return self._paginate(rows, lambda p: page_object(ws, p, request.version), _own_id, params, "body",
                              api_version(request.version).list_type, limit=QUERY_RESULT_LIMIT)

    def _database_sources(self, request: _Request, database_id: str) -> list[DataSource]:
        """The data sources of a database the integration can see (any of them shared), or a 404."""
        sources = self.workspace.database_sources(database_id)
        if not any(self._visible(request, ds.id) for ds in sources):
            raise not_found("database", database_id, request.integration)
        return sources

    def _single_source(self, request: _Request, database_id: str) -> DataSource:
        """The one data source an old-version database request means; Notion's 400 when there are several."""
        sources = self._database_sources(request, database_id)
        if len(sources) > 1:
            raise APIError(400, "validation_error",
                           "Databases with multiple data sources are not supported in this API version.",
                           additional_data={"error_type": "multiple_data_sources_for_database",
                                            "database_id": database_id,
                                            "child_data_source_ids": [ds.id for ds in sources],
                                            "minimum_api_version": MULTI_SOURCE_MINIMUM})
        return sources[0]

    def _retrieve_database(self, request: _Request, database_id: str) -> dict[str, Any]:
        if api_version(request.version).has_data_sources:
            return database_object(self._database_sources(request, database_id), request.version)
        return database_object([self._single_source(request, database_id)], request.version)

    def _retrieve_data_source(self, request: _Request, ds_id: str) -> dict[str, Any]:
        ds = self.workspace.data_sources.get(ds_id)
        if ds is None or not self._visible(request, ds_id):
            raise not_found("data_source", ds_id, request.integration)
        return data_source_object(ds, request.version)

    def _retrieve_page(self, request: _Request, page_id: str) -> dict[str, Any]:
        page = self.workspace.pages.get(page_id)
        if page is None or not self._visible(request, page_id):
            raise not_found("page", page_id, request.integration)
        return page_object(self.workspace, page, request.version)

    def _retrieve_block(self, request: _Request, block_id: str) -> dict[str, Any]:
        ws = self.workspace
        if not self._visible(request, block_id):
            raise not_found("block", block_id, request.integration)
        if block_id in ws.blocks:
            return block_object(ws, ws.blocks[block_id], request.version)
        if block_id in ws.pages:
            return page_as_block(ws, ws.pages[block_id], request.version)
        raise not_found("block", block_id, request.integration)

    def _list_children(self, request: _Request, block_id: str) -> dict[str, Any]:
        ws = self.workspace
        if (block_id not in ws.blocks and block_id not in ws.pages) or not self._visible(request, block_id):
            raise not_found("block", block_id, request.integration)
        children = [ws.blocks[c] for c in ws.children_of(block_id) if not ws.blocks[c].in_trash]
        return self._paginate(children, lambda b: block_object(ws, b, request.version), _own_id, request.query,
                              "query", "block")

    def _me(self, request: _Request) -> dict[str, Any]:
        return bot_user_object(self.workspace, request.integration, plan=self.limits.plan)


def _instant(stamp: str) -> datetime:
    """A Notion time stamp (``2026-04-08T14:05:00.000Z``) as an aware datetime."""
    instant = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return instant if instant.tzinfo is not None else instant.replace(tzinfo=timezone.utc)


def _trash_wanted(params: Mapping[str, Any]) -> bool:
    """Whether a query lists the rows in the trash: ``in_trash`` (or the older name ``archived``, which
    the official SDKs still send) true lists those, false or absent the others (ours: Notion's reference
    names the parameters without saying more)."""
    for name in ("in_trash", "archived"):
        value = params.get(name)
        if value is not None and not isinstance(value, bool):
            raise validation_error(f"body failed validation: body.{name} should be a boolean, instead was "
                                   f"`{shown(value)}`.")
    return bool(params.get("in_trash", params.get("archived")) or False)


def _own_id(item: Page | Any) -> str:
    """The id a page or a block is printed with (its cursor when it starts the next page)."""
    return item.id
