"""The staging area: what a run has read and embedded, kept in the index file outside the published index.

A run reads for a long time (a first index of 10,000 pages at 3 requests per second reads for about
two hours) and publishes in one transaction. Everything it gathers on the way is kept here, one
commit at a time, so that neither a crash nor the size of the workspace decides what it can hold:

- ``staged_pages``: each page read (its page object, its blocks, the document it sits in), under
  a key: a first index keeps its reads under the data source's id, so that a run started again
  resumes from them. A run publishes its pages from here a batch at a time, so it never holds
  them all at once.
- ``staged_vectors``: each dense vector a run has embedded, by model and SHA-256 of the text
  (:func:`~lab.embedders.text_key`), embedded before the publishing transaction (a paid model
  is a network call) and read by it batch by batch; a run started again embeds nothing twice.

Nothing here is part of the index a search reads (:meth:`~lab.index.IndexStore.state` leaves it
out), and a first index empties it when it publishes. A sync, which does not resume, keeps its
reads in a staging area of its own, in a private temporary file (``IndexStore("")``), so that the
index file is not written at all before it publishes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from lab.index.rows import batches, id_list, marks

__all__ = ["StagedPage", "Staging"]


@dataclass(frozen=True, kw_only=True)
class StagedPage:
    """One page a run read and kept before publishing: its read, encoded as text."""

    page_id: str
    parent_id: str | None
    read_at: str
    body: str


class Staging:
    """Page reads and dense vectors kept for a run that has not published yet (a part of ``IndexStore``)."""

    _db: sqlite3.Connection

    def stage_page(self, page: StagedPage, data_source_id: str) -> None:
        """Keep one page a run has read under the key ``data_source_id`` (committed at once, outside the
        published index); a read kept under the same key before is replaced."""
        with self.transaction():
            self._db.execute("INSERT OR REPLACE INTO staged_pages VALUES (?,?,?,?,?)",
                             (page.page_id, data_source_id, page.parent_id, page.read_at, page.body))

    def staged_pages(self, data_source_id: str) -> list[StagedPage]:
        """The pages kept under this key, in page id order."""
        return list(self.each_staged_page(data_source_id))

    def each_staged_page(self, data_source_id: str) -> Iterator[StagedPage]:
        """The pages kept under this key, in page id order, read from the file one at a time (a resumed
        first index of 100,000 pages looks at each once, never at all of them together)."""
        for row in self._db.execute("SELECT page_id, parent_id, read_at, body FROM staged_pages "
                                    "WHERE data_source_id = ? ORDER BY page_id", (data_source_id,)):
            yield StagedPage(page_id=row[0], parent_id=row[1], read_at=row[2], body=row[3])

    def each_staged_read(self, data_source_id: str, page_ids: Iterable[str]) -> Iterator[StagedPage]:
        """The reads kept under this key of these pages, one at a time, in no particular order (a page with
        none is left out): a run publishing a batch of pages holds one page's blocks at a time."""
        for batch in batches(id_list(page_ids, "page_ids")):
            for row in self._db.execute(f"SELECT page_id, parent_id, read_at, body FROM staged_pages WHERE "
                                        f"data_source_id = ? AND page_id IN ({marks(batch)})",
                                        [data_source_id, *batch]):
                yield StagedPage(page_id=row[0], parent_id=row[1], read_at=row[2], body=row[3])

    def staged_count(self) -> int:
        """How many pages an interrupted first index left in the staging area."""
        return self._db.execute("SELECT COUNT(*) FROM staged_pages").fetchone()[0]

    def clear_staged(self) -> None:
        """Empty the staging area, reads and vectors (when the index they were gathered for is published)."""
        with self.transaction():
            self._db.execute("DELETE FROM staged_pages")
            self._db.execute("DELETE FROM staged_vectors")

    def stage_vectors(self, keys: Sequence[str], vectors: np.ndarray) -> None:
        """Keep one float32 vector per key (a :func:`~lab.embedders.text_key`), committed at once."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(keys):
            raise ValueError(f"need one vector per key: {len(keys)} keys, vectors of shape {vectors.shape}")
        with self.transaction():
            self._db.executemany("INSERT OR REPLACE INTO staged_vectors VALUES (?, ?)",
                                 [(key, vectors[i].tobytes()) for i, key in enumerate(keys)])

    def staged_vectors(self, keys: Iterable[str]) -> dict[str, np.ndarray]:
        """The kept vectors of these keys, by key (a key with none is left out)."""
        found: dict[str, np.ndarray] = {}
        for batch in batches(id_list(keys, "keys")):
            found.update((key, np.frombuffer(blob, dtype=np.float32)) for key, blob in self._db.execute(
                f"SELECT key, vector FROM staged_vectors WHERE key IN ({marks(batch)})", batch))
        return found

    def staged_vector_count(self) -> int:
        """How many embedded vectors wait in the staging area."""
        return self._db.execute("SELECT COUNT(*) FROM staged_vectors").fetchone()[0]

