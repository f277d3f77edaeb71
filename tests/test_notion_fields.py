"""Every object the simulator serves carries exactly the fields Notion returns, version by version.

The contract is data: ``tests/data/notion_fields.json`` lists, per object kind and
``Notion-Version``, the field names and JSON types of real Notion responses. A crawl of a small
workspace that holds every block type the lab uses (a child page and a child database
included) visits every read endpoint and every error, sorts each object it meets into its
kind, and each test case compares one kind with the contract, so a missing field fails with
its name.

Notion-Version 2022-06-28 has no such contract, only older recordings: ``tests/data/notion_fields_2022_06_28.json``
names the fields of real responses recorded with it in December 2024. The same crawl through that
version's routes (the database and its query) must serve every one of them, and any field more only
where the file says which later evidence it comes from.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterator

import pytest

from lab.simulator import LimitsConfig, NotionSimulator, Workspace
from lab.simulator.objects import MAX_FILE_UPLOAD_BYTES, workspace_id
from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator
from tests.notion_fixtures import call, data_source_id, make_simulator, small_spec

CONTRACT = json.loads((Path(__file__).parent / "data" / "notion_fields.json").read_text(encoding="utf-8"))
KINDS: dict[str, dict[str, Any]] = CONTRACT["kinds"]
VERSIONS: list[str] = CONTRACT["versions"]
MISSING_ID = "00000000-0000-4000-8000-000000000000"
OLD = "2022-06-28"
JSON_TYPES = {"string": str, "number": (int, float), "boolean": bool, "object": dict, "array": list,
              "null": type(None)}


def expected_fields(kind: str, version: str) -> dict[str, str] | None:
    """Field name -> JSON type of ``kind`` in ``version``; None when the kind does not exist there."""
    entry = KINDS[kind]
    if version not in entry.get("versions", VERSIONS):
        return None
    fields = {}
    for name, rule in entry["fields"].items():
        rule = rule if isinstance(rule, dict) else {"type": rule}
        if version in rule.get("versions", VERSIONS):
            fields[name] = rule["type"]
    return fields


def has_json_type(value: Any, allowed: str) -> bool:
    if isinstance(value, bool):  # a bool is an int to Python, never a number to JSON
        return "boolean" in allowed.split("|")
    return any(isinstance(value, JSON_TYPES[name]) for name in allowed.split("|"))


# ---------------------------------------------------------------------- the workspace and its crawl

EVERY_BLOCK_TYPE = [
    {"type": "heading_1", "text": "Catálogo"},
    {"type": "heading_3", "text": "Detalle"},
    {"type": "paragraph", "text": "Todo lo que horneamos."},
    {"type": "bulleted_list_item", "text": "Pan dulce"},
    {"type": "numbered_list_item", "text": "Primero"},
    {"type": "to_do", "text": "Revisar precios", "checked": True},
    {"type": "quote", "text": "El pan se hace despacio."},
    {"type": "code", "text": "precio = 28", "language": "python"},
    {"type": "divider"},
    {"type": "table", "rows": [["Pieza", "Precio"], ["Concha", "18"]]},
    {"type": "column_list", "columns": [[{"type": "paragraph", "text": "Izquierda"}],
                                        [{"type": "paragraph", "text": "Derecha"}]]},
    {"type": "image", "url": "https://example.com/concha.png", "caption": "Una concha"},
    {"type": "bookmark", "url": "https://example.com/", "caption": "Sitio"},
    {"type": "equation", "expression": "t = R / r"},
    {"type": "child_page", "page": "sub-masa-madre"},
    {"type": "child_database", "text": "Pedidos de temporada"},
]


def every_kind_spec() -> dict[str, Any]:
    """The small test workspace plus a catalogue row holding every block type and a sub-page, and a
    shared page at the top of the workspace."""
    spec = small_spec(long_children=3)
    stamp = {"created": "2026-02-10T10:00:00.000Z", "edited": "2026-03-10T10:00:00.000Z"}
    spec["pages"] += [
        {"key": "catalogo", "title": "Ficha: catálogo", "type": "ficha", "publishable": True,
         "parent": {"type": "data_source", "key": "kb"}, "blocks": EVERY_BLOCK_TYPE, **stamp},
        {"key": "sub-masa-madre", "title": "Masa madre, paso a paso", "parent": {"type": "page", "key": "catalogo"},
         "created": "2026-02-12T08:00:00.000Z", "edited": "2026-02-20T09:00:00.000Z",
         "blocks": [{"type": "paragraph", "text": "Alimentar la masa cada 12 horas."}]},
        {"key": "tablero", "title": "Tablero del obrador", "parent": {"type": "workspace"}, **stamp},
    ]
    spec["integrations"][0]["shares"].append({"type": "page", "key": "tablero"})
    return spec


def _rich_text(runs: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    for run in runs:
        yield f"rich_text[{run['type']}]", run
        yield f"rich_text[{run['type']}].{run['type']}", run[run["type"]]
        yield "rich_text.annotations", run["annotations"]


def _users(obj: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for key in ("created_by", "last_edited_by"):
        if key in obj:
            yield "partial_user", obj[key]


def _parent(obj: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    parent = obj["parent"]
    owner = "block" if parent["type"] == "block_id" else "page"
    return f"{owner}.parent[{parent['type']}]", parent


def _page(page: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield "page", page
    yield _parent(page)
    yield from _users(page)
    for prop in page["properties"].values():
        yield f"page.property[{prop['type']}]", prop
        if prop["type"] == "select" and prop["select"] is not None:
            yield "page.property[select].select", prop["select"]
        if prop["type"] == "title":
            yield from _rich_text(prop["title"])


def _block(block: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield "block", {k: v for k, v in block.items() if k != block["type"]}
    yield _parent(block)
    yield from _users(block)
    content = block[block["type"]]
    variant = f"[{content['type']}]" if block["type"] == "image" else ""
    yield f"block.{block['type']}{variant}", content
    for key in ("rich_text", "caption", "title"):
        if isinstance(content.get(key), list):
            yield from _rich_text(content[key])
    for cell in content.get("cells", []):
        yield from _rich_text(cell)


def _data_source(ds: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    yield "data_source", ds
    yield "data_source.parent", ds["parent"]
    yield f"data_source.database_parent[{ds['database_parent']['type']}]", ds["database_parent"]
    yield from _users(ds)
    yield from _rich_text(ds["title"])
    for schema in ds["properties"].values():
        yield "data_source.property_schema", {k: v for k, v in schema.items() if k != schema["type"]}
        for option in schema.get("select", {}).get("options", []):
            yield "data_source.property_schema[select].options[]", option


def _database(db: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """A database as 2022-06-28 serves it: the table itself, with its property schema."""
    yield "database", db
    yield f"database.parent[{db['parent']['type']}]", db["parent"]
    yield from _users(db)
    yield from _rich_text(db["title"])
    for schema in db["properties"].values():
        yield "database.property_schema", {k: v for k, v in schema.items() if k != schema["type"]}


def _result(obj: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    kinds = {"page": _page, "block": _block, "data_source": _data_source, "database": _database}
    yield from kinds[obj["object"]](obj)


def _error(body: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    kind = f"error[{body['code']}]" if "additional_data" in body or body["code"] == "object_not_found" else "error"
    yield kind, body
    if "additional_data" in body:
        yield f"{kind}.additional_data", body["additional_data"]


class Crawl:
    """Every object met while reading a simulator in one version, sorted into its contract kind."""

    def __init__(self, version: str) -> None:
        self.version = version
        self.found: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.without_request_id: list[str] = []

    def add(self, pairs: Iterator[tuple[str, dict[str, Any]]]) -> None:
        for kind, obj in pairs:
            self.found[kind].append(obj)

    def get(self, sim: NotionSimulator, method: str, path: str, body: Any = None, **kwargs: Any) -> dict[str, Any]:
        response = call(sim, method, path, body, version=self.version, **kwargs)
        if not isinstance(response.body.get("request_id"), str):
            self.without_request_id.append(f"{method} {path}")
        if response.status != 200:
            self.add(_error(response.body))
        if response.body.get("object") in ("list", "error"):
            return response.body
        # An object read on its own carries the response's request_id; the same object in a list does not.
        return {k: v for k, v in response.body.items() if k != "request_id"}

    def listing(self, sim: NotionSimulator, kind: str, method: str, path: str, body: Any = None) -> list[dict]:
        page = self.get(sim, method, path, body)
        self.found[kind].append(page)
        for result in page["results"]:
            self.add(_result(result))
        return page["results"]

    def run(self) -> "Crawl":
        sim = NotionSimulator(Workspace.from_spec(every_kind_spec()), seed=5)
        ds = data_source_id(sim)
        self.listing(sim, "list[search]", "POST", "/v1/search", {})
        self.listing(sim, "list[data_source_query]", "POST", f"/v1/data_sources/{ds}/query", {})
        self.add(_data_source(self.get(sim, "GET", f"/v1/data_sources/{ds}")))
        self._pages_blocks_and_bot(sim)
        self._errors(sim, ds)
        return self

    def _pages_blocks_and_bot(self, sim: NotionSimulator) -> None:
        indexer = sim.workspace.integrations["indexador"]
        for page_id in sim.workspace.pages:
            if sim.workspace.can_see(indexer, page_id):
                self.add(_page(self.get(sim, "GET", f"/v1/pages/{page_id}")))
                self.add(_block(self.get(sim, "GET", f"/v1/blocks/{page_id}")))
                self._children(sim, page_id)
        bot = self.get(sim, "GET", "/v1/users/me")
        self.add([("user[bot]", bot), ("user[bot].bot", bot["bot"]),
                  (f"user[bot].bot.owner[{bot['bot']['owner']['type']}]", bot["bot"]["owner"]),
                  ("user[bot].bot.workspace_limits", bot["bot"]["workspace_limits"])])

    def _children(self, sim: NotionSimulator, block_id: str) -> None:
        for block in self.listing(sim, "list[block_children]", "GET", f"/v1/blocks/{block_id}/children"):
            self.add(_block(self.get(sim, "GET", f"/v1/blocks/{block['id']}")))
            if block["has_children"] and block["type"] != "child_page":
                self._children(sim, block["id"])

    def _errors(self, sim: NotionSimulator, ds: str) -> None:
        for path in (f"/v1/pages/{MISSING_ID}", f"/v1/blocks/{MISSING_ID}", f"/v1/blocks/{MISSING_ID}/children",
                     f"/v1/data_sources/{MISSING_ID}", f"/v1/pages/{sim.workspace.page_id('receta')}"):
            self.get(sim, "GET", path)
        self.get(sim, "POST", f"/v1/data_sources/{MISSING_ID}/query", {})
        self.get(sim, "GET", "/v1/nowhere")
        self.get(sim, "POST", "/v1/search", {"page_size": 0})
        self.get(sim, "GET", "/v1/users/me", hdrs={"Notion-Version": self.version})
        self.get(sim, "POST", "/v1/search", {}, integration="sin-lectura")
        limited = make_simulator(limits=LimitsConfig(connection_budget=1))
        for _ in range(2):
            self.get(limited, "GET", "/v1/users/me")
        self.get(make_simulator(limits=LimitsConfig(p_overload=1.0)), "GET", "/v1/users/me")


class OldCrawl(Crawl):
    """The same crawl through 2022-06-28's routes: the database, its query and its errors instead of the
    data source's."""

    def __init__(self) -> None:
        super().__init__(OLD)

    def run(self) -> "OldCrawl":
        sim = NotionSimulator(Workspace.from_spec(every_kind_spec()), seed=5)
        ds = data_source_id(sim)
        database = sim.workspace.data_sources[ds].database_id
        self.listing(sim, "list[search]", "POST", "/v1/search", {})
        self.listing(sim, "list[database_query]", "POST", f"/v1/databases/{database}/query", {})
        self.add(_database(self.get(sim, "GET", f"/v1/databases/{database}")))
        self._pages_blocks_and_bot(sim)
        for path in (f"/v1/pages/{MISSING_ID}", f"/v1/blocks/{MISSING_ID}", f"/v1/databases/{MISSING_ID}",
                     f"/v1/data_sources/{ds}", "/v1/nowhere"):
            self.get(sim, "GET", path)
        self.get(sim, "POST", f"/v1/databases/{MISSING_ID}/query", {})
        self.get(sim, "GET", "/v1/users/me", hdrs={"Notion-Version": OLD})
        return self


