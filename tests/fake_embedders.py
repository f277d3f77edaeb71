"""Dense embedders for tests that need vectors whose geometry is known, without a model."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from types import SimpleNamespace

import numpy as np


class TopicEmbedder:
    """One axis per topic word (its count in the text), plus a small constant axis so that a text
    with no topic word still has a direction; records every call's texts in ``calls``."""

    name = "topic-words"

    def __init__(self, topics: Sequence[str] = ("pan", "envío", "pago")) -> None:
        self.topics = tuple(topics)
        self.calls: list[list[str]] = []

    def embed_documents(self, texts: Sequence[str]) -> SimpleNamespace:
        self.calls.append(list(texts))
        rows = np.array([[text.count(word) for word in self.topics] + [0.1] for text in texts], dtype=np.float32)
        return SimpleNamespace(vectors=rows / np.linalg.norm(rows, axis=1, keepdims=True))


class HashEmbedder:
    """A pseudo-random unit vector per text, the same for the same text in every run."""

    name = "text-hash"

    def embed_documents(self, texts: Sequence[str]) -> SimpleNamespace:
        rows = [np.random.default_rng(int(hashlib.sha256(t.encode()).hexdigest()[:8], 16)).normal(size=8)
                for t in texts]
        return SimpleNamespace(vectors=np.array([r / np.linalg.norm(r) for r in rows], dtype=np.float32))
