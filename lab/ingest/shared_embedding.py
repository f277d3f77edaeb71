"""Embedding shared with workers on other machines through a PostgreSQL index's queue.

:class:`QueuedEmbedder` is what a run embeds with when it shares the work: each call queues the texts
(:class:`~lab.index.embedding_queue.EmbeddingQueue`), embeds what it can claim itself with its own
model, waits while other workers hold the rest, and answers once every text has a vector, in the
order of the texts, as any embedder would. So the run publishes only when every chunk has its vector,
and the index it writes is the one it would write alone (vectors made on another CPU are as close as
any two machines' are; see :mod:`lab.embedders.e5_onnx`).

:func:`embed_pending` is a worker's loop (``notion-lab embed --db postgresql://...``): claim, embed,
keep, until the queue has stayed empty for a while.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from lab.embedders import text_key
from lab.embedders.batches import EmbeddedTexts
from lab.index.embedding_queue import EmbeddingQueue

__all__ = ["QueuedEmbedder", "embed_pending", "CLAIM_SIZE"]

#: Texts a worker claims at a time: a few seconds of work, so a killed worker loses little.
CLAIM_SIZE = 8


class QueuedEmbedder:
    """``local`` (a dense embedder) sharing its texts with the workers of ``queue``.

    ``poll`` is how long to sleep, in seconds, when every text left is claimed by another worker.
    """

    def __init__(self, queue: EmbeddingQueue, local: Any, poll: float = 0.2,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.queue, self.local, self.poll, self.sleep = queue, local, poll, sleep
        self.name = local.name
        self.max_input_tokens = getattr(local, "max_input_tokens", None)
        self.embedded_here = 0  # texts this process embedded itself; the others came from workers

    def __repr__(self) -> str:
        return f"QueuedEmbedder({self.queue!r}, {self.local!r})"

    def embed_documents(self, texts: Sequence[str]) -> EmbeddedTexts:
        """Unit float32 rows, one per text, in order; each text embedded once, here or by a worker."""
        texts = list(texts)
        if not texts:
            return EmbeddedTexts(model=self.name, vectors=np.zeros((0, 0), dtype=np.float32), texts=0, tokens=0,
                                 batches=0)
        keys = [text_key(self.name, "passage", text) for text in texts]
        unique = dict(zip(keys, texts))
        self.queue.put(self.name, unique)
        found: dict[str, np.ndarray] = {}
        while True:
            claimed = self.queue.embed_some(self.name, self._embed, CLAIM_SIZE, keys=list(unique))
            self.embedded_here += claimed
            if claimed:
                continue
            found = self.queue.vectors(unique)
            if len(found) == len(unique):
                break
            self.sleep(self.poll)  # the rest are claimed by other workers: they finish, or die and free them
        self.queue.remove(unique)
        return EmbeddedTexts(model=self.name, vectors=np.stack([found[key] for key in keys]), texts=len(texts),
                             tokens=0, batches=0)

    def embed_query(self, text: str) -> np.ndarray:
        """A question's vector, from the local model (a question is never queued)."""
        return self.local.embed_query(text)

    def _embed(self, texts: list[str]) -> np.ndarray:
        return self.local.embed_documents(texts).vectors


def embed_pending(queue: EmbeddingQueue, embedder: Any, idle_exit: float = 60.0, poll: float = 1.0,
                  on_embedded: Callable[[int], None] | None = None, sleep: Callable[[float], None] = time.sleep,
                  clock: Callable[[], float] = time.monotonic) -> int:
    """Embed the queue's pending texts of ``embedder``'s model until none has come for ``idle_exit``
    seconds; how many this worker embedded. ``on_embedded(n)`` is told after each claim it kept."""
    total, idle_since = 0, clock()
    while True:
        claimed = queue.embed_some(embedder.name, lambda texts: embedder.embed_documents(texts).vectors, CLAIM_SIZE)
        if claimed:
            total += claimed
            idle_since = clock()
            if on_embedded is not None:
                on_embedded(claimed)
            continue
        if clock() - idle_since >= idle_exit:
            return total
        sleep(poll)
