"""Chunking a whole read of the knowledge base: every page flattened, made a document and cut."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

from lab.chunking.chunker import Chunker
from lab.chunking.document import Document
from lab.chunking.flatten import MARKERS_ES, FlatDocument, Markers, flatten_blocks
from lab.chunking.records import Chunk
from lab.chunking.section_tokens import SectionTokenChunker

__all__ = ["ChunkedCorpus", "chunk_pages"]


class PageLike(Protocol):
    """What a read page offers (``lab.ingest.reading.PageRead`` is one)."""

    blocks: list[tuple[int, dict[str, Any]]]

    def metadata(self) -> dict[str, str]: ...


@dataclass
class ChunkedCorpus:
    """Every chunk of a set of pages, and each page as the document it was cut from (by page id)."""

    chunks: list[Chunk]
    documents: dict[str, Document]

    @cached_property
    def flats(self) -> dict[str, FlatDocument]:
        """Each page's flattened text, by page id: what its chunks' offsets point into."""
        return {page_id: document.flat for page_id, document in self.documents.items()
                if document.flat is not None}

    def chunks_of(self, page_id: str) -> list[Chunk]:
        """The chunks cut from one page, in order."""
        return [c for c in self.chunks if c.page_id == page_id]


def chunk_pages(pages: Iterable[PageLike], chunker: Chunker | None = None,
                markers: Markers = MARKERS_ES) -> ChunkedCorpus:
    """Flatten every page and cut it with ``chunker`` (300/50 token windows by default)."""
    chunker = chunker or SectionTokenChunker()
    chunks: list[Chunk] = []
    documents: dict[str, Document] = {}
    for page in pages:
        document = Document.from_notion_page(flatten_blocks(page.blocks, markers=markers), page.info)
        documents[document.id] = document
        chunks += chunker.split(document)
    return ChunkedCorpus(chunks, documents)
