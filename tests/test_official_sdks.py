"""The official Python SDK at both majors in use, pointed at the served simulator by base URL and token only.

notion-client 2.5.0 (the newest release of the oldest supported major that sends ``Notion-Version:
2022-06-28`` by default) runs from its own folder in a subprocess; notion-client 3.1.0 (the newest,
which sends 2025-09-03) runs here. Each makes the calls its users make (``lab.testing.sdk_reading``):
the database, its every row across cursors, search for tables and for pages, a page, its blocks
across cursors and a missing page; what each gets back is held against the bakery's workspace.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from lab.simulator import LimitsConfig
from lab.testing import ServedNotion
from lab.testing.sdk_reading import (OLDER_SDKS, PAGE_SIZE, SdkReading, read_database, read_in_subprocess,
                                     sdk_folder)

MAKEFILE = Path(__file__).resolve().parents[1] / "Makefile"  # where make pins the older SDK it installs
MISSING_ID = "00000000-0000-4000-8000-000000000000"
# Two whole readings on the wall clock, whatever the free plan's 180 requests a minute allow.
UNLIMITED = LimitsConfig(plan="enterprise", connection_budget=100_000, workspace_budget=100_000)
# The SDK, the Notion-Version it sends unless told otherwise, the query route it reads rows through.
SDKS = {"notion-client-2": ("2.5.0", "2022-06-28", "databases.query"),
        "notion-client-3": ("3.1.0", "2025-09-03", "data_sources.query")}


@pytest.fixture(scope="module")
def served() -> Iterator[ServedNotion]:
    with ServedNotion(None, limits=UNLIMITED, seed=28) as notion:
        yield notion


def knowledge_base(served: ServedNotion) -> tuple[str, str]:
    """The bakery's knowledge base: its data source's id and its database's id."""
    source = served.data_source_id("base-de-conocimiento")
    return source, served.workspace.data_sources[source].database_id


def rows_of(served: ServedNotion, source: str) -> dict[str, str]:
    """Page id -> title of the knowledge base's rows, as the workspace holds them."""
    return {page.id: page.title for page in served.workspace.pages.values()
            if page.parent_type == "data_source_id" and page.parent_id == source and not page.in_trash}


def longest_row(served: ServedNotion, source: str) -> str:
    """The row with the most top-level blocks: its listing takes several requests of PAGE_SIZE."""
    return max(rows_of(served, source), key=lambda page_id: len(served.workspace.children_of(page_id)))


@pytest.fixture(scope="module")
def readings(served: ServedNotion) -> dict[str, tuple[SdkReading, list[str]]]:
    """Each SDK's reading, and the routes of the requests it made (from the server's log)."""
    source, database = knowledge_base(served)
    page = longest_row(served, source)
    found = {}
    for name in SDKS:
        before = len(served.requests)
        if name in OLDER_SDKS:
            reading = read_in_subprocess(name, served.base_url, served.token, database, page, MISSING_ID)
        else:
            reading = read_database(served.base_url, served.token, database, page, MISSING_ID)
        found[name] = reading, [request.route for request in served.requests[before:]]
    return found


def test_the_older_sdk_is_the_release_the_makefile_pins_in_its_own_folder() -> None:
    pinned = re.search(r"^NOTION_CLIENT_2 := (\S+)$", MAKEFILE.read_text(encoding="utf-8"), re.M)
    assert pinned and OLDER_SDKS == {"notion-client-2": pinned[1]} and pinned[1] == SDKS["notion-client-2"][0]
    assert (sdk_folder("notion-client-2") / f"notion_client-{pinned[1]}.dist-info").is_dir()


@pytest.mark.parametrize("name", SDKS)
def test_each_sdk_sends_its_default_version_and_reads_every_row_of_the_database(served, readings, name) -> None:
    release, version, query = SDKS[name]
    reading, routes = readings[name]
    source, database = knowledge_base(served)
    assert (reading.package, reading.notion_version) == (f"notion-client {release}", version)
    assert reading.database_id == database
    assert reading.table_id == (database if version == "2022-06-28" else source)
    assert reading.property_names == sorted(served.workspace.data_sources[source].properties)
    expected = rows_of(served, source)
    assert reading.rows == expected and len(expected) > 40  # the 40 publishable rows and the drafts
    assert reading.row_parent_type == ("database_id" if version == "2022-06-28" else "data_source_id")
    assert routes.count(query) == math.ceil(len(expected) / PAGE_SIZE)  # collect_paginated_api took every cursor


@pytest.mark.parametrize("name", SDKS)
def test_each_sdk_searches_tables_and_pages(served, readings, name) -> None:
    reading, routes = readings[name]
    ws = served.workspace
    integration = ws.integrations[served.integration]
    visible = {page.id for page in ws.pages.values() if not page.in_trash and ws.can_see(integration, page.id)}
    assert reading.searched_tables == [reading.table_id]
    assert len(reading.searched_pages) == len(set(reading.searched_pages)) and set(reading.searched_pages) == visible
    assert routes.count("search") == 1 + math.ceil(len(visible) / PAGE_SIZE)


@pytest.mark.parametrize("name", SDKS)
def test_each_sdk_reads_a_page_and_every_block_across_cursors(served, readings, name) -> None:
    reading, routes = readings[name]
    source, database = knowledge_base(served)
    ws = served.workspace
    page = longest_row(served, source)
    assert reading.page_title == ws.pages[page].title
    assert reading.page_parent == ({"type": "database_id", "database_id": database} if name == "notion-client-2"
                                   else {"type": "data_source_id", "data_source_id": source, "database_id": database})
    children = [child for child in ws.children_of(page) if not ws.blocks[child].in_trash]
    assert len(children) > PAGE_SIZE and any(text for _, text in reading.blocks)
    assert reading.blocks == [[ws.blocks[child].type, ws.block_text(child)] for child in children]
    assert routes.count("blocks.children") == math.ceil(len(children) / PAGE_SIZE)


@pytest.mark.parametrize("name", SDKS)
def test_a_missing_page_reaches_each_sdk_as_its_api_response_error(readings, name) -> None:
    reading, routes = readings[name]
    assert reading.error == {"class": "notion_client.errors.APIResponseError", "status": 404,
                             "code": "object_not_found"}
    assert routes[-1] == "pages"