@pytest.fixture(scope="module")
def crawls() -> dict[str, Crawl]:
    return {version: Crawl(version).run() for version in VERSIONS}


@pytest.fixture(scope="module")
def served(crawls) -> dict[str, dict[str, list[dict[str, Any]]]]:
    return {version: crawl.found for version, crawl in crawls.items()}


# ---------------------------------------------------------------------- the field sets

CASES = [pytest.param(kind, version, id=f"{kind}-{version}") for kind in KINDS for version in VERSIONS]


@pytest.mark.parametrize("kind, version", CASES)
def test_every_object_kind_carries_exactly_the_fields_notion_returns(served, kind: str, version: str) -> None:
    fields = expected_fields(kind, version)
    samples = served[version].get(kind, [])
    if fields is None:
        assert not samples, f"{kind} does not exist in {version}, yet the simulator served it"
        return
    assert samples, f"the crawl met no {kind} in {version}: the test workspace should hold one"
    for obj in samples:
        missing, extra = sorted(set(fields) - set(obj)), sorted(set(obj) - set(fields))
        assert not missing, f"{kind} ({version}) lacks {', '.join(missing)}: {json.dumps(obj)[:300]}"
        assert not extra, f"{kind} ({version}) has fields Notion does not return: {', '.join(extra)}"


