"""The loaders people already run, pointed at the served simulator by their base URL only.

LangChain's ``NotionDBLoader`` and LlamaIndex's ``NotionPageReader`` send ``Notion-Version: 2022-06-28``
and read databases through ``/v1/databases/{id}/query``. Both run unchanged here (their module's
``https://api.notion.com`` swapped for the server's address, nothing else), return every page they
should, and their text is compared, block by block, with the lab's flattening of the same pages:
what each loader drops is printed and pinned, and kept as a recording lesson 09 shows
(``LOADER_RECORDING``), which a test holds equal to a fresh run. After a deliberate change,
``python -m tests.test_reference_loaders`` records again.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from importlib.metadata import version as installed
from types import ModuleType
from typing import Any

import pytest

from lab.client import NoPacing
from lab.course.lesson09 import LOADER_RECORDING
from lab.ingest.reading import PUBLISHABLE_PROPERTY, read_knowledge_base
from lab.simulator import KB_INTEGRATION, LimitsConfig, bakery_simulator
from lab.testing import ServedNotion
from lab.testing.loader_coverage import LoaderRecording, lab_lines, letters, missed_lines, read_recording, write_recording
from tests.notion_fixtures import make_client, small_spec

pytestmark = pytest.mark.slow
SEED = 44
NOTION = "https://api.notion.com"
PUBLISHABLE = {"property": PUBLISHABLE_PROPERTY, "checkbox": {"equals": True}}
# Enough requests a minute for three whole reads on the wall clock (Notion's free plan allows 180).
UNLIMITED = LimitsConfig(plan="enterprise", connection_budget=100_000, workspace_budget=100_000)

# Each loader's module, the module-level URLs it builds every request from, and its distribution.
LOADERS = {"langchain": ("langchain_community.document_loaders.notiondb", ("DATABASE_URL", "PAGE_URL", "BLOCK_URL"),
                         "langchain-community"),
           "llama_index": ("llama_index.readers.notion.base",
                           ("BLOCK_CHILD_URL_TMPL", "DATABASE_URL_TMPL", "SEARCH_URL"), "llama-index-readers-notion")}


@contextmanager
def loaders_at(base_url: str) -> Iterator[dict[str, ModuleType]]:
    """The loaders' modules (imported here, not at collection: 5 s), each with Notion's address swapped
    for ``base_url`` in its URLs: their base URL, and nothing else, changed."""
    modules = {name: importlib.import_module(module) for name, (module, _, _) in LOADERS.items()}
    with pytest.MonkeyPatch.context() as patch:
        for name, (_, urls, _) in LOADERS.items():
            for url in urls:
                patch.setattr(modules[name], url, getattr(modules[name], url).replace(NOTION, base_url))
        yield modules


def database_of(served: ServedNotion) -> str:
    return served.workspace.data_sources[served.data_source_id("base-de-conocimiento")].database_id


def lab_reading() -> dict[str, list[tuple[str, str]]]:
    """The lab's reading of the publishable pages: page id -> (where, block text) of each flattened line."""
    sim = bakery_simulator(seed=SEED)
    read = read_knowledge_base(make_client(sim, KB_INTEGRATION, pacer=NoPacing()))
    return lab_lines(read.pages, sim.workspace)


def load_both(modules: Mapping[str, ModuleType], served: ServedNotion) -> dict[str, list[Any]]:
    """Each loader's documents for the bakery's knowledge base: LangChain's with the publishable filter,
    LlamaIndex's for the whole database (it has no filter)."""
    database_id = database_of(served)
    return {"langchain": modules["langchain"].NotionDBLoader(served.token, database_id,
                                                             filter_object=PUBLISHABLE).load(),
            "llama_index": modules["llama_index"].NotionPageReader(integration_token=served.token)
            .load_data(database_ids=[database_id])}


def texts_of(name: str, documents: list[Any]) -> dict[str, str]:
    """Page id -> the loader's text of that page."""
    if name == "langchain":
        return {doc.metadata["id"]: doc.page_content for doc in documents}
    return {doc.id_: doc.text for doc in documents}


