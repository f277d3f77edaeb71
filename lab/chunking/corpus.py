"""Chunking a whole read of the knowledge base, and the tables lesson 03 reports about it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import pandas as pd

from lab.chunking.flatten import MARKERS_ES, FlatDocument, Markers, flatten_blocks
from lab.chunking.records import Chunk
from lab.chunking.section_tokens import SectionTokenChunker
from lab.chunking.tokens import count_tokens

__all__ = ["ChunkedCorpus", "chunk_pages", "table_by_type", "chunk_totals", "count_formula_check"]


class PageLike(Protocol):
    """What a read page offers (``lab.ingest.reading.PageRead`` is one)."""

    blocks: list[tuple[int, dict[str, Any]]]

    def metadata(self) -> dict[str, str]: ...


@dataclass
class ChunkedCorpus:
    """Every chunk of a set of pages, each page's flattened text, and one row per page."""

    chunks: list[Chunk]
    flats: dict[str, FlatDocument]
    pages: pd.DataFrame

    def chunks_of(self, page_id: str) -> list[Chunk]:
        return [c for c in self.chunks if c.page_id == page_id]


def chunk_pages(pages: Iterable[PageLike], chunker: SectionTokenChunker | None = None,
                markers: Markers = MARKERS_ES) -> ChunkedCorpus:
    """Flatten every page and cut it with ``chunker`` (300/50 token windows by default)."""
    chunker = chunker or SectionTokenChunker()
    chunks: list[Chunk] = []
    flats: dict[str, FlatDocument] = {}
    rows = []
    for page in pages:
        meta = page.metadata()
        flat = flatten_blocks(page.blocks, markers=markers)
        cut = chunker.split(flat, meta)
        flats[meta["id"]] = flat
        chunks += cut
        rows.append({"page_id": meta["id"], "title": meta["title"], "type": meta["type"],
                     "tokens": flat.body_tokens, "sections": len(flat.sections), "chunks": len(cut)})
    return ChunkedCorpus(chunks, flats, pd.DataFrame(rows))


def table_by_type(pages: pd.DataFrame) -> pd.DataFrame:
    """Table 2: pages, tokens, mean tokens per page and chunks, by page type, with a total row."""
    table = (pages.groupby("type").agg(pages=("tokens", "size"), tokens=("tokens", "sum"),
                                       mean_tokens=("tokens", "mean"), chunks=("chunks", "sum"))
             .reset_index())
    total = {"type": "total", "pages": int(table["pages"].sum()), "tokens": int(table["tokens"].sum()),
             "mean_tokens": table["tokens"].sum() / table["pages"].sum(), "chunks": int(table["chunks"].sum())}
    table = pd.concat([table, pd.DataFrame([total])], ignore_index=True)
    table["mean_tokens"] = table["mean_tokens"].round(0).astype(int)
    return table


def chunk_totals(chunks: Sequence[Chunk], pages: pd.DataFrame) -> pd.DataFrame:
    """Totals over all chunks: count, tokens embedded, mean/median/max size, sections, overlap cost."""
    sizes = np.array([c.tokens for c in chunks])
    source_tokens = int(pages["tokens"].sum())
    rows = [("chunks", len(chunks)), ("tokens embedded", int(sizes.sum())), ("source tokens", source_tokens),
            ("mean tokens per chunk", round(float(sizes.mean()), 1)), ("median", float(np.median(sizes))),
            ("max", int(sizes.max())), ("sections", int(pages["sections"].sum())),
            ("overlap overhead %", round(100 * (sizes.sum() / source_tokens - 1), 2))]
    return pd.DataFrame(rows, columns=["measure", "value"], dtype=object)


def count_formula_check(flats: Mapping[str, FlatDocument], chunks: Sequence[Chunk],
                        chunker: SectionTokenChunker) -> pd.DataFrame:
    """One row per non-empty section: its tokens T, the chunks the formula predicts, the chunks cut."""
    by_page: dict[str, list[int]] = {}
    for chunk in chunks:
        by_page.setdefault(chunk.page_id, []).append(chunk.start)
    rows = []
    for page_id, flat in flats.items():
        starts = np.array(sorted(by_page.get(page_id, [])))
        for section in flat.sections:
            tokens = count_tokens(flat.body(section))
            if tokens == 0:
                continue
            inside = int(((starts >= section.body_start) & (starts < section.body_end)).sum())
            rows.append({"page_id": page_id, "section": section.title, "T": tokens,
                         "expected": chunker.expected_chunks(tokens), "cut": inside})
    return pd.DataFrame(rows)
