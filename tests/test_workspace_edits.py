"""The simulator's edits stamp ``last_edited_time`` where Notion does, and nowhere else."""

from __future__ import annotations

import pytest

from lab.client import NoPacing, NotionClient, ObjectNotFound, collect_paginated_api
from lab.clock import SimulatedClock
from lab.simulator import NotionSimulator, Workspace, WorkspaceError, in_process_session
from lab.simulator.inventory import page_status

STAMP_0 = "2026-04-01T10:00:00.000Z"


def small_workspace() -> Workspace:
    """A data source with one publishable page that holds a sub-page, and an integration that sees it."""
    spec = {
        "name": "Edits",
        "data_sources": [{"key": "kb", "title": "KB", "created": STAMP_0,
                          "properties": {"Nombre": {"type": "title"}, "Publicable": {"type": "checkbox"}}}],
        "pages": [
            {"key": "policy", "title": "Policy", "parent": {"type": "data_source", "key": "kb"},
             "publishable": True, "created": STAMP_0,
             "blocks": [{"type": "heading_2", "text": "Rules"}, {"type": "paragraph", "text": "Rule one."},
                        {"type": "toggle", "text": "Details", "children": [{"type": "paragraph", "text": "Small."}]},
                        {"type": "child_page", "page": "cases", "text": "Cases"}]},
            {"key": "cases", "title": "Cases", "parent": {"type": "page", "key": "policy"}, "created": STAMP_0,
             "blocks": [{"type": "paragraph", "text": "Case one."}]},
        ],
        "integrations": [{"key": "kb", "name": "KB", "shares": [{"type": "data_source", "key": "kb"}]}],
    }
    return Workspace.from_spec(spec, SimulatedClock())


def client_for(ws: Workspace) -> NotionClient:
    sim = NotionSimulator(ws)
    return NotionClient(sim.token_for("kb"), session=in_process_session(sim), clock=sim.clock, pacer=NoPacing())


def test_editing_a_sub_page_stamps_the_sub_page_and_not_its_parent() -> None:
    ws = small_workspace()
    policy, cases = ws.page_id("policy"), ws.page_id("cases")
    ws.clock.set(600)
    ws.edit_block_text(ws.find_block(cases, "Case one").id, "Case one, revised.")
    assert ws.pages[cases].edited == "2026-04-09T16:10:00.000Z"
    assert ws.pages[policy].edited == STAMP_0


def test_adding_a_sub_page_puts_its_block_at_the_end_of_the_parent_and_stamps_both() -> None:
    ws = small_workspace()
    policy = ws.page_id("policy")
    ws.clock.set(120)
    page = ws.add_child_page(policy, {"key": "more", "title": "More cases",
                                      "blocks": [{"type": "paragraph", "text": "Another."}]})
    children = collect_paginated_api(client_for(ws).blocks.children.list, block_id=policy)
    assert children[-1]["type"] == "child_page" and children[-1]["id"] == page.id
    assert children[-1]["child_page"] == {"title": "More cases"}
    assert ws.pages[policy].edited == ws.pages[page.id].edited == "2026-04-09T16:02:00.000Z"


def test_a_deleted_block_leaves_the_children_list_with_everything_under_it_and_its_page_is_edited() -> None:
    ws = small_workspace()
    policy = ws.page_id("policy")
    toggle = ws.find_block(policy, "Details")
    ws.clock.set(180)
    ws.delete_block(toggle.id)
    client = client_for(ws)
    listed = collect_paginated_api(client.blocks.children.list, block_id=policy)
    assert toggle.id not in {block["id"] for block in listed}
    assert client.blocks.retrieve(toggle.id)["in_trash"] is True  # still retrievable, as in Notion
    assert ws.pages[policy].edited == "2026-04-09T16:03:00.000Z"


