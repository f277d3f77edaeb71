"""The workspace spec format (docs/workspace-spec.md): the lab's workspaces and the documented example
pass the check, a spec someone writes builds with sensible defaults, and each mistake is named by
its path in the file with what would be right."""

from __future__ import annotations

import copy
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import pytest

from lab.clock import SimulatedClock
from lab.datasets import PACKAGE_DATA
from lab.datasets.scaled_bakery import scaled_bakery_spec
from lab.simulator import Workspace
from lab.simulator.objects import page_object
from lab.simulator.spec import WorkspaceSpecError, check_workspace_spec, load_workspace_spec

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "python" / "notion_workspace.json"


def minimal() -> dict[str, Any]:
    return {"name": "Mini", "users": [{"key": "ana", "name": "Ana"}],
            "pages": [{"key": "hello", "title": "Hello", "blocks": [{"type": "paragraph", "text": "Hi."}]}],
            "integrations": [{"key": "bot", "name": "Bot", "shares": [{"type": "page", "key": "hello"}]}]}


@pytest.mark.parametrize("path", [PACKAGE_DATA / "workspace" / "bakery.json",
                                  PACKAGE_DATA / "workspace" / "handbook.json", EXAMPLE], ids=lambda p: p.name)
def test_the_lab_workspaces_and_the_documented_example_are_valid_specs(path: Path) -> None:
    spec = load_workspace_spec(path)
    assert Workspace.from_spec(spec).pages


def test_a_scaled_bakery_is_a_valid_spec() -> None:
    check_workspace_spec(scaled_bakery_spec(200, distinct_words=30))


