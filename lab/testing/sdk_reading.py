"""A database read through the official Python SDK, as code in use reads one, whichever major is importable.

notion-client 2 (up to 2.5.0) sends ``Notion-Version: 2022-06-28`` by default and reads a database with
``databases.query``; notion-client 3 sends ``2025-09-03`` and reads its data source with
``data_sources.query``. :func:`read_database` makes the calls either major's users make, unchanged (the
client is built with ``auth`` and ``base_url`` only): ``databases.retrieve``, the query followed across
every cursor with the SDK's own ``helpers.collect_paginated_api``, ``search`` with the filter value
of tables and with ``"page"``, ``pages.retrieve``, ``blocks.children.list`` followed with
``helpers.iterate_paginated_api``, and one ``pages.retrieve`` of a page that does not exist, whose
error is kept. It returns what the SDK gave (:class:`SdkReading`), for a test to hold against the
served workspace.

One environment holds one release of a distribution, so an older major lives in a folder of its own
(``make`` installs notion-client 2 into ``.venv/sdks/notion-client-2`` with ``pip --target``) and runs
in a subprocess whose ``PYTHONPATH`` starts there: :func:`read_in_subprocess`, which runs this module
(``python -m lab.testing.sdk_reading BASE_URL TOKEN DATABASE_ID PAGE_ID MISSING_ID`` prints the
reading as JSON).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import asdict, dataclass
from importlib.metadata import version as installed_version
from pathlib import Path
from typing import Any

from lab.errors import LabError

__all__ = ["SdkReading", "OLDER_SDKS", "PAGE_SIZE", "sdk_folder", "read_database", "read_in_subprocess"]

#: The older majors of notion-client the lab's tests run, each in ``.venv/sdks/<folder>``: the newest
#: release of the oldest supported major that still defaults to ``Notion-Version 2022-06-28``
#: (2.6.0 and 2.7.0 default to 2025-09-03). The Makefile installs the same pin.
OLDER_SDKS: dict[str, str] = {"notion-client-2": "2.5.0"}

#: Results asked for per request, small enough that every listing read here takes several requests.
PAGE_SIZE = 7


@dataclass(frozen=True)
class SdkReading:
    """What one notion-client release gave for one database, one page and one missing page."""

    package: str  # "notion-client 2.5.0"
    notion_version: str  # the Notion-Version the client sends (its default)
    database_id: str  # what databases.retrieve answered with
    table_id: str  # what the query reads and search lists: the database (2022-06-28) or its data source
    property_names: list[str]  # the table's property schema (databases.retrieve, or data_sources.retrieve)
    rows: dict[str, str]  # page id -> title of every row, through the query, every cursor followed
    row_parent_type: str  # the type of a row's parent as the query gives it
    searched_tables: list[str]  # ids search lists under the filter value "database" or "data_source"
    searched_pages: list[str]  # ids search lists under the filter value "page", every cursor followed
    page_title: str  # pages.retrieve of PAGE_ID
    page_parent: dict[str, Any]
    blocks: list[list[str]]  # [type, plain text] of PAGE_ID's top-level blocks, PAGE_SIZE a request
    error: dict[str, Any]  # the exception pages.retrieve(MISSING_ID) raised: class, status, code


def _title(properties: dict[str, Any]) -> str:
    """The plain text of the title property of a row (whatever the property is named)."""
    [title] = [prop["title"] for prop in properties.values() if prop["type"] == "title"]
    return "".join(run["plain_text"] for run in title)


def _block_text(block: dict[str, Any]) -> str:
    content = block[block["type"]]
    return "".join(run["plain_text"] for run in content.get("rich_text", [])) if isinstance(content, dict) else ""


def read_database(base_url: str, token: str, database_id: str, page_id: str, missing_id: str) -> SdkReading:
    """Read a database, a page and its blocks with the importable ``notion_client``, at its default version."""
    from notion_client import APIResponseError, Client
    from notion_client.helpers import collect_paginated_api, iterate_paginated_api

    notion = Client(auth=token, base_url=base_url)
    notion_version = notion.options.notion_version
    database = notion.databases.retrieve(database_id=database_id)
    if "data_sources" in database:  # 2025-09-03 and later: the database holds data sources
        [source] = database["data_sources"]
        table_id, table_kind = source["id"], "data_source"
        schema = notion.data_sources.retrieve(data_source_id=table_id)["properties"]
        rows = collect_paginated_api(notion.data_sources.query, data_source_id=table_id, page_size=PAGE_SIZE)
    else:  # 2022-06-28: the database is its table
        table_id, table_kind, schema = database["id"], "database", database["properties"]
        rows = collect_paginated_api(notion.databases.query, database_id=table_id, page_size=PAGE_SIZE)
    tables = notion.search(filter={"property": "object", "value": table_kind})["results"]
    pages = collect_paginated_api(notion.search, filter={"property": "object", "value": "page"},
                                  page_size=PAGE_SIZE)
    page = notion.pages.retrieve(page_id=page_id)
    blocks = [[block["type"], _block_text(block)]
              for block in iterate_paginated_api(notion.blocks.children.list, block_id=page_id, page_size=PAGE_SIZE)]
    try:
        notion.pages.retrieve(page_id=missing_id)
        error: dict[str, Any] = {"class": None}
    except APIResponseError as exc:
        error = {"class": f"{type(exc).__module__}.{type(exc).__name__}", "status": exc.status,
                 "code": getattr(exc.code, "value", exc.code)}
    return SdkReading(package=f"notion-client {installed_version('notion-client')}", notion_version=notion_version,
                      database_id=database["id"], table_id=table_id, property_names=sorted(schema),
                      rows={row["id"]: _title(row["properties"]) for row in rows},
                      row_parent_type=rows[0]["parent"]["type"] if rows else "",
                      searched_tables=[table["id"] for table in tables],
                      searched_pages=[found["id"] for found in pages],
                      page_title=_title(page["properties"]), page_parent=page["parent"], blocks=blocks, error=error)


def sdk_folder(name: str) -> Path:
    """Where an older SDK of :data:`OLDER_SDKS` is installed: ``<environment>/sdks/<name>``."""
    return Path(sys.prefix) / "sdks" / name


def read_in_subprocess(name: str, base_url: str, token: str, database_id: str, page_id: str,
                       missing_id: str) -> SdkReading:
    """:func:`read_database` with the older SDK ``name`` of :data:`OLDER_SDKS`, in a Python of this
    environment whose ``PYTHONPATH`` starts at its folder (so its ``notion_client`` shadows the newest)."""
    folder = sdk_folder(name)
    if not (folder / "notion_client").is_dir():
        raise LabError(f"{name} is not installed in {folder}: run `make .venv/.test-installed`, or in another "
                       f"environment `python -m pip install --no-deps --target {folder} "
                       f"notion-client=={OLDER_SDKS[name]}`")
    paths = [str(folder), *filter(None, [os.environ.get("PYTHONPATH")])]
    run = subprocess.run([sys.executable, "-m", __name__, base_url, token, database_id, page_id, missing_id],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(paths)})
    if run.returncode != 0:
        raise LabError(f"reading with {name} failed (exit {run.returncode}):\n{run.stderr[-3000:]}")
    return SdkReading(**json.loads(run.stdout))


def main(argv: list[str] | None = None) -> None:
    """Print :func:`read_database`'s reading as JSON: ``BASE_URL TOKEN DATABASE_ID PAGE_ID MISSING_ID``."""
    base_url, token, database_id, page_id, missing_id = argv if argv is not None else sys.argv[1:]
    print(json.dumps(asdict(read_database(base_url, token, database_id, page_id, missing_id))))


if __name__ == "__main__":
    main()
