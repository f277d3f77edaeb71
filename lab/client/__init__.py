"""The lab's Notion client: pacing, Retry-After, backoff, pagination, traversal, a request log."""

from lab.client.client import NotionClient
from lab.client.errors import (InvalidObjectId, InvalidRequest, NotionAPIError, NotionClientError, NotionConnectionError,
                               ObjectNotFound, RestrictedResource, RetriesExhausted, Unauthorized)
from lab.client.log import RequestLog, RequestRecord
from lab.client.pacing import BudgetAware, FixedRate, NoPacing, Pacer
from lab.client.pagination import (IncompleteListError, PaginationError, RowsRead, collect_paginated_api,
                                   iterate_paginated_api, query_every_row)
from lab.client.traversal import DEFAULT_MAX_DEPTH, WalkReport, walk_blocks
from lab.retry import RetryPolicy

__all__ = ["NotionClient", "InvalidObjectId", "InvalidRequest", "NotionAPIError", "NotionClientError",
           "NotionConnectionError", "ObjectNotFound", "RestrictedResource", "RetriesExhausted", "Unauthorized",
           "RequestLog", "RequestRecord", "BudgetAware", "FixedRate", "NoPacing", "Pacer", "PaginationError",
           "IncompleteListError", "collect_paginated_api", "iterate_paginated_api", "query_every_row", "RowsRead",
           "RetryPolicy", "WalkReport",
           "walk_blocks", "DEFAULT_MAX_DEPTH"]
