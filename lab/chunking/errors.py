"""Exceptions raised by the chunking package, each naming what was wrong and what would be right."""

from __future__ import annotations

from lab.errors import LabError
from lab.notion.pages import MalformedPageError

__all__ = ["ChunkingError", "MalformedBlockError", "MalformedPageError", "ChunkerParameterError"]


class ChunkingError(LabError, ValueError):
    """Base class: the input or the configuration of a chunker cannot be used."""


class MalformedBlockError(ChunkingError):
    """A block stream is not shaped like the client's ``(depth, block)`` traversal."""


class ChunkerParameterError(ChunkingError):
    """A size that cannot work: windows that cannot advance (overlap >= size), a limit under one token."""
