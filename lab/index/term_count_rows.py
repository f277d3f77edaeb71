"""A sparse model's rows: each chunk's term counts, and every term once with its document frequency.

A sparse model (TF-IDF) keeps what its vectors are made of: each chunk's term counts in
``term_counts`` (term ids and counts, int32 BLOBs) and, in ``terms``, every term once with the
number of chunks that contain it. Writing or deleting a chunk moves those document frequencies
with it, so an edit touches only its own chunks' rows and the frequencies of their terms, and a
term no chunk holds any more leaves the vocabulary; the idf and unit rows are computed when the
index is read (:mod:`lab.index.models` says why).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from lab.index.errors import ModelMismatchError
from lab.index.rows import batches, field_of, marks

__all__ = ["TermCounts", "TermCountRows"]


@dataclass(frozen=True, kw_only=True)
class TermCounts:
    """A sparse model's rows as stored: how often each term occurs in each chunk.

    ``counts`` is a CSR int32 matrix, one row per chunk of ``ids`` (id order), one column per
    term of ``terms`` (sorted, the vocabulary's column order); ``document_frequency[j]`` is how
    many chunks contain ``terms[j]``, kept up to date by every write; ``analyzer`` is the repr
    of the analyzer that made the terms.
    """

    model: str
    analyzer: str
    ids: list[str]
    counts: sp.csr_matrix
    terms: list[str]
    document_frequency: np.ndarray


class TermCountRows:
    """Term counts of the one sparse model an index keeps, and its vocabulary (a part of ``IndexStore``)."""

    _db: sqlite3.Connection

    def _register_counts(self, model: str, analyzer: str) -> None:
        held = self._count_models()
        if held and held != [model]:
            raise ModelMismatchError(f"the index keeps term counts for {held[0]!r}; one index keeps one model's "
                                     f"counts, so {model!r} cannot add its own")
        row = self._db.execute("SELECT kind, analyzer FROM models WHERE model = ?", (model,)).fetchone()
        if row is None:
            self._db.execute("INSERT INTO models VALUES (?, 'counts', 0, ?)", (model, analyzer))
        elif row[0] != "counts":
            raise ModelMismatchError(f"model {model!r} is stored as dense vectors; refusing term counts under its "
                                     "name. Store them under a name of their own.")
        elif row[1] != analyzer:
            raise ModelMismatchError(f"model {model!r} was counted with {row[1]}, not {analyzer}: counts of two "
                                     "analyzers do not mix. Replace every chunk's counts (replace_term_counts).")

    def counts_analyzer(self, model: str) -> str | None:
        """The analyzer (its repr) whose terms a term count model holds; ``None`` if it holds none."""
        row = self._db.execute("SELECT analyzer FROM models WHERE model = ? AND kind = 'counts'", (model,)).fetchone()
        return row[0] if row else None

    def put_term_counts(self, chunks: Sequence[Any], counts: sp.csr_matrix, terms: Sequence[str], model: str,
                        analyzer: str) -> None:
        """Insert or replace ``chunks`` with their term counts for the sparse model ``model``.

        ``counts`` has one row per chunk and one column per term of ``terms`` (any order);
        ``analyzer`` names what made the terms (a repr), so that counts of two analyzers never
        mix. The document frequencies of the chunks' old and new terms move with them.
        """
        counts = sp.csr_matrix(counts)
        if counts.shape != (len(chunks), len(terms)):
            raise ValueError(f"need one row per chunk and one column per term: {len(chunks)} chunks, {len(terms)} "
                             f"terms, counts of shape {counts.shape}")
        counts.eliminate_zeros()
        ids = [field_of(c, "id") for c in chunks]
        with self.transaction():
            self._register_counts(model, analyzer)
            self._forget_counts(ids)
            self._put_rows(chunks)
            used = np.flatnonzero(np.bincount(counts.indices, minlength=len(terms)))
            term_id = np.zeros(len(terms), dtype=np.int32)
            term_id[used] = self._term_ids([terms[j] for j in used])
            indices, data, indptr = term_id[counts.indices], counts.data.astype(np.int32), counts.indptr
            self._db.executemany("INSERT INTO term_counts VALUES (?, ?, ?)",
                                 [(chunk_id, indices[indptr[i]:indptr[i + 1]].tobytes(),
                                   data[indptr[i]:indptr[i + 1]].tobytes()) for i, chunk_id in enumerate(ids)])
            self._move_document_frequencies(indices, +1)

    def clear_term_counts(self, model: str, analyzer: str) -> None:
        """Forget every chunk's term counts and the whole vocabulary but keep the chunk rows, and make
        ``model`` the sparse model ``analyzer`` counts: a full index then counts its chunks batch by batch
        (:meth:`put_term_counts`), and still tells a chunk it holds again from a new one."""
        with self.transaction():
            self._db.execute("DELETE FROM term_counts")
            self._db.execute("DELETE FROM terms")
            self._db.execute("DELETE FROM models WHERE model = ? AND kind = 'counts'", (model,))
            self._register_counts(model, analyzer)

    def replace_term_counts(self, chunks: Sequence[Any], counts: sp.csr_matrix, terms: Sequence[str], model: str,
                            analyzer: str) -> None:
        """Make ``model``'s rows exactly these chunks' term counts (a new analyzer counts every chunk again)."""
        with self.transaction():
            self.drop_model(model)
            if len(chunks):
                self.put_term_counts(chunks, counts, terms, model, analyzer)

    def _term_ids(self, terms: Sequence[str]) -> np.ndarray:
        """The id of every term, given one to the terms the index has not seen (with no document yet)."""
        known: dict[str, int] = {}
        for batch in batches(terms):
            known.update(self._db.execute(f"SELECT term, term_id FROM terms WHERE term IN ({marks(batch)})", batch))
        new = [term for term in terms if term not in known]
        for term in new:
            known[term] = self._db.execute("INSERT INTO terms (term, df) VALUES (?, 0)", (term,)).lastrowid
        return np.fromiter(map(known.__getitem__, terms), dtype=np.int32, count=len(terms))

    def _move_document_frequencies(self, term_ids: np.ndarray, sign: int) -> None:
        """Add (``sign`` +1) or remove (-1) one document per occurrence of a term id among rows written or
        dropped (each row holds a term once); terms no document holds any more leave the vocabulary."""
        touched, documents = np.unique(term_ids, return_counts=True)
        self._db.executemany("UPDATE terms SET df = df + ? WHERE term_id = ?",
                             zip((sign * documents).tolist(), touched.tolist()))
        if sign < 0:
            self._db.executemany("DELETE FROM terms WHERE term_id = ? AND df = 0", ((t,) for t in touched.tolist()))

    def _forget_counts(self, ids: Sequence[str]) -> None:
        """Remove these chunks' term counts, if any, and their documents from the frequencies."""
        dropped: list[bytes] = []
        for batch in batches(ids):
            dropped.extend(blob for (blob,) in self._db.execute(
                f"SELECT terms FROM term_counts WHERE id IN ({marks(batch)})", batch))
            self._db.execute(f"DELETE FROM term_counts WHERE id IN ({marks(batch)})", batch)
        if dropped:
            self._move_document_frequencies(np.frombuffer(b"".join(dropped), dtype=np.int32), -1)

    def term_counts(self, model: str) -> TermCounts:
        """The term counts of a sparse model, rows in chunk id order, columns in sorted term order."""
        self.require_model(model)
        if self._kind(model) != "counts":
            raise ModelMismatchError(f"model {model!r} is stored as dense vectors, not term counts")
        with self.read_transaction():
            vocabulary = self._db.execute("SELECT term_id, term, df FROM terms ORDER BY term").fetchall()
            ids, term_blobs, count_blobs = [], [], []
            for chunk_id, term_blob, count_blob in self._db.execute("SELECT id, terms, counts FROM term_counts "
                                                                    "ORDER BY id"):
                ids.append(chunk_id)
                term_blobs.append(term_blob)
                count_blobs.append(count_blob)
            analyzer = self.counts_analyzer(model) or ""
        term_ids = np.fromiter((row[0] for row in vocabulary), dtype=np.int64, count=len(vocabulary))
        column_of = np.full(int(term_ids.max(initial=-1)) + 1, -1, dtype=np.int32)
        column_of[term_ids] = np.arange(len(vocabulary), dtype=np.int32)
        indptr = np.zeros(len(ids) + 1, dtype=np.int64)
        np.cumsum([len(blob) // 4 for blob in term_blobs], out=indptr[1:])
        indices = column_of[np.frombuffer(b"".join(term_blobs), dtype=np.int32)]
        del term_blobs
        data = np.frombuffer(b"".join(count_blobs), dtype=np.int32).copy()
        counts = sp.csr_matrix((data, indices, indptr), shape=(len(ids), len(vocabulary)))
        counts.has_sorted_indices = False
        counts.sort_indices()
        return TermCounts(model=model, analyzer=analyzer, ids=ids, counts=counts,
                          terms=[row[1] for row in vocabulary],
                          document_frequency=np.array([row[2] for row in vocabulary], dtype=np.int64))