@pytest.mark.parametrize("kind, version", CASES)
def test_every_field_has_the_json_type_notion_gives_it(served, kind: str, version: str) -> None:
    fields = expected_fields(kind, version) or {}
    for obj in served[version].get(kind, []):
        wrong = {name: type(obj[name]).__name__ for name, allowed in fields.items()
                 if name in obj and not has_json_type(obj[name], allowed)}
        assert not wrong, f"{kind} ({version}): wrong JSON types {wrong}; the contract says " + \
            ", ".join(f"{name}: {fields[name]}" for name in wrong)


@pytest.mark.parametrize("version", VERSIONS)
def test_the_crawl_meets_no_object_kind_the_contract_does_not_name(served, version: str) -> None:
    assert sorted(set(served[version]) - set(KINDS)) == []


@pytest.mark.parametrize("version", VERSIONS)
def test_every_response_body_carries_a_request_id(crawls, version: str) -> None:
    assert crawls[version].without_request_id == []


def test_the_contract_names_every_fields_type_and_version_correctly() -> None:
    for kind, entry in KINDS.items():
        assert set(entry.get("versions", VERSIONS)) <= set(VERSIONS), kind
        for name, rule in entry["fields"].items():
            rule = rule if isinstance(rule, dict) else {"type": rule}
            assert set(rule["type"].split("|")) <= set(JSON_TYPES), f"{kind}.{name}: {rule['type']}"
            assert set(rule.get("versions", VERSIONS)) <= set(VERSIONS), f"{kind}.{name}"