def test_deleting_a_child_page_block_trashes_the_sub_page_and_restoring_it_brings_the_block_back() -> None:
    ws = small_workspace()
    policy, cases = ws.page_id("policy"), ws.page_id("cases")
    client = client_for(ws)
    ws.clock.set(240)
    ws.delete_block(cases)
    assert ws.pages[cases].in_trash and ws.pages[policy].edited == "2026-04-09T16:04:00.000Z"
    assert cases not in {b["id"] for b in collect_paginated_api(client.blocks.children.list, block_id=policy)}
    assert cases not in {p["id"] for p in collect_paginated_api(client.search, query="Cases")}
    ws.clock.set(300)
    ws.restore(cases)
    assert cases in {b["id"] for b in collect_paginated_api(client.blocks.children.list, block_id=policy)}
    assert ws.pages[policy].edited == ws.pages[cases].edited == "2026-04-09T16:05:00.000Z"


def test_unsharing_a_sub_page_hides_it_without_stamping_anything() -> None:
    ws = small_workspace()
    policy, cases = ws.page_id("policy"), ws.page_id("cases")
    ws.unshare("kb", cases)
    client = client_for(ws)
    with pytest.raises(ObjectNotFound):
        client.pages.retrieve(cases)
    assert ws.pages[policy].edited == ws.pages[cases].edited == STAMP_0
    ws.share("kb", cases)
    assert client.pages.retrieve(cases)["last_edited_time"] == STAMP_0


def test_renaming_a_sub_page_stamps_it_and_its_parent_whose_block_shows_the_new_title() -> None:
    ws = small_workspace()
    policy, cases = ws.page_id("policy"), ws.page_id("cases")
    ws.clock.set(360)
    ws.rename(cases, "Special cases")
    children = collect_paginated_api(client_for(ws).blocks.children.list, block_id=policy)
    assert children[-1]["child_page"] == {"title": "Special cases"}
    assert ws.pages[policy].edited == ws.pages[cases].edited == "2026-04-09T16:06:00.000Z"


# ---------------------------------------------------------------------- sub-pages inside blocks

def test_a_sub_page_made_inside_a_toggle_has_the_toggle_as_parent_and_its_block_sits_under_the_toggle() -> None:
    ws = small_workspace()
    policy, toggle = ws.page_id("policy"), ws.find_block(ws.page_id("policy"), "Details").id
    ws.clock.set(120)
    page = ws.add_child_page(policy, {"key": "notes", "title": "Notes",
                                      "blocks": [{"type": "paragraph", "text": "Inside."}]}, inside_block=toggle)
    client = client_for(ws)
    expected = {"type": "block_id", "block_id": toggle}
    assert client.pages.retrieve(page.id)["parent"] == expected == client.blocks.retrieve(page.id)["parent"]
    under_toggle = collect_paginated_api(client.blocks.children.list, block_id=toggle)
    assert under_toggle[-1]["id"] == page.id and under_toggle[-1]["child_page"] == {"title": "Notes"}
    assert page.id not in {b["id"] for b in collect_paginated_api(client.blocks.children.list, block_id=policy)}
    assert client.blocks.retrieve(toggle)["parent"] == {"type": "page_id", "page_id": policy}
    assert ws.pages[policy].edited == ws.pages[page.id].edited == "2026-04-09T16:02:00.000Z"


def test_trashing_restoring_and_renaming_a_sub_page_inside_a_toggle_edits_the_page_that_holds_the_toggle() -> None:
    ws = small_workspace()
    policy, toggle = ws.page_id("policy"), ws.find_block(ws.page_id("policy"), "Details").id
    page = ws.add_child_page(policy, {"key": "notes", "title": "Notes"}, inside_block=toggle)
    client = client_for(ws)
    for minute, edit in ((2, ws.move_to_trash), (3, ws.restore), (4, lambda p: ws.rename(p, "Notas"))):
        ws.clock.set(60 * minute)
        edit(page.id)
        assert ws.pages[policy].edited == ws.pages[page.id].edited == f"2026-04-09T16:0{minute}:00.000Z"
        listed = collect_paginated_api(client.blocks.children.list, block_id=toggle)
        assert [b["child_page"]["title"] for b in listed if b["type"] == "child_page"] == \
            ([] if ws.pages[page.id].in_trash else [ws.pages[page.id].title])


