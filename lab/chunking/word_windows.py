"""Fixed windows of words over a document, blind to where one of its notes ends (lesson 04)."""

from __future__ import annotations

import re

from lab.chunking.budgets import window_bounds
from lab.chunking.chunker import WindowChunker
from lab.chunking.document import Document
from lab.chunking.records import Chunk, fingerprint
from lab.chunking.tokens import count_tokens

__all__ = ["WordWindowChunker"]

_WORD = re.compile(r"\S+")


class WordWindowChunker(WindowChunker):
    """Windows of ``size`` words advancing ``size - overlap``, blind to where a note ends.

    A stream of notes (:meth:`Document.from_notes`) is read as one sequence of
    whitespace-separated words, so a window may mix several notes; ``source["word_sources"]``
    records the note of every word and ``source["sources"]`` the distinct notes in order, which
    is how the lesson counts the windows that mix notes (any other document is one note).
    ``N`` words give 1 window if ``N <= size`` and ``ceil((N - size) / (size - overlap)) + 1``
    otherwise (:meth:`expected_chunks`). Ids are ``{document id}:{NNN}``.
    """

    chunker_name = "word_windows"
    window_params = ("size", "overlap")

    def __init__(self, size: int = 40, overlap: int = 10, input_limit: int | None = None) -> None:
        self.size = size
        self.overlap = overlap
        self.input_limit = input_limit

    def _split(self, document: Document) -> list[Chunk]:
        text = document.text
        spans: list[tuple[int, int]] = []
        owners: list[str] = []
        for note in document.notes:
            for m in _WORD.finditer(text, note.start, note.end):
                spans.append(m.span())
                owners.append(note.id)
        chunks = []
        for k, (first, stop) in enumerate(window_bounds(len(spans), self.size, self.overlap)):
            start, end = spans[first][0], spans[stop - 1][1]
            body = text[start:end]
            word_sources = owners[first:stop]
            chunks.append(Chunk(
                id=f"{document.id}:{k:03d}", page_id=document.id, title=document.title or document.id,
                type=document.type, section=None, order=k, text=body, body=body, start=start, end=end,
                tokens=count_tokens(body), fingerprint=fingerprint(body), edited=document.edited,
                chunker=self.chunker_name, version=document.version,
                source={"words": stop - first, "word_sources": word_sources,
                        "sources": list(dict.fromkeys(word_sources))},
            ))
        return chunks