# ---------------------------------------------------------------------- 2022-06-28, against its recordings

RECORDED_OLD = json.loads((Path(__file__).parent / "data" / "notion_fields_2022_06_28.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def old_crawl() -> OldCrawl:
    return OldCrawl().run()


@pytest.mark.parametrize("kind", list(RECORDED_OLD["kinds"]))
def test_each_kind_under_2022_06_28_carries_the_fields_recorded_with_that_version(old_crawl, kind: str) -> None:
    """What Notion answered under 2022-06-28 (recorded in December 2024) is all there; anything more is a field
    the data file names as introduced since, with its evidence."""
    entry = RECORDED_OLD["kinds"][kind]
    samples = old_crawl.found.get(kind, [])
    assert samples, f"the 2022-06-28 crawl met no {kind}: the test workspace should hold one"
    for obj in samples:
        missing = [name for name in entry["recorded"] if name not in obj]
        unexplained = sorted(set(obj) - set(entry["recorded"]) - set(entry.get("later", {})))
        assert not missing, f"{kind} (2022-06-28) lacks {', '.join(missing)}: {json.dumps(obj)[:300]}"
        assert not unexplained, f"{kind} (2022-06-28) has fields neither recorded nor explained: {unexplained}"


def test_the_2022_06_28_crawl_serves_no_data_source_and_every_body_has_a_request_id(old_crawl) -> None:
    assert not [kind for kind in old_crawl.found if kind.startswith(("data_source", "list[data_source"))]
    assert {"database", "list[database_query]", "page.parent[database_id]"} <= set(old_crawl.found)
    assert old_crawl.without_request_id == []


# ---------------------------------------------------------------------- the values Notion would give

def test_a_404_names_the_integration_that_asked_and_gives_its_bot_id() -> None:
    sim = make_simulator()
    for integration in ("indexador", "lote"):
        body = call(sim, "GET", f"/v1/pages/{sim.workspace.page_id('receta')}", integration=integration).body
        bot = sim.workspace.integrations[integration]
        assert body["message"].endswith(f'shared with your integration "{bot.name}".')
        assert body["additional_data"] == {"integration_id": bot.bot_id}
        assert call(sim, "GET", "/v1/users/me", integration=integration).body["id"] == bot.bot_id


def test_users_me_gives_the_workspace_id_and_the_upload_limit_of_the_plan() -> None:
    for plan, limit in (("free", 5_242_880), ("plus", 5_368_709_120), ("business", 5_368_709_120)):
        sim = make_simulator(limits=LimitsConfig(plan=plan))
        bot = call(sim, "GET", "/v1/users/me").body["bot"]
        assert bot["workspace_id"] == workspace_id(sim.workspace)
        assert bot["workspace_limits"] == {"max_file_upload_size_in_bytes": limit} == \
            {"max_file_upload_size_in_bytes": MAX_FILE_UPLOAD_BYTES[plan]}


@pytest.mark.parametrize("version", VERSIONS)
def test_fields_the_workspace_never_sets_are_null_or_false_as_notion_sends_them(version: str) -> None:
    sim = make_simulator()
    ds = call(sim, "GET", f"/v1/data_sources/{data_source_id(sim)}", version=version).body
    assert (ds["cover"], ds["public_url"], ds["is_inline"]) == (None, None, False)
    assert {schema["description"] for schema in ds["properties"].values()} == {None}
    assert {option["description"] for option in ds["properties"]["Tipo"]["select"]["options"]} == {None}
    page = call(sim, "GET", f"/v1/pages/{sim.workspace.page_id('politica-cancel')}", version=version).body
    assert page["is_archived"] is False
    paragraph = call(sim, "GET", f"/v1/blocks/{page['id']}/children", version=version).body["results"][1]
    assert paragraph["type"] == "paragraph" and paragraph["paragraph"]["icon"] is None


def test_a_row_read_as_a_page_or_as_a_block_names_its_data_source_and_its_database() -> None:
    sim = make_simulator()
    ds = sim.workspace.data_sources[data_source_id(sim)]
    page_id = sim.workspace.page_id("ficha-rol")
    expected = {"type": "data_source_id", "data_source_id": ds.id, "database_id": ds.database_id}
    assert call(sim, "GET", f"/v1/pages/{page_id}").body["parent"] == expected
    assert call(sim, "GET", f"/v1/blocks/{page_id}").body["parent"] == expected


@pytest.mark.parametrize("version", VERSIONS)
def test_child_pages_and_child_databases_are_listed_with_their_titles(version: str) -> None:
    sim = NotionSimulator(Workspace.from_spec(every_kind_spec()), seed=5)
    host = sim.workspace.page_id("catalogo")
    listed = call(sim, "GET", f"/v1/blocks/{host}/children", version=version).body["results"]
    titles = {b["type"]: b[b["type"]]["title"] for b in listed if b["type"] in ("child_page", "child_database")}
    assert titles == {"child_page": "Masa madre, paso a paso", "child_database": "Pedidos de temporada"}


def test_a_child_page_block_and_its_page_are_one_record() -> None:
    sim = NotionSimulator(Workspace.from_spec(every_kind_spec()), seed=5)
    sub = sim.workspace.page_id("sub-masa-madre")
    listed = call(sim, "GET", f"/v1/blocks/{sim.workspace.page_id('catalogo')}/children").body["results"]
    as_child = next(b for b in listed if b["id"] == sub)
    as_block = call(sim, "GET", f"/v1/blocks/{sub}").body
    as_page = call(sim, "GET", f"/v1/pages/{sub}").body
    for key in ("created_time", "last_edited_time", "created_by", "last_edited_by", "parent"):
        assert as_child[key] == as_block[key] == as_page[key], key
    assert as_child["has_children"] is True
    assert as_child["child_page"]["title"] == as_page["properties"]["title"]["title"][0]["plain_text"]


def test_the_bakerys_recipes_are_child_pages_of_a_private_page_visible_once_shared() -> None:
    sim = bakery_simulator(seed=1)
    ws = sim.workspace
    host = next(p for p in ws.pages.values()
                if any(ws.blocks[c].type == "child_page" for c in p.children if c in ws.blocks))
    assert call(sim, "GET", f"/v1/blocks/{host.id}/children", integration=KB_INTEGRATION).status == 404
    ws.share(KB_INTEGRATION, host.id)
    listed = call(sim, "GET", f"/v1/blocks/{host.id}/children", integration=KB_INTEGRATION).body["results"]
    recipes = [b for b in listed if b["type"] == "child_page"]
    assert len(recipes) == 5
    assert all(b["child_page"]["title"] == ws.pages[b["id"]].title for b in recipes)
    assert all(b["last_edited_time"] == ws.pages[b["id"]].edited for b in recipes)


def test_the_official_sdk_reads_the_new_fields_over_http() -> None:
    notion_client = pytest.importorskip("notion_client")  # a dev extra: always installed by `make test`
    from lab.simulator.server import serve_in_background
    sim = NotionSimulator(Workspace.from_spec(every_kind_spec()), seed=5)
    with serve_in_background(sim) as server:
        sdk = notion_client.Client(auth=sim.token_for("indexador"), base_url=server.base_url,
                                   notion_version="2026-03-11")
        host = sim.workspace.page_id("catalogo")
        blocks = notion_client.helpers.collect_paginated_api(sdk.blocks.children.list, block_id=host)
        assert {b["type"] for b in blocks} >= {"child_page", "child_database"}
        assert sdk.pages.retrieve(page_id=host)["parent"]["database_id"]
        assert sdk.users.me()["bot"]["workspace_limits"]["max_file_upload_size_in_bytes"] == 5_242_880
        with pytest.raises(notion_client.APIResponseError) as not_found:
            sdk.pages.retrieve(page_id=sim.workspace.page_id("receta"))
    assert not_found.value.code == "object_not_found" and '"TL Indexador KB"' in str(not_found.value)
