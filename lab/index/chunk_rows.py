"""Chunks and their vectors: one row per chunk in ``chunks``, and each model's rows beside it.

The ``chunks`` table holds a chunk's text and the metadata every model's rows share. Vectors of
different models live side by side but are never compared: every read names its model, and a
vector whose dimension differs from what the model was stored with is refused. A dense model
(LSA, Voyage AI) keeps one float32 BLOB per chunk in ``vectors``; a sparse model (TF-IDF) keeps
term counts instead (:mod:`lab.index.term_count_rows`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp

from lab.index.errors import ModelMismatchError
from lab.index.rows import batches, field_of, id_list, marks, optional_field_of
from lab.index.schema import CHUNK_FIELDS
from lab.vectors.tfidf import TfidfVectorizer

__all__ = ["ChunkRows"]

_CHUNK_COLUMNS = "id, page_id, title, type, section, ord, text, tokens, fingerprint, edited, version"


class ChunkRows:
    """Chunks, the models that hold vectors of them, and dense vectors (a part of ``IndexStore``)."""

    _db: sqlite3.Connection

    def models(self) -> dict[str, int]:
        """Every model with vectors in the index, and its dimension (a term count model's is its
        vocabulary: the terms some stored chunk contains)."""
        stored = dict(self._db.execute("SELECT model, dimension FROM models ORDER BY model"))
        for model in self._count_models():
            stored[model] = self._db.execute("SELECT COUNT(*) FROM terms").fetchone()[0]
        return stored

    def _count_models(self) -> list[str]:
        return [row[0] for row in self._db.execute("SELECT model FROM models WHERE kind = 'counts' ORDER BY model")]

    def _kind(self, model: str) -> str | None:
        row = self._db.execute("SELECT kind FROM models WHERE model = ?", (model,)).fetchone()
        return row[0] if row else None

    def _register(self, model: str, dimension: int) -> None:
        row = self._db.execute("SELECT kind, dimension FROM models WHERE model = ?", (model,)).fetchone()
        if row is None:
            self._db.execute("INSERT INTO models VALUES (?, 'dense', ?, NULL)", (model, dimension))
        elif row[0] == "counts":
            raise ModelMismatchError(f"model {model!r} is stored as term counts (sparse); refusing dense vectors "
                                     "under its name. Store them under a name of their own.")
        elif row[1] != dimension:
            raise ModelMismatchError(f"model {model!r} is stored with dimension {row[1]}; refusing vectors of "
                                     f"dimension {dimension}. A different dimension is a different model: "
                                     "store it under its own name.")

    def require_model(self, model: str, dimension: int | None = None) -> int:
        """The stored dimension of ``model``; a clear error if the index has no such vectors."""
        stored = self.models()
        if model not in stored:
            held = ", ".join(f"{m} ({d})" for m, d in stored.items()) or "no vectors at all"
            raise ModelMismatchError(f"the index has no vectors for model {model!r}; it holds {held}")
        if dimension is not None and stored[model] != dimension:
            raise ModelMismatchError(f"model {model!r} is stored with dimension {stored[model]}, but the query "
                                     f"vector has dimension {dimension}: it was made by another model")
        return stored[model]

    def drop_model(self, model: str) -> None:
        """Forget ``model`` and its rows; chunks no other model holds go with them."""
        with self.transaction():
            if self._kind(model) == "counts":
                self._db.execute("DELETE FROM term_counts")
                self._db.execute("DELETE FROM terms")
            else:
                self._db.execute("DELETE FROM vectors WHERE model = ?", (model,))
            self._db.execute("DELETE FROM models WHERE model = ?", (model,))
            self._db.execute("DELETE FROM chunks WHERE id NOT IN (SELECT id FROM vectors) "
                             "AND id NOT IN (SELECT id FROM term_counts)")

    def _put_rows(self, chunks: Sequence[Any]) -> None:
        """Insert or update the chunks' own columns (every model's rows of a chunk share them); a chunk
        without a ``version`` has none (``NULL``)."""
        self._db.executemany(
            "INSERT INTO chunks VALUES (?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (id) DO UPDATE SET "
            "page_id = excluded.page_id, title = excluded.title, type = excluded.type, section = excluded.section, "
            "ord = excluded.ord, text = excluded.text, tokens = excluded.tokens, fingerprint = excluded.fingerprint, "
            "edited = excluded.edited, version = excluded.version",
            [(field_of(c, "id"), field_of(c, "page_id"), field_of(c, "title"), field_of(c, "type"), field_of(c, "section"),
              int(field_of(c, "order")), field_of(c, "text"), int(field_of(c, "tokens")), field_of(c, "fingerprint"),
              field_of(c, "edited"), optional_field_of(c, "version")) for c in chunks])

    def put_chunks(self, chunks: Sequence[Any], vectors: np.ndarray, model: str) -> None:
        """Insert or replace ``chunks`` with their dense vectors (one row each) for ``model``."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(chunks):
            raise ValueError(f"need one vector per chunk: {len(chunks)} chunks, vectors of shape {vectors.shape}")
        bad = np.flatnonzero(~np.isfinite(vectors).all(axis=1))
        if bad.size:  # a stored NaN makes every cosine with it NaN: a chunk no search ever finds
            raise ValueError(f"the vector of chunk {field_of(chunks[int(bad[0])], 'id')!r} ({bad.size} in all) holds "
                             f"NaN or infinity; check the {model!r} model and its input. Nothing was written")
        with self.transaction():
            self._register(model, int(vectors.shape[1]))
            self._put_rows(chunks)
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                                 [(field_of(c, "id"), model, vectors[i].tobytes()) for i, c in enumerate(chunks)])

    def replace_model(self, chunks: Sequence[Any], vectors: np.ndarray, model: str) -> None:
        """Make ``model``'s rows exactly these chunks (a refit LSA changes every vector)."""
        with self.transaction():
            self.drop_model(model)
            if len(chunks):
                self.put_chunks(chunks, vectors, model)

    def update_chunks(self, chunks: Sequence[Any]) -> None:
        """Rewrite what these chunks carry (page, title, type, section, order, text, tokens,
        fingerprint, last edit, version), keeping every model's vectors: for a chunk whose text did not
        change but whose page did (a newer ``last_edited_time``, a new position, a new version)."""
        with self.transaction():
            self._db.executemany(
                "UPDATE chunks SET page_id = ?, title = ?, type = ?, section = ?, ord = ?, text = ?, tokens = ?, "
                "fingerprint = ?, edited = ?, version = ? WHERE id = ?",
                [(field_of(c, "page_id"), field_of(c, "title"), field_of(c, "type"), field_of(c, "section"),
                  int(field_of(c, "order")), field_of(c, "text"), int(field_of(c, "tokens")), field_of(c, "fingerprint"),
                  field_of(c, "edited"), optional_field_of(c, "version"), field_of(c, "id")) for c in chunks])

    def delete_chunks(self, ids: Iterable[str]) -> int:
        """Remove these chunk ids under every model; the number of chunk ids that existed."""
        ids = list(dict.fromkeys(id_list(ids, "ids")))
        with self.transaction():
            self._forget_counts(ids)
            existed = 0
            for batch in batches(ids):
                self._db.execute(f"DELETE FROM vectors WHERE id IN ({marks(batch)})", batch)
                existed += self._db.execute(f"DELETE FROM chunks WHERE id IN ({marks(batch)})", batch).rowcount
            return existed

    def chunk_ids(self, page_id: str | None = None) -> dict[str, str]:
        """Chunk id -> fingerprint (every chunk, or one page's), whatever the model."""
        query = "SELECT id, fingerprint FROM chunks"
        rows = self._db.execute(query + (" WHERE page_id = ?" if page_id else "") + " ORDER BY id",
                                (page_id,) if page_id else ())
        return dict(rows)

    def page_chunks(self, page_ids: Iterable[str], ids: Iterable[str] = ()) -> dict[str, tuple[str, str]]:
        """Chunk id -> (page id, fingerprint) of every chunk cut from these pages, and of these chunk
        ids wherever they are (read through the page index and the key: a sync looks up the pages
        it read, not every chunk)."""
        found: dict[str, tuple[str, str]] = {}
        for column, values in (("page_id", id_list(page_ids, "page_ids")), ("id", id_list(ids, "ids"))):
            for batch in batches(values):
                found.update((cid, (page, fp)) for cid, page, fp in self._db.execute(
                    f"SELECT id, page_id, fingerprint FROM chunks WHERE {column} IN ({marks(batch)})", batch))
        return dict(sorted(found.items()))

    def count_page_chunks(self, page_ids: Iterable[str]) -> int:
        """How many chunks were cut from these pages (counted in the file: a sync about to remove pages
        weighs them against the guardrail without loading them)."""
        total = 0
        for batch in batches(id_list(page_ids, "page_ids")):
            total += self._db.execute(f"SELECT COUNT(*) FROM chunks WHERE page_id IN ({marks(batch)})",
                                      batch).fetchone()[0]
        return total

    def chunk_batches(self, size: int = 1000) -> Iterator[list[dict[str, Any]]]:
        """Every stored chunk row (as :meth:`chunks` gives them), ``size`` at a time in id order: a run
        that counts the whole index again reads it a batch at a time, never all at once."""
        after = ""
        while True:
            rows = self._db.execute(f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE id > ? ORDER BY id LIMIT ?",
                                    (after, size)).fetchall()
            if not rows:
                return
            yield [dict(zip(CHUNK_FIELDS, row)) for row in rows]
            after = rows[-1][0]

    def count_chunks(self, model: str | None = None) -> int:
        """Distinct chunks (or rows of one model)."""
        if model is None:
            return self._db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
        if self._kind(model) == "counts":
            return self._db.execute("SELECT COUNT(*) FROM term_counts").fetchone()[0]
        return self._db.execute("SELECT COUNT(*) FROM vectors WHERE model = ?", (model,)).fetchone()[0]

    def dense_model_names(self) -> list[str]:
        """The models whose vectors are dense rows, in name order, found without counting anything (:meth:`models`
        counts the vocabulary of a term count model)."""
        return [row[0] for row in self._db.execute("SELECT model FROM models WHERE kind = 'dense' ORDER BY model")]

    def holds_model(self, model: str) -> bool:
        """Whether ``model`` is registered in the index, without counting its vocabulary (:meth:`models` does)."""
        return self._kind(model) is not None

    def holds_rows(self, model: str) -> bool:
        """Whether ``model`` holds a row of any chunk, found without counting every row."""
        if self._kind(model) == "counts":
            return self._db.execute("SELECT EXISTS (SELECT 1 FROM term_counts)").fetchone()[0] == 1
        return self._db.execute("SELECT EXISTS (SELECT 1 FROM vectors WHERE model = ?)", (model,)).fetchone()[0] == 1

    def chunks(self, model: str | None = None, ids: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """The stored chunk rows, in id order, without vectors: every chunk, or those ``model`` holds rows
        of; only those of ``ids`` if given (looked up by key, so a run that touched a few chunks reads
        only those)."""
        select = ("SELECT c.id, c.page_id, c.title, c.type, c.section, c.ord, c.text, c.tokens, c.fingerprint, "
                  "c.edited, c.version FROM chunks c")
        conditions: list[str] = []
        params: list[Any] = []
        if model is not None:
            self.require_model(model)
            if self._kind(model) == "counts":
                select += " JOIN term_counts r ON r.id = c.id"
            else:
                select += " JOIN vectors r ON r.id = c.id"
                conditions, params = ["r.model = ?"], [model]
        wanted = None if ids is None else sorted(set(id_list(ids, "ids")))
        found = []
        for batch in [None] if wanted is None else batches(wanted):
            where = [*conditions] if batch is None else [*conditions, f"c.id IN ({marks(batch)})"]
            query = select + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY c.id"
            found.extend(dict(zip(CHUNK_FIELDS, row)) for row in self._db.execute(query, [*params, *(batch or [])]))
        return found if wanted is None else sorted(found, key=lambda row: row["id"])

    def vectors(self, model: str) -> tuple[list[str], np.ndarray]:
        """Chunk ids and the ``(n, dimension)`` float32 matrix of one model, in id order.

        A term count model's rows are its TF-IDF vectors, made dense: fine for a lesson's index,
        too large for a big one (search it with :class:`~lab.retrieval.IndexSearcher` instead).
        """
        dimension = self.require_model(model)
        if self._kind(model) == "counts":
            ids, matrix = self._tfidf(model)
            return ids, matrix.toarray()
        rows = self._db.execute("SELECT id, vector FROM vectors WHERE model = ? ORDER BY id", (model,)).fetchall()
        matrix = np.zeros((len(rows), dimension), dtype=np.float32)
        for i, (_, blob) in enumerate(rows):
            matrix[i] = np.frombuffer(blob, dtype=np.float32)
        return [r[0] for r in rows], matrix

    def _tfidf(self, model: str) -> tuple[list[str], sp.csr_matrix]:
        stored = self.term_counts(model)
        matrix = TfidfVectorizer().fit_transform_counts(stored.counts, stored.terms)
        return stored.ids, matrix.astype(np.float32)
