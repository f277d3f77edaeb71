"""What every chunker shares: parameters set in ``__init__``, one ``split(document)``.

As with scikit-learn's estimators, a chunker stores its parameters unchanged and checks them
when it is used, raising :class:`ChunkerParameterError` with what would be right; ``split``
takes a :class:`Document` and returns :class:`Chunk` records whose ``body`` is
``document.text[start:end]``, with deterministic ids and fingerprints. A chunker given the
embedding model's ``input_limit`` refuses to return a chunk whose text the model would cut.
"""

from __future__ import annotations

import inspect

from abc import ABC, abstractmethod
from typing import ClassVar, TypeVar

from lab.chunking.budgets import check_window, window_count
from lab.chunking.document import Document
from lab.chunking.errors import ChunkingError
from lab.chunking.input_limit import check_input_limit, check_limit_value
from lab.chunking.records import Chunk, fingerprint
from lab.chunking.tokens import TokenIndex

__all__ = ["Chunker", "WindowChunker"]

_Part = TypeVar("_Part")


class Chunker(ABC):
    """Base class of the chunkers: ``split(document) -> list[Chunk]``, parameters checked first."""

    #: Recorded in every chunk's ``chunker`` field.
    chunker_name: ClassVar[str]
    #: Raised when the same parameters would now cut differently, so that an index knows its
    #: chunks from the earlier code are stale (``lab.ingest.files`` records it per file).
    chunker_version: ClassVar[str] = "1"
    #: Names of the parameters giving the chunk size and the overlap, checked before every split
    #: (as scikit-learn's ``_parameter_constraints``): size >= 1 and 0 <= overlap < size.
    window_params: ClassVar[tuple[str, str]]
    #: Tokens the embedding model reads per text, or None for no check (set by each ``__init__``).
    input_limit: int | None = None

    def __repr__(self) -> str:
        """The class and the parameters that differ from their defaults, as scikit-learn shows an estimator."""
        parameters = inspect.signature(type(self).__init__).parameters.values()
        changed = [f"{p.name}={getattr(self, p.name)!r}" for p in parameters
                   if p.name != "self" and hasattr(self, p.name) and getattr(self, p.name) != p.default]
        return f"{type(self).__name__}({', '.join(changed)})"

    def split(self, document: Document) -> list[Chunk]:
        """The chunks of ``document``, in document order.

        With an ``input_limit``, raises :class:`~lab.chunking.InputTooLongError` naming every
        chunk whose ``text`` (header lines included) is longer, instead of returning it.
        """
        self._check_params()
        if not isinstance(document, Document):
            raise ChunkingError(
                f"{type(self).__name__}.split takes a Document, got {type(document).__name__}; build one with "
                "Document.from_notion_page, Document.from_markdown, Document.from_text or Document.from_notes")
        chunks = self._split(document)
        if self.input_limit is not None:
            check_input_limit(chunks, self.input_limit).raise_if_over()
        return chunks

    def _chunk(self, document: Document, tokens: TokenIndex, start: int, end: int, *, chunk_id: str, title: str,
               section: str | None, order: int, header: str | None, table: str | None,
               source: dict[str, object]) -> Chunk:
        """The record of ``tokens.text[start:end]``: its body, the text embedded (header and table head
        first, a line each), token count and fingerprint, as every chunker that cuts spans writes it."""
        body = tokens.text[start:end]
        text = "".join(f"{part}\n" for part in (header, table) if part) + body
        return Chunk(id=chunk_id, page_id=document.id, title=title, type=document.type, section=section, order=order,
                     text=text, body=body, start=start, end=end, tokens=tokens.count(start, end),
                     fingerprint=fingerprint(text), edited=document.edited, chunker=self.chunker_name,
                     version=document.version, source=source)

    def _check_params(self) -> None:
        """Raise :class:`ChunkerParameterError` unless the size and overlap can produce chunks
        and the input limit, if any, is a positive number of tokens."""
        size, overlap = self.window_params
        check_window(getattr(self, size), getattr(self, overlap), size, overlap)
        if self.input_limit is not None:
            check_limit_value(self.input_limit, "input_limit")

    @abstractmethod
    def _split(self, document: Document) -> list[Chunk]:
        """The chunks of a valid ``document`` with valid parameters."""

    def _needs(self, part: _Part | None, what: str, constructor: str) -> _Part:
        """``part`` of the document this chunker reads, or an error naming the constructor that gives it."""
        if part is None:
            raise ChunkingError(f"{type(self).__name__} cuts {what}; build the document with "
                                f"Document.{constructor}")
        return part


class WindowChunker(Chunker):
    """A chunker of fixed windows (of tokens or words) that advance by size - overlap."""

    def expected_chunks(self, n: int) -> int:
        """How many windows a run of ``n`` tokens or words gives (0 when ``n`` is 0)."""
        self._check_params()
        size, overlap = self.window_params
        return window_count(n, getattr(self, size), getattr(self, overlap))