def recordings(modules: Mapping[str, ModuleType], documents: Mapping[str, list[Any]],
               lines: Mapping[str, list[tuple[str, str]]]) -> list[LoaderRecording]:
    """What each loader gave, as lesson 09 shows it."""
    made = {"langchain": ("LangChain NotionDBLoader", "load() with the Publicable filter",
                          modules["langchain"].NotionDBLoader("-", "-").headers),
            "llama_index": ("LlamaIndex NotionPageReader", "load_data(database_ids=[...])",
                            modules["llama_index"].NotionPageReader(integration_token="-").headers)}
    return [LoaderRecording(loader=label, package=f"{LOADERS[name][2]} {installed(LOADERS[name][2])}",
                            notion_version=headers["Notion-Version"], call=call, documents=len(documents[name]),
                            missed=dict(sorted(missed_lines(lines, texts_of(name, documents[name])).items())))
            for name, (label, call, headers) in made.items()]


@pytest.fixture(scope="module")
def served() -> Iterator[ServedNotion]:
    with ServedNotion(None, limits=UNLIMITED, seed=SEED) as notion:
        yield notion


@pytest.fixture(scope="module")
def loaders(served: ServedNotion) -> Iterator[dict[str, ModuleType]]:
    with loaders_at(served.base_url) as modules:
        yield modules


@pytest.fixture(scope="module")
def lab_pages() -> dict[str, list[tuple[str, str]]]:
    return lab_reading()


@pytest.fixture(scope="module")
def database_id(served: ServedNotion) -> str:
    return database_of(served)


@pytest.fixture(scope="module")
def documents(served: ServedNotion, loaders: dict[str, ModuleType]) -> dict[str, list[Any]]:
    return load_both(loaders, served)


def report(name: str, lab_pages: dict[str, list[tuple[str, str]]], missing) -> None:
    total = sum(1 for lines in lab_pages.values() for _, text in lines if letters(text))
    kept = total - sum(missing.values())
    print(f"\n{name}: {kept} of {total} flattened lines kept ({kept / total:.0%}); dropped by block type: "
          f"{dict(sorted(missing.items()))}")


# Text the lab keeps and both loaders drop: they read only a block's own rich_text runs of type "text", so
# table rows, image and bookmark captions and equations are lost. LangChain's loader also skips a block
# without text of its own before looking at its children: whatever sits in columns or synced blocks.
DROPPED_BY_BOTH = {"table_row", "image", "bookmark", "equation"}
DROPPED_BY_LANGCHAIN = DROPPED_BY_BOTH | {"paragraph in column", "bulleted_list_item in column",
                                          "paragraph in synced_block", "bulleted_list_item in synced_block"}


def test_langchain_loader_reads_every_publishable_row(documents, lab_pages) -> None:
    texts = texts_of("langchain", documents["langchain"])
    assert set(texts) == set(lab_pages) and len(documents["langchain"]) == len(lab_pages) == 40
    assert all(doc.metadata["publicable"] is True for doc in documents["langchain"])
    missing = missed_lines(lab_pages, texts)
    report("LangChain NotionDBLoader", lab_pages, missing)
    assert set(missing) == DROPPED_BY_LANGCHAIN


def test_llama_index_reader_reads_the_database_and_the_pages(served, loaders, documents, lab_pages) -> None:
    reader = loaders["llama_index"].NotionPageReader(integration_token=served.token)
    assert reader.list_databases() == [database_of(served)]
    texts = texts_of("llama_index", documents["llama_index"])
    assert set(lab_pages) <= set(texts)  # the reader takes every row, drafts included: it has no filter
    missing = missed_lines(lab_pages, texts)
    report("LlamaIndex NotionPageReader", lab_pages, missing)
    assert set(missing) == DROPPED_BY_BOTH
    one = next(iter(lab_pages))
    assert reader.load_data(page_ids=[one])[0].text == texts[one]


def test_the_recording_lesson_09_shows_is_what_the_loaders_give_now(loaders, documents, lab_pages) -> None:
    fresh = recordings(loaders, documents, lab_pages)
    assert [r.notion_version for r in fresh] == ["2022-06-28", "2022-06-28"]
    assert read_recording(LOADER_RECORDING) == fresh, \
        "the loaders (or the lab's reading) changed: re-record with python -m tests.test_reference_loaders"


def test_llama_index_search_finds_every_page_and_database(served, loaders) -> None:
    reader = loaders["llama_index"].NotionPageReader(integration_token=served.token)
    found = reader.search("")
    assert len(found) == len(set(found))
    assert set(found) == set(reader.list_pages()) | set(reader.list_databases())


