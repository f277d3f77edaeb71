"""Embedding many texts in batches, before anything is written.

A run or a model switch sends its texts to the embedder ``batch_size`` at a time (fewer calls,
same tokens billed) and keeps every vector in memory: a failure part way through raises before
the first write, so the index never holds half a batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lab.ingest.models import DenseEmbedder

__all__ = ["EmbeddedTexts", "embed_in_batches", "DEFAULT_BATCH_SIZE"]

DEFAULT_BATCH_SIZE = 32


@dataclass(frozen=True, kw_only=True)
class EmbeddedTexts:
    """The vectors of some texts (float32, one row per text, in order), what they cost, in how many calls."""

    model: str
    vectors: np.ndarray
    texts: int
    tokens: int
    batches: int


def embed_in_batches(embedder: DenseEmbedder, texts: Sequence[str],
                     batch_size: int = DEFAULT_BATCH_SIZE) -> EmbeddedTexts:
    """Embed ``texts`` with ``embedder`` as documents, ``batch_size`` per call.

    No text gives a ``(0, 0)`` matrix and no call at all.
    """
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, not {batch_size}")
    parts, tokens = [], 0
    for start in range(0, len(texts), batch_size):
        result = embedder.embed_documents(list(texts[start:start + batch_size]))
        parts.append(np.asarray(result.vectors, dtype=np.float32))
        tokens += int(result.tokens)
    vectors = np.vstack(parts) if parts else np.zeros((0, 0), dtype=np.float32)
    return EmbeddedTexts(model=embedder.name, vectors=vectors, texts=len(texts), tokens=tokens, batches=len(parts))
