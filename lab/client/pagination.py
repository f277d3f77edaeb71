"""Cursor pagination as a generator: ``start_cursor`` is always copied, never made up."""

from __future__ import annotations

from typing import Any, Callable, Iterator

from lab.errors import LabError

__all__ = ["iterate_paginated_api", "collect_paginated_api", "PaginationError", "IncompleteListError"]


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