def test_a_spec_whose_child_page_block_sits_in_a_toggle_gives_the_sub_page_the_toggle_as_parent() -> None:
    spec = {"name": "Nested", "pages": [
        {"key": "host", "title": "Host", "created": STAMP_0,
         "blocks": [{"type": "toggle", "text": "More", "children": [{"type": "child_page", "page": "inner"}]}]},
        {"key": "inner", "title": "Inner", "parent": {"type": "page", "key": "host"}, "created": STAMP_0}],
        "integrations": [{"key": "kb", "name": "KB", "shares": [{"type": "page", "key": "host"}]}]}
    ws = Workspace.from_spec(spec, SimulatedClock())
    inner, toggle = ws.pages[ws.page_id("inner")], ws.find_block(ws.page_id("host"), "More")
    assert (inner.parent_type, inner.parent_id) == ("block_id", toggle.id)
    assert client_for(ws).pages.retrieve(inner.id)["parent"] == {"type": "block_id", "block_id": toggle.id}


def test_a_sub_page_inside_a_toggle_is_hidden_with_the_page_that_holds_the_toggle() -> None:
    ws = small_workspace()
    policy, toggle = ws.page_id("policy"), ws.find_block(ws.page_id("policy"), "Details").id
    page = ws.add_child_page(policy, {"key": "notes", "title": "Notes"}, inside_block=toggle)
    ws.unshare("kb", policy)
    with pytest.raises(ObjectNotFound):
        client_for(ws).pages.retrieve(page.id)


def test_a_sub_page_goes_only_inside_a_block_of_its_page_that_nests_blocks() -> None:
    ws = small_workspace()
    policy, cases = ws.page_id("policy"), ws.page_id("cases")
    with pytest.raises(WorkspaceError, match="is not a block of page 'Cases'"):
        ws.add_child_page(cases, {"key": "x", "title": "X"}, inside_block=ws.find_block(policy, "Details").id)
    ws.add_page({"key": "table-host", "title": "T", "parent": {"type": "workspace"},
                 "blocks": [{"type": "code", "text": "print(1)"}]})
    code = ws.find_block(ws.page_id("table-host"), "print(1)").id
    with pytest.raises(WorkspaceError, match="cannot hold a sub-page"):
        ws.add_child_page(ws.page_id("table-host"), {"key": "y", "title": "Y"}, inside_block=code)
    with pytest.raises(WorkspaceError, match="cannot hold a sub-page"):
        ws.add_child_page(policy, {"key": "z", "title": "Z"}, inside_block=ws.find_block(policy, "Rules").id)
    assert not {"x", "y", "z"} & {p.key for p in ws.pages.values()}


def test_deleting_a_toggle_that_holds_a_sub_page_trashes_the_sub_page_too() -> None:
    ws = small_workspace()
    policy, toggle = ws.page_id("policy"), ws.find_block(ws.page_id("policy"), "Details").id
    page = ws.add_child_page(policy, {"key": "notes", "title": "Notes"}, inside_block=toggle)
    ws.clock.set(180)
    ws.delete_block(toggle)
    assert ws.pages[page.id].in_trash and ws.blocks[toggle].in_trash
    assert page.id not in {p["id"] for p in collect_paginated_api(client_for(ws).search, query="Notes")}
    assert ws.pages[policy].edited == ws.pages[page.id].edited == "2026-04-09T16:03:00.000Z"


def test_the_inventory_calls_a_sub_page_of_a_publishable_row_publishable_wherever_it_sits() -> None:
    ws = small_workspace()
    policy, toggle = ws.page_id("policy"), ws.find_block(ws.page_id("policy"), "Details").id
    notes = ws.add_child_page(policy, {"key": "notes", "title": "Notes"}, inside_block=toggle)
    statuses = {page: page_status(ws, ws.page_id(page), "kb") for page in ("policy", "cases", "notes")}
    assert statuses == {"policy": "publishable", "cases": "publishable", "notes": "publishable"}
    ws.set_publishable(policy, False)
    assert {page_status(ws, page_id, "kb") for page_id in (policy, ws.page_id("cases"), notes.id)} == {"draft"}


