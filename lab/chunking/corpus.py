"""Chunking a whole read of the knowledge base, and the tables lesson 03 reports about it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

import numpy as np
import pandas as pd

from lab.chunking.chunker import Chunker
from lab.chunking.document import Document
from lab.chunking.flatten import MARKERS_ES, FlatDocument, Markers, flatten_blocks
from lab.chunking.records import Chunk
from lab.chunking.section_tokens import SectionTokenChunker
from lab.chunking.tokens import count_tokens

__all__ = ["ChunkedCorpus", "chunk_pages", "page_table", "table_by_type", "chunk_totals", "count_formula_check"]


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
        document = Document.from_notion_page(flatten_blocks(page.blocks, markers=markers), page.metadata())
        documents[document.id] = document
        chunks += chunker.split(document)
    return ChunkedCorpus(chunks, documents)


def page_table(corpus: ChunkedCorpus) -> pd.DataFrame:
    """One row per page: id, title, type, tokens (headings excluded), sections, chunks cut."""
    cut = Counter(c.page_id for c in corpus.chunks)
    return pd.DataFrame([{"page_id": page_id, "title": corpus.documents[page_id].title,
                          "type": corpus.documents[page_id].type, "tokens": flat.body_tokens,
                          "sections": len(flat.sections), "chunks": cut[page_id]}
                         for page_id, flat in corpus.flats.items()])


def table_by_type(corpus: ChunkedCorpus) -> pd.DataFrame:
    """Table 2: pages, tokens, mean tokens per page and chunks, by page type, with a total row."""
    table = (page_table(corpus).groupby("type")
             .agg(pages=("tokens", "size"), tokens=("tokens", "sum"), mean_tokens=("tokens", "mean"),
                  chunks=("chunks", "sum"))
             .reset_index())
    total = {"type": "total", "pages": int(table["pages"].sum()), "tokens": int(table["tokens"].sum()),
             "mean_tokens": table["tokens"].sum() / table["pages"].sum(), "chunks": int(table["chunks"].sum())}
    table = pd.concat([table, pd.DataFrame([total])], ignore_index=True)
    table["mean_tokens"] = table["mean_tokens"].round(0).astype(int)
    return table


def chunk_totals(corpus: ChunkedCorpus) -> pd.DataFrame:
    """Totals over all chunks: count, tokens embedded, mean/median/max size, sections, overlap cost."""
    pages = page_table(corpus)
    sizes = np.array([c.tokens for c in corpus.chunks])
    source_tokens = int(pages["tokens"].sum())
    rows = [("chunks", len(corpus.chunks)), ("tokens embedded", int(sizes.sum())), ("source tokens", source_tokens),
            ("mean tokens per chunk", round(float(sizes.mean()), 1)), ("median", float(np.median(sizes))),
            ("max", int(sizes.max())), ("sections", int(pages["sections"].sum())),
            ("overlap overhead %", round(100 * (sizes.sum() / source_tokens - 1), 2))]
    return pd.DataFrame(rows, columns=["measure", "value"], dtype=object)


def count_formula_check(corpus: ChunkedCorpus, chunker: SectionTokenChunker) -> pd.DataFrame:
    """One row per non-empty section: its tokens T, the chunks the formula predicts, the chunks cut."""
    by_page: dict[str, list[int]] = {}
    for chunk in corpus.chunks:
        by_page.setdefault(chunk.page_id, []).append(chunk.start)
    rows = []
    for page_id, flat in corpus.flats.items():
        starts = np.array(sorted(by_page.get(page_id, [])))
        for section in flat.sections:
            tokens = count_tokens(flat.body(section))
            if tokens == 0:
                continue
            inside = int(((starts >= section.body_start) & (starts < section.body_end)).sum())
            rows.append({"page_id": page_id, "section": section.title, "T": tokens,
                         "expected": chunker.expected_chunks(tokens), "cut": inside})
    return pd.DataFrame(rows)