def test_a_minimal_spec_is_created_now_by_its_first_user() -> None:
    clock = SimulatedClock(datetime(2026, 5, 4, 3, 0, tzinfo=timezone.utc))
    clock.advance(125)
    ws = Workspace.from_spec(minimal(), clock)
    page = ws.page(ws.page_id("hello"))
    assert page.created == page.edited == "2026-05-04T03:02:00.000Z"  # built at 03:02:05: to the minute
    assert page.created_by == page.edited_by == ws.users["ana"].id
    block = ws.find_block(page.id, "Hi.")
    ws.edit_block_text(block.id, "Hello again.")  # an edit without a user is the first user's, not a lab name
    assert ws.blocks[block.id].edited_by == ws.users["ana"].id and set(ws.users) == {"ana"}
    assert page_object(ws, page, "2026-03-11")["properties"]["title"]["title"][0]["plain_text"] == "Hello"


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(spec: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = spec
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        target[int(last) if last.isdigit() else last] = value
    return change


def _example() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


MISTAKES = [
    ("a misspelt field", _set("pages.0.titel", "x"), "pages[0]: unknown ['titel']"),
    ("a missing title", lambda s: s["pages"][0].pop("title"), "pages[0]: missing ['title']"),
    ("no users", _set("users", []), "users: should be a list of objects with at least one"),
    ("an unknown block type", _set("pages.0.blocks.0.type", "heading_4"), "pages[0].blocks[0].type: 'heading_4' is "
                                                                          "not a block type"),
    ("a nested block mistake", _set("pages.0.blocks.5.children.0.txt", "x"),
     "pages[0].blocks[5].children[0]: unknown ['txt']"),
    ("a date Notion would not write", _set("pages.0.edited", "2026-03-02"), "pages[0].edited: should be a UTC time "
                                                                            "to the minute"),
    ("an edit before the creation", _set("pages.0.edited", "2025-01-01T00:00:00.000Z"), "is before created"),
    ("an unknown author", _set("pages.1.created_by", "tomas"), "pages[1].created_by: 'tomas' is not a user key"),
    ("a row of a missing data source", _set("pages.0.parent.key", "helpdesk"),
     "pages[0].parent.key: no data source has the key 'helpdesk'"),
    ("a select value that is not an option", _set("pages.0.type", "refunds"),
     "pages[0].type: 'refunds' is not an option"),
    ("a property type the simulator does not serve", _set("data_sources.0.properties.Owner", {"type": "people"}),
     "is not served; a data source has one title"),
    ("a second checkbox", _set("data_sources.0.properties.Reviewed", {"type": "checkbox"}), "a second checkbox"),
    ("a sub-page its parent does not show", lambda s: s["pages"][1]["blocks"].pop(2),
     "pages[2].parent: sub-page 'invoice-corrections' is not shown in page 'invoices'"),
    ("a reference to a missing synced block", _set("pages.4.blocks.0", {"type": "synced_block", "synced_from": "x"}),
     "pages[4].blocks[0].synced_from: no synced block has the key 'x'"),
    ("a share of a missing page", _set("integrations.1.shares.0.key", "salary"),
     "integrations[1].shares[0].key: no page has the key 'salary'"),
    ("an unknown capability", _set("integrations.0.capabilities", ["read"]), "integrations[0].capabilities"),
    ("a ragged table", _set("pages.1.blocks.1.rows", [["a", "b"], ["c"]]), "rows of equal width"),
    ("a duplicate page key", lambda s: s["pages"].append(copy.deepcopy(s["pages"][3])),
     "pages[7].key: 'password-reset' is used twice"),
    ("a day that does not exist", _set("pages.0.created", "2026-02-30T10:00:00.000Z"),
     "pages[0].created: should be a UTC time to the minute"),
    ("an hour that does not exist", _set("pages.0.edited", "2026-03-02T25:00:00.000Z"),
     "pages[0].edited: should be a UTC time to the minute"),
    ("a list for a block type", _set("pages.0.blocks.0.type", ["paragraph"]), "pages[0].blocks[0].type: "
                                                                                "[\"paragraph\"] is not a block type"),
    ("a list for a parent's key", _set("pages.2.parent.key", ["invoices"]), "so its parent should be"),
    ("a list for a share's key", _set("integrations.1.shares.0.key", ["x"]), "integrations[1].shares[0].key: should "
                                                                             "be a non-empty string"),
]


@pytest.mark.parametrize("change, expected", [m[1:] for m in MISTAKES], ids=[m[0] for m in MISTAKES])
def test_a_mistake_is_named_by_its_path_and_says_what_would_be_right(change: Callable[[dict[str, Any]], None],
                                                                    expected: str) -> None:
    spec = _example()
    change(spec)
    with pytest.raises(WorkspaceSpecError) as error:
        check_workspace_spec(spec)
    assert expected in str(error.value) and "docs/workspace-spec.md" in str(error.value)


@pytest.mark.slow
def test_a_file_that_is_not_json_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "mine.json"
    bad.write_text('{"name": "x",}', encoding="utf-8")
    with pytest.raises(WorkspaceSpecError, match="mine.json: not UTF-8 JSON"):
        load_workspace_spec(bad)
    with pytest.raises(WorkspaceSpecError, match="no workspace spec at .*missing.json"):
        load_workspace_spec(tmp_path / "missing.json")
    spec = _example()
    spec["pages"][0]["blocks"][0]["type"] = "header"
    bad.write_text(json.dumps(spec), encoding="utf-8")
    with pytest.raises(WorkspaceSpecError, match=r"mine.json: pages\[0\].blocks\[0\].type"):
        load_workspace_spec(bad)


def test_blocks_nested_a_thousand_deep_are_one_line_not_a_recursion_error(tmp_path: Path) -> None:
    spec = _example()
    block: dict[str, Any] = {"type": "toggle", "text": "deep"}
    spec["pages"][0]["blocks"].append(block)
    for _ in range(1_200):
        block["children"] = [{"type": "toggle", "text": "deeper"}]
        block = block["children"][0]
    with pytest.raises(WorkspaceSpecError, match="nested deeper"):
        check_workspace_spec(spec)
    deep = tmp_path / "deep.json"
    deep.write_text('{"name": "x", "pages": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    with pytest.raises(WorkspaceSpecError, match="deep.json: nested deeper"):
        load_workspace_spec(deep)
