"""Which page a page hangs from, through the blocks between them, and what a malformed parent gets."""

from __future__ import annotations

import pytest

from lab.ingest.page_parents import ParentPages, has_block_parent
from lab.notion import MalformedPageError
from tests.notion_fixtures import make_client, make_simulator


@pytest.fixture
def parents() -> tuple[ParentPages, str, str]:
    sim = make_simulator()
    page = sim.workspace.page_id("ficha-rol")
    return ParentPages(make_client(sim)), page, sim.workspace.find_block(page, "¿Trazas?").id


def test_a_page_inside_a_toggle_hangs_from_the_page_that_holds_the_toggle(parents) -> None:
    find, page, toggle = parents
    assert find({"parent": {"type": "block_id", "block_id": toggle}}) == page
    assert find({"parent": {"type": "page_id", "page_id": page}}) == page
    assert find({"parent": None}) is find({}) is None


@pytest.mark.parametrize("parent", [{"type": "block_id"}, {"type": "block_id", "block_id": None},
                                    {"type": "block_id", "block_id": 5}, ["block_id"], "block_id"])
def test_a_parent_that_cannot_be_followed_is_a_malformed_page_not_a_key_error(parents, parent) -> None:
    find, _, _ = parents
    with pytest.raises(MalformedPageError, match="pass what GET /v1/pages/{id} or a query returns"):
        find({"parent": parent})
    with pytest.raises(MalformedPageError):
        has_block_parent({"parent": parent})


@pytest.mark.parametrize("page", [None, "page", ["parent"]])
def test_something_that_is_not_a_page_object_is_a_malformed_page(parents, page) -> None:
    find, _, _ = parents
    with pytest.raises(MalformedPageError, match="expected a Notion page or block object"):
        find(page)
