"""What a dense model offers the lab, and the check that it reads every chunk whole."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any, Protocol

from lab.chunking import check_input_limit

__all__ = ["DenseEmbedder", "check_embedder_limit"]


class DenseEmbedder(Protocol):
    """What a dense model offers (``lab.services.voyage.VoyageEmbedder`` is one).

    ``embed_documents`` returns a result with ``vectors`` (one row per text) and ``tokens`` (billed);
    ``max_input_tokens`` is how much of each text the model reads (``None``: no known limit).
    """

    name: str
    max_input_tokens: int | None

    def embed_documents(self, texts: Sequence[str]) -> Any: ...


def check_embedder_limit(embedder: DenseEmbedder, chunks: Iterable[Any]) -> None:
    """Raise :class:`~lab.chunking.InputTooLongError`, before any call, if a chunk (an object or a
    stored row) is longer than ``embedder`` reads: the model would embed only its beginning. An
    embedder that names no ``max_input_tokens`` is not checked."""
    limit = getattr(embedder, "max_input_tokens", None)
    if limit is not None:
        check_input_limit([SimpleNamespace(id=c["id"], text=c["text"]) if isinstance(c, Mapping) else c
                           for c in chunks], limit).raise_if_over()
