"""An integration sees only what is shared with it, by every route."""

from __future__ import annotations

from tests.notion_fixtures import call, data_source_id, make_simulator


def _all_ids(response) -> set[str]:
    return {item["id"] for item in response.body["results"]}


def test_a_private_page_is_not_found_by_every_route() -> None:
    sim = make_simulator()
    ws = sim.workspace
    recipe = ws.page_id("receta")
    first_block = ws.pages[recipe].children[0]
    for method, path in [("GET", f"/v1/pages/{recipe}"), ("GET", f"/v1/blocks/{recipe}"),
                         ("GET", f"/v1/blocks/{recipe}/children"), ("GET", f"/v1/blocks/{first_block}"),
                         ("GET", f"/v1/blocks/{first_block}/children")]:
        response = call(sim, method, path)
        assert response.status == 404 and response.body["code"] == "object_not_found", path
        assert "shared with your integration" in response.body["message"]
    assert recipe not in _all_ids(call(sim, "POST", "/v1/search", {"query": "Receta"}))
    assert recipe not in _all_ids(call(sim, "POST", f"/v1/data_sources/{data_source_id(sim)}/query", {}))


def test_unknown_and_unshared_ids_are_indistinguishable() -> None:
    sim = make_simulator()
    unknown = "00000000-0000-4000-8000-000000000000"
    a = call(sim, "GET", f"/v1/pages/{unknown}").body
    b = call(sim, "GET", f"/v1/pages/{sim.workspace.page_id('receta')}").body
    assert (a["status"], a["code"]) == (b["status"], b["code"]) == (404, "object_not_found")


def test_a_data_source_not_shared_is_not_found() -> None:
    sim = make_simulator()
    ds = data_source_id(sim)
    sim.workspace.unshare("indexador", ds)
    assert call(sim, "GET", f"/v1/data_sources/{ds}").status == 404
    assert call(sim, "POST", f"/v1/data_sources/{ds}/query", {}).status == 404
    assert call(sim, "GET", f"/v1/data_sources/{ds}", integration="lote").status == 200


def test_unsharing_a_page_takes_effect_at_once_for_it_and_its_blocks() -> None:
    sim = make_simulator()
    ws = sim.workspace
    page = ws.page_id("ficha-rol")
    block = ws.pages[page].children[0]
    assert call(sim, "GET", f"/v1/blocks/{block}").status == 200
    ws.unshare("indexador", page)
    assert call(sim, "GET", f"/v1/pages/{page}").status == 404
    assert call(sim, "GET", f"/v1/blocks/{block}").status == 404
    assert page not in _all_ids(call(sim, "POST", f"/v1/data_sources/{data_source_id(sim)}/query", {}))
    assert call(sim, "GET", f"/v1/pages/{page}", integration="lote").status == 200  # other connection unaffected
    ws.share("indexador", page)
    assert call(sim, "GET", f"/v1/pages/{page}").status == 200


def test_trashed_pages_leave_search_and_queries_but_stay_retrievable() -> None:
    sim = make_simulator()
    trashed = sim.workspace.page_id("en-papelera")
    assert trashed not in _all_ids(call(sim, "POST", "/v1/search", {}))
    assert trashed not in _all_ids(call(sim, "POST", f"/v1/data_sources/{data_source_id(sim)}/query", {}))
    page = call(sim, "GET", f"/v1/pages/{trashed}").body
    assert page["in_trash"] is True


def test_search_finds_titles_case_insensitively_and_sorts_newest_first() -> None:
    sim = make_simulator()
    results = call(sim, "POST", "/v1/search", {"query": "FICHA", "filter": {"property": "object", "value": "page"}})
    assert [r["properties"]["Nombre"]["title"][0]["plain_text"] for r in results.body["results"]] == [
        "Ficha: Rol de canela"]
    everything = call(sim, "POST", "/v1/search", {}).body["results"]
    stamps = [r["last_edited_time"] for r in everything]
    assert stamps == sorted(stamps, reverse=True)
    ascending = call(sim, "POST", "/v1/search", {"sort": {"timestamp": "last_edited_time", "direction": "ascending"}})
    assert [r["last_edited_time"] for r in ascending.body["results"]] == sorted(stamps)


def test_search_for_data_sources_finds_the_knowledge_base() -> None:
    sim = make_simulator()
    body = call(sim, "POST", "/v1/search", {"query": "base de", "filter": {"property": "object",
                                                                          "value": "data_source"}}).body
    assert [r["object"] for r in body["results"]] == ["data_source"]
    assert body["results"][0]["title"][0]["plain_text"] == "Base de conocimiento"
