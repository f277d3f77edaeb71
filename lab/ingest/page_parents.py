"""The page a page hangs from: its parent page, or the page that holds the block it sits in.

Notion names a page's parent as it is. A sub-page made at the top level of a page has a
``page_id`` parent; one made inside a toggle, a column or a callout has a ``block_id`` parent,
the block it sits in. Both are sub-pages of the page that holds them (the indexer finds both as
``child_page`` blocks, at any depth), so the audit and the sub-page discovery ask one question:
which page does this page hang from? A block parent is answered by retrieving the block
(``blocks.retrieve``) and following its parent up to a page: one request per block on the way,
made only for pages with a block parent, and each block retrieved once per :class:`ParentPages`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lab.client import NotionClient, ObjectNotFound
from lab.notion import MalformedPageError

__all__ = ["ParentPages", "has_block_parent"]


def has_block_parent(page: Mapping[str, Any]) -> bool:
    """Whether ``page`` sits inside a block of another page (finding that page costs requests)."""
    return _parent(page).get("type") == "block_id"


def _parent(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    """The ``parent`` of a page or block object (``{}`` when it has none), checked enough to be followed."""
    if not isinstance(obj, Mapping):
        raise MalformedPageError(f"expected a Notion page or block object (a dict), got {type(obj).__name__}; pass "
                                 "what GET /v1/pages/{id} or a query returns")
    parent = {} if obj.get("parent") is None else obj["parent"]
    if not isinstance(parent, Mapping) or (parent.get("type") == "block_id"
                                           and not isinstance(parent.get("block_id"), str)):
        raise MalformedPageError(f"expected a Notion object whose parent is {{'type': ..., '<type>': id}}, got "
                                 f"parent={parent!r:.100}; pass what GET /v1/pages/{{id}} or a query returns")
    return parent


class ParentPages:
    """Which page each page hangs from, through the blocks between them (read with ``client``)."""

    def __init__(self, client: NotionClient) -> None:
        self.client = client
        self._above: dict[str, Mapping[str, Any]] = {}  # block id -> its parent ({} if it cannot be read)

    def __call__(self, page: Mapping[str, Any]) -> str | None:
        """The id of the page ``page`` hangs from; ``None`` for a row of a data source, a page at
        the top of the workspace, or a page inside a block the integration cannot read or that is
        in the trash."""
        parent = _parent(page)
        seen: set[str] = set()
        while parent.get("type") == "block_id" and parent["block_id"] not in seen:
            block_id = parent["block_id"]
            seen.add(block_id)
            if block_id not in self._above:
                self._above[block_id] = self._parent_of_block(block_id)
            parent = self._above[block_id]
        return parent.get("page_id") if parent.get("type") == "page_id" else None

    def _parent_of_block(self, block_id: str) -> Mapping[str, Any]:
        try:
            block = self.client.blocks.retrieve(block_id)
        except ObjectNotFound:  # the block's page is not shared with the integration
            return {}
        # a block in the trash no longer shows what it held: no page's content holds the page
        return {} if block.get("in_trash") else _parent(block)
