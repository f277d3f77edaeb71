"""Cursor pagination as a generator (``start_cursor`` is always copied, never made up), and every row
of a data source however many it holds.

A data-source query returns at most 10,000 results; past them Notion says the list is
incomplete (``request_status``) and stops, so :func:`iterate_paginated_api` raises instead of
passing a short list for the whole one. :func:`query_every_row` reads past the limit the way
Notion's guide to large data sources advises, by ``created_time``: it sorts the rows by creation,
and when a query stops at the limit it asks again from the last creation time it saw (``and`` the
caller's filter), dropping the rows it already has. ``created_time`` never changes, so a row
edited during the read stays in its window, and a row created during it comes last. A query that
fits in one window costs exactly what a plain one does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator

from lab.errors import LabError

__all__ = ["iterate_paginated_api", "collect_paginated_api", "query_every_row", "RowsRead", "PaginationError",
           "IncompleteListError"]

#: The order :func:`query_every_row` reads rows in: the one key a row never changes.
BY_CREATION = [{"timestamp": "created_time", "direction": "ascending"}]


class PaginationError(LabError, RuntimeError):
    """A list said it had more results but gave no cursor to fetch them with."""


class IncompleteListError(PaginationError):
    """A list stopped short of its results (a data-source query past Notion's 10,000): a caller that
    took it for the whole list would treat every missing page as deleted."""


def iterate_paginated_api(function: Callable[..., dict[str, Any]], page_size: int = 100,
                          **kwargs: Any) -> Iterator[dict[str, Any]]:
    """Yield every result of a paginated endpoint, one request per page of ``page_size``.

    >>> pages = iterate_paginated_api(client.data_sources.query, data_source_id=ds_id)  # doctest: +SKIP
    """
    cursor: str | None = None
    while True:
        page = function(**kwargs, page_size=page_size, **({"start_cursor": cursor} if cursor else {}))
        yield from page["results"]
        if not page.get("has_more"):
            status = page.get("request_status") or {}
            if status.get("type") == "incomplete":
                raise IncompleteListError(
                    f"{getattr(function, '__qualname__', function)} stopped before its last result "
                    f"({status.get('incomplete_reason', 'no reason given')}); a data-source query returns at most "
                    "10,000 results. Nothing was taken for the whole list: narrow the query (fewer rows match its "
                    "filter) so that it fits")
            return
        cursor = page.get("next_cursor")
        if not cursor:
            raise PaginationError(f"{getattr(function, '__qualname__', function)} reported has_more without a "
                                  "next_cursor")


def collect_paginated_api(function: Callable[..., dict[str, Any]], page_size: int = 100,
                          **kwargs: Any) -> list[dict[str, Any]]:
    """Every result of a paginated endpoint, as a list."""
    return list(iterate_paginated_api(function, page_size=page_size, **kwargs))


@dataclass(frozen=True)
class RowsRead:
    """Every row a query matched, in creation order, and how many windows (queries from a creation
    time on) it took: 1 when the rows fit under the limit."""

    rows: list[dict[str, Any]]
    windows: int


def _from_creation(filter: dict[str, Any] | None, created: str | None) -> dict[str, Any] | None:
    """``filter`` narrowed to rows created ``on_or_after`` ``created`` (unchanged for the first window)."""
    if created is None:
        return filter
    window = {"timestamp": "created_time", "created_time": {"on_or_after": created}}
    return window if filter is None else {"and": [filter, window]}


def query_every_row(query: Callable[..., dict[str, Any]], data_source_id: str, filter: dict[str, Any] | None = None,
                    page_size: int = 100, shape: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> RowsRead:
    """Every row of a data-source query (``client.data_sources.query``) that matches ``filter``, past the
    10,000-result limit, each once.

    ``shape``, if given, is applied to each row as it arrives and only what it returns is kept (it
    must keep ``id`` and ``created_time``): a caller that needs a few fields of 100,000 rows never
    holds 100,000 whole page objects.

    Raises :class:`IncompleteListError` only if more than a whole window of rows share one
    ``created_time`` (a bulk import in one minute), which no creation window can split.
    """
    found: dict[str, dict[str, Any]] = {}
    created: str | None = None
    windows = 0
    while True:
        windows += 1
        body = {"data_source_id": data_source_id, "sorts": BY_CREATION}
        window_filter = _from_creation(filter, created)
        if window_filter is not None:
            body["filter"] = window_filter
        rows, complete = _one_window(query, page_size, body, shape)
        for row in rows:
            found.setdefault(row["id"], row)
        if complete:
            return RowsRead(rows=list(found.values()), windows=windows)
        last = rows[-1]["created_time"] if rows else created
        if last == created:
            raise IncompleteListError(
                f"more than {len(rows):,} rows of data source {data_source_id} were created at {created}: a query "
                "returns at most 10,000 results and rows created in one minute cannot be told apart by creation "
                "time; narrow the query with a filter of your own so that fewer rows match it")
        created = last


def _one_window(query: Callable[..., dict[str, Any]], page_size: int, body: dict[str, Any],
                shape: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> tuple[list[dict[str, Any]], bool]:
    """The rows of one query (each as ``shape`` makes it), and whether they were all of its rows (``False``:
    it stopped at the limit)."""
    rows: list[dict[str, Any]] = []
    try:
        for row in iterate_paginated_api(query, page_size=page_size, **body):
            rows.append(row if shape is None else shape(row))
    except IncompleteListError:
        return rows, False
    return rows, True
