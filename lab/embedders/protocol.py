"""What a dense model offers the lab, and the check that it reads every chunk whole."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any, Protocol

from lab.chunking import InputLimitReport, check_input_limit, count_tokens

__all__ = ["DenseEmbedder", "check_embedder_limit", "embedder_limit_report", "model_token_count"]


class DenseEmbedder(Protocol):
    """What a dense model offers (``lab.services.voyage.VoyageEmbedder`` is one).

    ``embed_documents`` returns a result with ``vectors`` (one row per text) and ``tokens`` (billed);
    ``max_input_tokens`` is how much of each text the model reads (``None``: no known limit).
    """

    name: str
    max_input_tokens: int | None

    def embed_documents(self, texts: Sequence[str]) -> Any: ...


def model_token_count(embedder: Any) -> Callable[[str], int]:
    """How ``embedder`` counts a passage's tokens: its own ``count_tokens`` where it has one (e5's tokenizer),
    else the lab's count (:func:`lab.chunking.count_tokens`). The two part on text the lab counts as one
    word and a model's tokenizer as thousands of pieces (a run of dashes, a base64 blob)."""
    own = getattr(embedder, "count_tokens", None)
    return own if callable(own) else count_tokens


def check_embedder_limit(embedder: DenseEmbedder, chunks: Iterable[Any]) -> None:
    """Raise :class:`~lab.chunking.InputTooLongError`, before any call, if a chunk (an object or a
    stored row) is longer than ``embedder`` reads, counted as :func:`model_token_count` says: the model
    would embed only its beginning, or refuse it in the middle of a run. An embedder that names no
    ``max_input_tokens`` is not checked."""
    report = embedder_limit_report(embedder, chunks)
    if report is not None:
        report.raise_if_over()


def embedder_limit_report(embedder: DenseEmbedder, chunks: Iterable[Any]) -> InputLimitReport | None:
    """Which chunks (objects or stored rows) are longer than ``embedder`` reads, counted as
    :func:`model_token_count` says; ``None`` for an embedder that names no ``max_input_tokens``."""
    limit = getattr(embedder, "max_input_tokens", None)
    if limit is None:
        return None
    return check_input_limit([SimpleNamespace(id=c["id"], text=c["text"]) if isinstance(c, Mapping) else c
                              for c in chunks], limit, count=model_token_count(embedder))
