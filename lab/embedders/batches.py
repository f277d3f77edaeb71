"""Embedding many texts in batches, before anything is written.

A run or a model switch sends its texts to the embedder ``batch_size`` at a time (fewer calls,
same tokens billed) and keeps every vector in memory: a failure part way through raises before
the first write, so the index never holds half a batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lab.errors import LabError
from lab.embedders.protocol import DenseEmbedder

__all__ = ["EmbeddedTexts", "EmbeddingError", "embed_in_batches", "DEFAULT_BATCH_SIZE"]

DEFAULT_BATCH_SIZE = 32


class EmbeddingError(LabError, ValueError):
    """An embedder answered with something that is not one finite vector per text; nothing was written."""


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
        batch = list(texts[start:start + batch_size])
        result = embedder.embed_documents(batch)
        parts.append(_checked_vectors(embedder.name, getattr(result, "vectors", None), len(batch), start))
        tokens += int(result.tokens)
    vectors = np.vstack(parts) if parts else np.zeros((0, 0), dtype=np.float32)
    return EmbeddedTexts(model=embedder.name, vectors=vectors, texts=len(texts), tokens=tokens, batches=len(parts))


def _checked_vectors(model: str, vectors: object, count: int, first: int) -> np.ndarray:
    """One batch's vectors as float32, if they are one finite row per text: a NaN stored in the index
    would make every cosine with it NaN, a chunk no search ever finds."""
    if vectors is None:
        raise EmbeddingError(f"{model} returned no vectors (a result with `vectors`, one row per text, is "
                             "expected); nothing was written")
    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.ndim != 2 or matrix.shape[0] != count:
        raise EmbeddingError(f"{model} returned vectors of shape {matrix.shape} for {count} texts; expected one row "
                             "per text. Nothing was written")
    bad = np.flatnonzero(~np.isfinite(matrix).all(axis=1))
    if bad.size:
        raise EmbeddingError(f"{model} returned a vector holding NaN or infinity for text {first + int(bad[0])} "
                             f"({bad.size} in its batch): check the model and its input. Nothing was written")
    return matrix
