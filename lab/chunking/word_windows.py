"""Fixed windows of words over several short documents read as one stream (lesson 04)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import pandas as pd

from lab.chunking.budgets import check_window, window_bounds, window_count
from lab.chunking.errors import ChunkingError
from lab.chunking.records import Chunk, fingerprint
from lab.chunking.tokens import count_tokens

__all__ = ["WordWindowChunker", "SOURCE_SEPARATOR", "joined_text", "word_window_summary"]

#: How the documents are joined into one stream; chunk offsets point into that joined text.
SOURCE_SEPARATOR = "\n\n"

_WORD = re.compile(r"\S+")


def _check_documents(documents: Sequence[tuple[str, str]]) -> None:
    for k, item in enumerate(documents):
        if not (isinstance(item, tuple | list) and len(item) == 2
                and isinstance(item[0], str) and isinstance(item[1], str)):
            raise ChunkingError(f"document {k} is {item!r}; pass (source_id, text) pairs of strings")


def joined_text(documents: Sequence[tuple[str, str]]) -> str:
    """The documents' texts joined with :data:`SOURCE_SEPARATOR`: what chunk offsets refer to."""
    return SOURCE_SEPARATOR.join(text for _, text in documents)


class WordWindowChunker:
    """Windows of ``size`` words advancing ``size - overlap``, blind to where a document ends.

    The documents are read as one stream of whitespace-separated words, so a window may mix
    several of them; ``source["word_sources"]`` records the source of every word and
    ``source["sources"]`` the distinct sources in order, which is how the lesson counts the
    windows that mix notes. ``N`` words give 1 window if ``N <= size`` and
    ``ceil((N - size) / (size - overlap)) + 1`` otherwise (:meth:`expected_chunks`).
    """

    chunker_name = "word_windows"

    def __init__(self, size: int = 40, overlap: int = 10) -> None:
        self.size = size
        self.overlap = overlap

    def expected_chunks(self, n_words: int) -> int:
        """How many windows ``n_words`` words give (0 for no words)."""
        check_window(self.size, self.overlap, "size", "overlap")
        return window_count(n_words, self.size, self.overlap)

    def split(self, documents: Sequence[tuple[str, str]], stream_id: str = "notes") -> list[Chunk]:
        """Windows over ``documents`` (``(source_id, text)`` pairs, read in the order given)."""
        check_window(self.size, self.overlap, "size", "overlap")
        _check_documents(documents)
        stream = joined_text(documents)
        spans: list[tuple[int, int]] = []
        owners: list[str] = []
        offset = 0
        for source_id, text in documents:
            for m in _WORD.finditer(text):
                spans.append((offset + m.start(), offset + m.end()))
                owners.append(source_id)
            offset += len(text) + len(SOURCE_SEPARATOR)
        chunks = []
        for k, (first, stop) in enumerate(window_bounds(len(spans), self.size, self.overlap)):
            start, end = spans[first][0], spans[stop - 1][1]
            body = stream[start:end]
            word_sources = owners[first:stop]
            chunks.append(Chunk(
                id=f"{stream_id}:{k:03d}", page_id=stream_id, title=stream_id, type=None, section=None,
                order=k, text=body, body=body, start=start, end=end, tokens=count_tokens(body),
                fingerprint=fingerprint(body), edited=None, chunker=self.chunker_name,
                source={"words": stop - first, "word_sources": word_sources,
                        "sources": list(dict.fromkeys(word_sources))},
            ))
        return chunks


def word_window_summary(documents: Sequence[tuple[str, str]], sizes: Iterable[int] = (20, 40, 80),
                        overlaps: Iterable[int] = (0, 10)) -> pd.DataFrame:
    """One row per (size, overlap): chunks, words indexed, chunks mixing sources, mean sources per chunk."""
    rows = []
    overlaps = list(overlaps)
    for size in sizes:
        for overlap in overlaps:
            chunks = WordWindowChunker(size, overlap).split(documents)
            per_chunk = [len(c.source["sources"]) for c in chunks]
            rows.append({
                "size": size,
                "overlap": overlap,
                "chunks": len(chunks),
                "words_indexed": sum(c.source["words"] for c in chunks),
                "chunks_mixing_sources": sum(n > 1 for n in per_chunk),
                "sources_per_chunk": sum(per_chunk) / len(per_chunk) if per_chunk else 0.0,
            })
    return pd.DataFrame(rows)