@pytest.mark.parametrize("version", ["2025-09-03", "2022-06-28"])
def test_official_sdk_reads_databases_search_pages_and_blocks(served, database_id, version: str) -> None:
    from notion_client import Client  # the newest release, which sends 2025-09-03 unless told otherwise

    notion = Client(auth=served.token, base_url=served.base_url, notion_version=version)
    database = notion.databases.retrieve(database_id=database_id)
    if version == "2022-06-28":  # notion-client 3 has no databases.query: the route, through its request()
        assert "Publicable" in database["properties"]
        rows = notion.request(path=f"databases/{database_id}/query", method="POST",
                              body={"filter": PUBLISHABLE})["results"]
        found = notion.search(filter={"property": "object", "value": "database"})["results"]
        assert [item["id"] for item in found] == [database_id]
    else:
        [source] = database["data_sources"]
        rows = notion.data_sources.query(data_source_id=source["id"], filter=PUBLISHABLE)["results"]
        found = notion.search(filter={"property": "object", "value": "data_source"})["results"]
        assert [item["id"] for item in found] == [source["id"]]
    assert len(rows) == 40
    page = notion.pages.retrieve(page_id=rows[0]["id"])
    assert page["parent"]["database_id"] == database_id
    assert page["parent"]["type"] == ("database_id" if version == "2022-06-28" else "data_source_id")
    assert notion.blocks.children.list(block_id=page["id"])["results"]


@pytest.fixture(scope="module")
def long_page() -> Iterator[ServedNotion]:
    """A workspace whose page ``faq-larga`` holds 260 paragraphs, the 101st a toggle with one child."""
    spec = small_spec()
    [long] = [page for page in spec["pages"] if page["key"] == "faq-larga"]
    long["blocks"][100] = {"type": "toggle", "text": "línea 100",
                           "children": [{"type": "paragraph", "text": "dentro de la línea 100"}]}
    with ServedNotion(spec, limits=UNLIMITED, seed=SEED) as notion:
        yield notion


def test_both_loaders_take_a_next_cursor_for_a_block_id_and_lose_a_long_pages_tail_as_on_notion(
        served, loaders, long_page, monkeypatch) -> None:
    """Both loaders list the children of their ``next_cursor`` as if it were a block (LlamaIndex's
    ``_read_block``, LangChain's ``_load_blocks``). On Notion the cursor of a block listing is the id of
    the next block, so after the first 100 children the loader lists the children of the 101st block,
    which it never reads itself, and stops when that short listing says ``has_more`` false. No error
    is raised: a page of 260 top-level blocks comes back as its first 100, plus the 101st block's child.
    The simulator forms cursors as Notion does, so the loaders lose the same blocks here."""
    for name, (_, urls, _) in LOADERS.items():
        for url in urls:
            monkeypatch.setattr(loaders[name], url, getattr(loaders[name], url).replace(served.base_url,
                                                                                        long_page.base_url))
    page = long_page.page_id("faq-larga")
    database_id = long_page.workspace.data_sources[long_page.data_source_id("kb")].database_id
    llama = loaders["llama_index"].NotionPageReader(integration_token=long_page.token).load_data(page_ids=[page])
    langchain = loaders["langchain"].NotionDBLoader(long_page.token, database_id).load()
    texts = {"llama_index": llama[0].text,
             "langchain": next(doc.page_content for doc in langchain if doc.metadata["id"] == page)}
    expected = [f"línea {i}" for i in range(100)] + ["dentro de la línea 100"]
    for name, text in texts.items():
        assert [line.strip() for line in text.splitlines() if line.strip()] == expected, name
    assert all(r.status == 200 for r in long_page.requests)  # nothing refused: the loss is silent


def main() -> None:
    """Record what the loaders give now into ``LOADER_RECORDING`` (after a deliberate change)."""
    with ServedNotion(None, limits=UNLIMITED, seed=SEED) as served, loaders_at(served.base_url) as modules:
        write_recording(LOADER_RECORDING, recordings(modules, load_both(modules, served), lab_reading()))
    print(f"recorded {LOADER_RECORDING}")


if __name__ == "__main__":
    main()