@pytest.mark.parametrize("edit", [
    lambda ws: ws.add_child_page("nope", {"key": "x", "title": "X"}),
    lambda ws: ws.add_child_page(None, {"key": "x", "title": "X"}, inside_block=ws.find_block(ws.page_id("policy"),
                                                                                              "Details").id),
    lambda ws: ws.delete_block("nope"),
    lambda ws: ws.delete_block(ws.page_id("policy")),  # a page is not a block of another page
    lambda ws: ws.edit_block_text("nope", "x"),
    lambda ws: ws.rename("nope", "x"),
    lambda ws: ws.set_publishable("nope", True),
    lambda ws: ws.move_to_trash(None),
    lambda ws: ws.restore("nope"),
    lambda ws: ws.find_block("nope", "x"),
    lambda ws: ws.block_text("nope"),
])
def test_an_edit_of_an_id_the_workspace_does_not_hold_says_how_to_find_one(edit) -> None:
    ws = small_workspace()
    before = ws.clock.now(), {p.id: p.edited for p in ws.pages.values()}
    with pytest.raises(WorkspaceError, match=r"no (page|block) has the id .*; get one with"):
        edit(ws)
    assert (ws.clock.now(), {p.id: p.edited for p in ws.pages.values()}) == before


def test_a_block_in_the_trash_cannot_be_edited_as_in_notion() -> None:
    ws = small_workspace()
    rule = ws.find_block(ws.page_id("policy"), "Rule one.").id
    ws.delete_block(rule)
    with pytest.raises(WorkspaceError, match="is in the trash and cannot be edited"):
        ws.edit_block_text(rule, "Rule two.")
    assert ws.block_text(rule) == "Rule one."


@pytest.mark.parametrize("spec, problem", [
    ({"title": "No key"}, "str 'key' and 'title'"),
    ({"key": "no-title"}, "str 'key' and 'title'"),
    ("a title", "str 'key' and 'title'"),
    ({"key": "k", "title": "T", "parent": "policy"}, "parent should be a dict"),
    ({"key": "k", "title": "T", "parent": {}}, "parent should be a dict"),
    ({"key": "k", "title": "T", "parent": {"type": "page", "key": "nope"}}, "unknown page key 'nope'"),
    ({"key": "k", "title": "T", "blocks": "Some text."}, "blocks and their children should be lists of block dicts"),
    ({"key": "k", "title": "T", "blocks": [{"type": "toggle", "text": "More", "children": ["Hidden text."]}]},
     "blocks and their children should be lists of block dicts"),
    ({"key": "k", "title": "T", "blocks": [{"type": "paragraph", "text": "ok"},
                                           {"type": "column_list", "columns": [[42]]}]},
     "blocks and their children should be lists of block dicts"),
    ({"key": "k", "title": "T", "blocks": [{"type": "paragraph", "text": "ok"}, {"type": "nope"}]},
     "unknown or non-top-level block type"),
])
def test_a_page_spec_that_does_not_make_sense_is_refused_and_leaves_no_half_made_page(spec, problem) -> None:
    ws = small_workspace()
    pages, blocks = dict(ws.pages), dict(ws.blocks)
    with pytest.raises(WorkspaceError, match=problem):
        ws.add_page(spec)
    assert (ws.pages, ws.blocks) == (pages, blocks)
    assert "k" not in {p.key for p in ws.pages.values()}
    ws.add_page({"key": "k", "title": "T"})  # the key is still free


def test_a_refused_page_leaves_no_synced_original_behind_for_later_pages_to_show() -> None:
    ws = small_workspace()
    with pytest.raises(WorkspaceError):
        ws.add_page({"key": "k", "title": "T", "blocks": [
            {"type": "synced_block", "key": "s1", "children": [{"type": "paragraph", "text": "Shared."}]},
            {"type": "nope"}]})
    with pytest.raises(WorkspaceError, match="unknown original 's1'"):
        ws.add_page({"key": "k2", "title": "T2", "blocks": [{"type": "synced_block", "synced_from": "s1"}]})


def test_a_text_or_title_that_is_not_text_is_refused_and_nothing_is_stamped() -> None:
    ws = small_workspace()
    page = ws.page_id("cases")
    block = ws.find_block(page, "Case one.")
    before = (ws.pages[page].edited, ws.block_text(block.id), ws.pages[page].title)
    with pytest.raises(WorkspaceError, match="to empty a block, pass ''"):
        ws.edit_block_text(block.id, None)
    with pytest.raises(WorkspaceError, match="a page title is a str, not int"):
        ws.rename(page, 5)
    assert (ws.pages[page].edited, ws.block_text(block.id), ws.pages[page].title) == before
