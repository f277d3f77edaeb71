"""Texts waiting for a dense model in a PostgreSQL workspace, claimed by embedding workers on any machine.

A run that shares its embedding (``notion-lab index --embed-queue``) puts each text its index lacks a
vector for in the workspace's ``embedding_queue`` table; every worker (``notion-lab embed --db ...``,
and the run itself) claims a few rows at a time with ``SELECT ... FOR UPDATE SKIP LOCKED``, embeds
them while its transaction holds their row locks, writes the vectors and commits. Workers never wait
for each other and never take the same row: a locked row is skipped, a row with a vector is done.

A worker that dies (killed, its machine gone) holds its claims only as long as its transaction: when
its connection ends, PostgreSQL rolls the transaction back and the rows are pending again for the next
worker. A worker's session also sets ``idle_in_transaction_session_timeout``, so that a machine that
vanishes without closing its connection frees its claims within minutes. The run that queued the texts
reads their vectors once every one has its own, and removes its rows. The queue is not part of the
index a search reads, nor of its schema version: it is created on first use in an existing index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from lab.index.errors import IndexOpenError
from lab.index.postgres import PostgresTarget, connection_failure, is_postgres_url

__all__ = ["EmbeddingQueue", "QUEUE_TABLE", "CLAIM_TIMEOUT"]

QUEUE_TABLE = "embedding_queue"
#: How long a worker may hold claims without a word to the server before PostgreSQL ends its session.
CLAIM_TIMEOUT = "5min"

_CREATE = (f"CREATE TABLE IF NOT EXISTS {QUEUE_TABLE} (key TEXT PRIMARY KEY, model TEXT NOT NULL, "
           "text TEXT NOT NULL, vector BYTEA, embedded_by TEXT)")


class EmbeddingQueue:
    """The embedding queue of one PostgreSQL workspace, on a connection of its own (``url`` as
    :class:`~lab.index.IndexStore` takes it; the workspace's index must exist)."""

    def __init__(self, url: str, worker: str = "") -> None:
        if not is_postgres_url(url):
            raise IndexOpenError(url, "is not a PostgreSQL URL; workers on other machines share an index only in "
                                      "PostgreSQL (postgresql://...)")
        import psycopg

        self.target, self.worker = PostgresTarget(url), worker
        try:
            self._connection = psycopg.connect(self.target.conninfo, autocommit=True, connect_timeout=10)
        except psycopg.Error as error:
            raise IndexOpenError(self.target.display, connection_failure(error)) from None
        tables = {row[0] for row in self._connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s", (self.target.schema,))}
        if "meta" not in tables:
            self._connection.close()
            raise IndexOpenError(self.target.display, "holds no index yet: start the index run first (notion-lab "
                                                      "index --db ...), then the workers")
        self._connection.execute(f'SET search_path TO "{self.target.schema}"')
        self._connection.execute(f"SET idle_in_transaction_session_timeout = '{CLAIM_TIMEOUT}'")
        self._connection.execute(_CREATE)

    def __repr__(self) -> str:
        return f"EmbeddingQueue({self.target.display!r})"  # never the password

    def __enter__(self) -> EmbeddingQueue:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._connection.close()

    def put(self, model: str, texts: Mapping[str, str]) -> None:
        """Queue these texts (by key) for ``model``; a key queued already stays as it is."""
        with self._connection.transaction():
            self._connection.cursor().executemany(
                f"INSERT INTO {QUEUE_TABLE} (key, model, text) VALUES (%s, %s, %s) ON CONFLICT (key) DO NOTHING",
                [(key, model, text) for key, text in texts.items()])

    def embed_some(self, model: str, embed: Callable[[list[str]], np.ndarray], limit: int,
                   keys: Sequence[str] | None = None) -> int:
        """Claim up to ``limit`` pending texts of ``model`` (among ``keys`` if given), embed them with
        ``embed`` while holding their locks, keep their vectors; how many were embedded (0: none was free).

        If ``embed`` raises, the claims are given back and the exception goes on.
        """
        with self._connection.transaction():
            where = "model = %s AND vector IS NULL" + (" AND key = ANY(%s)" if keys is not None else "")
            parameters: list[Any] = [model] + ([list(keys)] if keys is not None else [])
            rows = self._connection.execute(
                f"SELECT key, text FROM {QUEUE_TABLE} WHERE {where} ORDER BY key LIMIT %s FOR UPDATE SKIP LOCKED",
                [*parameters, limit]).fetchall()
            if not rows:
                return 0
            vectors = np.asarray(embed([text for _, text in rows]), dtype=np.float32)
            if vectors.shape[0] != len(rows) or not np.isfinite(vectors).all():
                raise ValueError(f"{model} returned vectors of shape {vectors.shape} (or not finite) for {len(rows)} "
                                 "texts; the claims are given back")
            self._connection.cursor().executemany(
                f"UPDATE {QUEUE_TABLE} SET vector = %s, embedded_by = %s WHERE key = %s",
                [(vectors[i].tobytes(), self.worker, key) for i, (key, _) in enumerate(rows)])
        return len(rows)

    def vectors(self, keys: Iterable[str]) -> dict[str, np.ndarray]:
        """The vectors the queue holds for these keys (a key still pending, or not queued, is left out)."""
        rows = self._connection.execute(f"SELECT key, vector FROM {QUEUE_TABLE} WHERE key = ANY(%s) AND vector IS "
                                        "NOT NULL", (list(keys),))
        return {key: np.frombuffer(vector, dtype=np.float32) for key, vector in rows}

    def pending(self, model: str | None = None) -> int:
        """How many texts wait for a vector (of ``model``, or of any), claimed or not."""
        where = "vector IS NULL" + (" AND model = %s" if model is not None else "")
        return self._connection.execute(f"SELECT COUNT(*) FROM {QUEUE_TABLE} WHERE {where}",
                                        () if model is None else (model,)).fetchone()[0]

    def remove(self, keys: Iterable[str]) -> None:
        """Take these texts out of the queue (their run has read their vectors)."""
        self._connection.execute(f"DELETE FROM {QUEUE_TABLE} WHERE key = ANY(%s)", (list(keys),))

    def embedded_by(self) -> dict[str, str]:
        """Which worker embedded each text that has a vector (what a test or an operator checks)."""
        return dict(self._connection.execute(f"SELECT key, embedded_by FROM {QUEUE_TABLE} WHERE vector IS NOT NULL"))
