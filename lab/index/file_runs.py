"""What an ingestion run over a folder of files records (which file made which chunks, with which
chunker), and which model serves searches, with a switch to another one in progress.

Used by :mod:`lab.ingest.files` and :mod:`lab.ingest.serving`; these tables refer to chunks by
id and leave the chunks table's layout alone.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from lab.index.rows import id_list

__all__ = ["IngestedFile", "FileRuns"]


@dataclass(frozen=True, kw_only=True)
class IngestedFile:
    """One file an ingestion run chunked: its content hash, and the chunker (name, parameters as
    sorted JSON, version) that made its chunks, so a later run can tell what is stale."""

    path: str
    content_hash: str
    chunker: str
    chunker_params: str
    chunker_version: str


class FileRuns:
    """Ingested files, their chunk ids, the serving model and a pending switch (a part of ``IndexStore``)."""

    _db: sqlite3.Connection

    def ingested_files(self, source: str) -> dict[str, IngestedFile]:
        """The files of ``source`` the index holds chunks of, by path."""
        rows = self._db.execute("SELECT path, content_hash, chunker, chunker_params, chunker_version "
                                "FROM ingested_files WHERE source = ? ORDER BY path", (source,))
        return {r[0]: IngestedFile(path=r[0], content_hash=r[1], chunker=r[2], chunker_params=r[3],
                                   chunker_version=r[4]) for r in rows}

    def file_chunk_ids(self, source: str) -> dict[str, list[str]]:
        """Path -> the ids of the chunks cut from it, for every file of ``source``."""
        found: dict[str, list[str]] = {}
        for path, chunk_id in self._db.execute("SELECT path, chunk_id FROM file_chunks WHERE source = ? "
                                               "ORDER BY path, chunk_id", (source,)):
            found.setdefault(path, []).append(chunk_id)
        return found

    def record_files(self, source: str, files: Sequence[IngestedFile], chunk_ids: Mapping[str, Sequence[str]]) -> None:
        """Replace what the index records of these files: hash, chunker, and the ids cut from each."""
        with self.transaction():
            self.forget_files(source, [f.path for f in files])
            self._db.executemany("INSERT INTO ingested_files VALUES (?,?,?,?,?,?)",
                                 [(source, f.path, f.content_hash, f.chunker, f.chunker_params, f.chunker_version)
                                  for f in files])
            self._db.executemany("INSERT OR REPLACE INTO file_chunks VALUES (?,?,?)",
                                 [(cid, source, f.path) for f in files for cid in chunk_ids.get(f.path, ())])

    def forget_files(self, source: str, paths: Iterable[str]) -> None:
        """Drop the records of these files (their chunks are deleted separately, by id)."""
        paths = id_list(paths, "paths")
        with self.transaction():
            self._db.executemany("DELETE FROM ingested_files WHERE source = ? AND path = ?",
                                 [(source, p) for p in paths])
            self._db.executemany("DELETE FROM file_chunks WHERE source = ? AND path = ?", [(source, p) for p in paths])

    def forget_files_without_chunks(self) -> int:
        """Drop the records of every file one of whose chunks the index no longer holds (a full index, which
        replaces the whole index, deletes the chunks no page gave); how many files. Otherwise the next files
        run would find such a file unchanged and never write its chunks again."""
        rows = self._db.execute("SELECT DISTINCT source, path FROM file_chunks WHERE chunk_id NOT IN "
                                "(SELECT id FROM chunks) ORDER BY source, path").fetchall()
        with self.transaction():
            for source in sorted({row[0] for row in rows}):
                self.forget_files(source, [path for file_source, path in rows if file_source == source])
        return len(rows)

    def serving_model(self) -> str | None:
        """The model whose vectors answer searches (``None`` until a run or a switch names one)."""
        return self.get_meta("serving_model")

    def set_serving_model(self, model: str) -> None:
        """Make ``model`` the one that answers searches (it must have vectors in the index)."""
        with self.transaction():
            self.require_model(model)
            self.set_meta("serving_model", model)

    def pending_switch(self) -> tuple[str, str] | None:
        """``(new model, model it replaces)`` while a switch is prepared but not committed."""
        row = self._db.execute("SELECT model, replaces FROM model_switches").fetchone()
        return (row[0], row[1]) if row else None

    def begin_switch(self, model: str, replaces: str) -> None:
        """Record that ``model`` is being filled to replace ``replaces`` (one switch at a time)."""
        with self.transaction():
            self._db.execute("INSERT INTO model_switches VALUES (?, ?)", (model, replaces))

    def end_switch(self) -> None:
        """Forget the switch in progress (committed or abandoned)."""
        with self.transaction():
            self._db.execute("DELETE FROM model_switches")
