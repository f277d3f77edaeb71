"""A page's metadata is one record, read from a page object and carried to the chunks and the index."""

from __future__ import annotations

import pytest

from lab.chunking import Document, SectionTokenChunker, flatten_blocks
from lab.ingest.reading import PageRead
from lab.index import IndexStore
from lab.notion import MalformedPageError, PageMetadata
from notion_blocks import Blocks, page_object, traverse


def test_a_page_object_gives_its_id_title_type_last_edit_and_url() -> None:
    meta = PageMetadata.from_page(page_object(title="Política de cancelaciones", page_type="politica"))
    assert meta == PageMetadata(id="1a2b3c4d-0000-4000-8000-000000000001", title="Política de cancelaciones",
                                type="politica", edited="2026-03-20T17:42:00.000Z",
                                url="https://www.notion.so/1a2b3c4d000040008000000000000001")
    with pytest.raises(MalformedPageError, match="expected a Notion page object"):
        PageMetadata.from_page({"object": "block", "id": "x"})


def test_a_read_page_carries_the_same_record_to_its_chunks_and_to_the_index() -> None:
    read = PageRead(page_object(page_type=None), [], read_at="2026-04-09T16:00:05")
    assert read.info.type == "" and PageMetadata.from_page(read.page).type is None  # the index stores no NULL type
    flat = flatten_blocks(traverse([Blocks().paragraph("Hola")]))
    chunk, = SectionTokenChunker().split(Document.from_notion_page(flat, read.info))
    assert (chunk.page_id, chunk.title, chunk.type, chunk.edited) == (read.id, read.title, "", read.edited)
    store = IndexStore(":memory:")
    store.put_pages([read.indexed()])
    assert store.pages() == {read.id: read.info} and store.read_times() == {read.id: "2026-04-09T16:00:05"}
