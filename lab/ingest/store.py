"""The SQLite index: chunks with their text, each model's vectors, plus sync state.

One file holds everything retrieval and sync need: the ``chunks`` table (one row per chunk: its
text and the metadata every model's rows share), the vectors of each model beside it, the pages
the index currently holds (sub-pages with their parent), the sync watermark, one ``sync_runs``
row per run, and the staging area where a first index keeps the pages it has read so that an
interrupted one resumes. Vectors of different models live side by side but are never compared:
every read names its model, and a vector whose dimension differs from what the model was
stored with is refused.

A model's vectors are stored in one of two forms. A dense model (LSA, Voyage AI) keeps one
float32 BLOB per chunk in ``vectors``. A sparse model (TF-IDF) keeps what its vectors are made
of: each chunk's term counts in ``term_counts`` (term ids and counts, int32 BLOBs) and, in
``terms``, every term once with the number of chunks that contain it. Writing or deleting a
chunk moves those document frequencies with it, so an edit touches only its own chunks' rows and
the frequencies of their terms, and a term no chunk holds any more leaves the vocabulary; the
idf and unit rows are computed when the index is read (:mod:`lab.ingest.models` says why).

Several processes may open one file. Every write transaction starts with ``BEGIN IMMEDIATE``
(one writer at a time; the others wait), the schema is created under that lock, and each
published change of the index increments a generation number, so that a sync can tell whether
the index it planned against is still the one it is about to write.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from lab.errors import LabError
from lab.notion.pages import PageMetadata
from lab.vectors.search import Hit, cosine_scores, top_k_rows
from lab.vectors.tfidf import TfidfVectorizer

__all__ = ["IndexStore", "IndexedPage", "IndexSnapshot", "StagedPage", "TermCounts", "StoreError",
           "SchemaVersionError", "IndexOpenError", "ModelMismatchError", "SCHEMA_VERSION", "CHUNK_FIELDS",
           "IngestedFile", "open_failure", "is_damaged"]

SCHEMA_VERSION = 4
BUSY_TIMEOUT_S = 60.0  # how long a writer waits for another process's transaction to end
CHUNK_FIELDS = ("id", "page_id", "title", "type", "section", "order", "text", "tokens", "fingerprint", "edited")

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE models (
    model TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('dense', 'counts')),
    dimension INTEGER NOT NULL CHECK (dimension >= 0),
    analyzer TEXT
);
CREATE TABLE chunks (
    id TEXT PRIMARY KEY,
    page_id TEXT NOT NULL,
    title TEXT NOT NULL,
    type TEXT NOT NULL,
    section TEXT,
    ord INTEGER NOT NULL,
    text TEXT NOT NULL,
    tokens INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    edited TEXT NOT NULL
);
CREATE INDEX chunks_by_page ON chunks (page_id);
CREATE TABLE vectors (
    id TEXT NOT NULL,
    model TEXT NOT NULL REFERENCES models (model),
    vector BLOB NOT NULL,
    PRIMARY KEY (id, model)
);
CREATE INDEX vectors_by_model ON vectors (model);
CREATE TABLE term_counts (
    id TEXT PRIMARY KEY,
    terms BLOB NOT NULL,
    counts BLOB NOT NULL
);
CREATE TABLE terms (
    term_id INTEGER PRIMARY KEY,
    term TEXT NOT NULL UNIQUE,
    df INTEGER NOT NULL CHECK (df >= 0)
);
CREATE TABLE pages (
    page_id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    type TEXT NOT NULL,
    edited TEXT NOT NULL,
    url TEXT NOT NULL DEFAULT '',
    read_at TEXT NOT NULL DEFAULT '',
    parent_id TEXT,
    child_pages INTEGER NOT NULL DEFAULT 0,
    shown_originals TEXT NOT NULL DEFAULT '{}',
    held_originals TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE staged_pages (
    page_id TEXT PRIMARY KEY,
    data_source_id TEXT NOT NULL,
    parent_id TEXT,
    read_at TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE TABLE sync_state (source TEXT PRIMARY KEY, watermark TEXT NOT NULL);
CREATE TABLE sync_runs (
    run INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL,
    kind TEXT NOT NULL,
    watermark_before TEXT,
    watermark TEXT NOT NULL,
    ran_at TEXT NOT NULL,
    requests INTEGER NOT NULL,
    pages_reread INTEGER NOT NULL,
    pages_removed INTEGER NOT NULL,
    chunks_new INTEGER NOT NULL,
    chunks_updated INTEGER NOT NULL,
    chunks_unchanged INTEGER NOT NULL,
    chunks_deleted INTEGER NOT NULL,
    chunks_total INTEGER NOT NULL,
    tokens_embedded INTEGER NOT NULL
);
"""


# Tables of ingestion runs over folders of files and of model switches (lab.ingest.files,
# lab.ingest.serving); they refer to chunks by id and leave the chunks table's layout alone.
_FILE_RUN_SCHEMA = """;
CREATE TABLE ingested_files (
    source TEXT NOT NULL,
    path TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    chunker TEXT NOT NULL,
    chunker_params TEXT NOT NULL,
    chunker_version TEXT NOT NULL,
    PRIMARY KEY (source, path)
);
CREATE TABLE file_chunks (
    chunk_id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    path TEXT NOT NULL
);
CREATE INDEX file_chunks_by_file ON file_chunks (source, path);
CREATE TABLE model_switches (
    model TEXT PRIMARY KEY,
    replaces TEXT NOT NULL
);
"""


class StoreError(LabError, RuntimeError):
    """Base class of the index's errors."""


class IndexOpenError(StoreError):
    """The index file cannot be opened: ``reason`` says what is wrong with ``path`` and what to do;
    ``damaged`` is true when the file itself is broken, so building the index again is the fix."""

    def __init__(self, path: str, reason: str, damaged: bool = False) -> None:
        super().__init__(f"the index {path} {reason}")
        self.path, self.reason, self.damaged = path, reason, damaged


class SchemaVersionError(StoreError):
    """The file was written by another schema version (or is not a lab index at all)."""


class ModelMismatchError(StoreError):
    """Vectors of one model or dimension were about to be mixed with another's."""


@dataclass(frozen=True, kw_only=True)
class IndexedPage:
    """A page the index holds: its metadata as read, when it was read, the page it is a sub-page
    of (``None`` for a row of the data source), how many sub-pages its read showed, what it
    showed of synced originals held elsewhere (original id, fingerprint) and the originals it
    holds (see :mod:`lab.ingest.synced_originals`)."""

    info: PageMetadata
    read_at: str = ""
    parent_id: str | None = None
    child_pages: int = 0
    shown_originals: tuple[tuple[str, str], ...] = ()
    held_originals: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class IndexSnapshot:
    """What a sync plans against, read in one transaction: the generation, the watermark and data
    source of one source, every page, and how many chunks the index holds. The chunks of the
    pages a sync reads are looked up when it knows which (:meth:`IndexStore.page_chunks`); if
    another run publishes in between, the generation has moved and the sync plans again."""

    generation: int
    watermark: str | None
    data_source_id: str | None
    pages: dict[str, IndexedPage]
    chunk_count: int


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


@dataclass(frozen=True, kw_only=True)
class StagedPage:
    """One page a first index read and kept before publishing: its read, encoded as text."""

    page_id: str
    parent_id: str | None
    read_at: str
    body: str


@dataclass(frozen=True, kw_only=True)
class IngestedFile:
    """One file an ingestion run chunked: its content hash, and the chunker (name, parameters as
    sorted JSON, version) that made its chunks, so a later run can tell what is stale."""

    path: str
    content_hash: str
    chunker: str
    chunker_params: str
    chunker_version: str


# Values bound in one ``IN (...)`` list: well under SQLite's limit of 32,766 variables.
_BATCH = 500


def _batches(values: Sequence[Any]) -> Iterator[list[Any]]:
    for start in range(0, len(values), _BATCH):
        yield list(values[start:start + _BATCH])


def _id_list(ids: Iterable[str], name: str) -> list[str]:
    """``ids`` as a list; one id (or path) given alone would be read as its characters, each looked up
    or deleted as an id of its own."""
    if isinstance(ids, (str, bytes)):
        raise TypeError(f"{name} takes a list, not one {type(ids).__name__}; wrap a single value in a list: "
                        f"[{ids!r:.60}]")
    return list(ids)


def _marks(batch: Sequence[Any]) -> str:
    return ",".join("?" * len(batch))


def _field(chunk: Any, name: str) -> Any:
    return chunk[name] if isinstance(chunk, Mapping) else getattr(chunk, name)


def _cause(error: BaseException) -> str:
    return str(error.strerror if isinstance(error, OSError) and error.strerror else error)


def is_damaged(error: BaseException) -> bool:
    """Whether SQLite's ``error`` says the file itself is broken (malformed or corrupt pages)."""
    cause = _cause(error)
    return "malformed" in cause or "corrupt" in cause


def open_failure(path: str | Path, error: BaseException) -> str:
    """What is wrong with the index file at ``path``, and what to do, from the error SQLite or the
    file system raised opening or writing it: "is damaged (...); move it aside ...". The store's
    errors and the command line both say it this way."""
    cause = _cause(error)
    folder = Path(path).parent
    if str(path) != ":memory:" and not folder.is_dir():
        return f"cannot be created: the folder {folder} does not exist; create it first or choose another path"
    if "not a database" in cause:
        return f"is not a SQLite file ({cause}); point it at a new file or at an index this lab wrote"
    if is_damaged(error):
        return f"is damaged ({cause}); move it aside or delete it, then build the index again"
    if "locked" in cause:
        return "is locked by another program (another index or sync still running?); wait for it to end"
    if "readonly" in cause or "read-only" in cause or "ermission" in cause:
        return f"cannot be written ({cause}); make the file and its folder writable, or choose another path"
    return f"cannot be opened ({cause}); check that its folder exists and is writable"


class _ClosedIndex:
    """Stands in for the connection of a closed store, so that using it names the mistake."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __getattr__(self, name: str) -> Any:
        raise StoreError(f"the index {self.path} was closed; open it again with IndexStore({self.path!r})")


class IndexStore:
    """An index in one SQLite file (``":memory:"`` for a throwaway one).

    Opening a file written by another schema version raises :class:`SchemaVersionError`
    instead of reading (or worse, writing) it with the wrong assumptions.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            # transactions are explicit; a writer waits for another process's transaction to end
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT_S)
        except sqlite3.DatabaseError as error:  # a missing folder, say
            raise IndexOpenError(self.path, open_failure(self.path, error)) from None
        try:
            self._db.execute("PRAGMA foreign_keys = ON")
            if self._db.execute("PRAGMA page_count").fetchone()[0] == 0:
                # only on a new file, before anything is written to it (on an existing one the pragma
                # changes nothing but the file's bytes): the space of deleted rows can then be given
                # back to the file system (see release_free_space)
                self._db.execute("PRAGMA auto_vacuum = INCREMENTAL")
            self._use_write_ahead_log()
        except sqlite3.DatabaseError as error:  # not SQLite, damaged, read-only
            self._db.close()
            raise IndexOpenError(self.path, open_failure(self.path, error), is_damaged(error)) from None
        self._check_or_create_schema()

    def _use_write_ahead_log(self) -> None:
        """Write-ahead log, synced at checkpoints: a commit (one per page a first index reads) costs
        no fsync, a killed process loses nothing committed, and a power cut can roll back the last
        commits (the index and its watermark together) but never corrupts the file."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:  # switching a new file needs it alone, and SQLite does not wait for that itself
                self._db.execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
        self._db.execute("PRAGMA synchronous = NORMAL")
        # a deleted row's bytes are overwritten, not left in the file's free space (builds differ in the default)
        self._db.execute("PRAGMA secure_delete = ON")

    # ------------------------------------------------------------------ schema

    def _tables(self) -> set[str]:
        return {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def _check_or_create_schema(self) -> None:
        if not self._tables():
            with self.transaction():  # under the write lock: two processes opening a new file create it once
                if not self._tables():
                    for statement in (_SCHEMA + _FILE_RUN_SCHEMA).strip().split(";"):
                        if statement.strip():
                            self._db.execute(statement)
                    self._db.executemany("INSERT INTO meta VALUES (?, ?)",
                                         [("schema_version", str(SCHEMA_VERSION)), ("generation", "0")])
        tables = self._tables()
        if "meta" not in tables:
            raise SchemaVersionError(f"{self.path} is a SQLite file but not a lab index (no meta table); "
                                     "refusing to touch it")
        row = self._db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        found = row[0] if row else "unknown"
        if found != str(SCHEMA_VERSION):
            raise SchemaVersionError(f"{self.path} was written by index schema version {found}; this lab reads "
                                     f"version {SCHEMA_VERSION}. Rebuild the index (python -m lab index) into a "
                                     "new file rather than opening this one.")

    def close(self) -> None:
        """Close the file; any later use of this store raises :class:`StoreError` (closing twice is fine)."""
        if not isinstance(self._db, _ClosedIndex):
            self._db.close()
            self._db = _ClosedIndex(self.path)  # type: ignore[assignment]

    def __enter__(self) -> "IndexStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"IndexStore({self.path!r})"

    # ------------------------------------------------------------------ transactions

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All writes inside the block land together or not at all (one writer at a time)."""
        with self._transaction("BEGIN IMMEDIATE"):
            yield

    @contextmanager
    def read_transaction(self) -> Iterator[None]:
        """Every read inside the block sees one state of the index, whatever other processes commit."""
        with self._transaction("BEGIN"):
            yield

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[None]:
        if self._db.in_transaction:
            yield
            return
        self._db.execute(begin)
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def generation(self) -> int:
        """How many times a sync or full index has published into this index."""
        return int(self.get_meta("generation") or 0)

    def bump_generation(self) -> int:
        """Count one more publication (inside the publishing transaction); the new generation."""
        with self.transaction():
            generation = self.generation() + 1
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('generation', ?)", (str(generation),))
            return generation

    def snapshot(self, source: str) -> IndexSnapshot:
        """The index as a sync of ``source`` plans against it, read in one transaction."""
        with self.read_transaction():
            return IndexSnapshot(generation=self.generation(), watermark=self.watermark(source),
                                 data_source_id=self.get_meta(f"{source}.data_source_id"), pages=self.indexed_pages(),
                                 chunk_count=self.count_chunks())

    # ------------------------------------------------------------------ models

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

    # ------------------------------------------------------------------ chunks

    def _put_rows(self, chunks: Sequence[Any]) -> None:
        """Insert or update the chunks' own columns (every model's rows of a chunk share them)."""
        self._db.executemany(
            "INSERT INTO chunks VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT (id) DO UPDATE SET page_id = excluded.page_id, "
            "title = excluded.title, type = excluded.type, section = excluded.section, ord = excluded.ord, "
            "text = excluded.text, tokens = excluded.tokens, fingerprint = excluded.fingerprint, "
            "edited = excluded.edited",
            [(_field(c, "id"), _field(c, "page_id"), _field(c, "title"), _field(c, "type"), _field(c, "section"),
              int(_field(c, "order")), _field(c, "text"), int(_field(c, "tokens")), _field(c, "fingerprint"),
              _field(c, "edited")) for c in chunks])

    def put_chunks(self, chunks: Sequence[Any], vectors: np.ndarray, model: str) -> None:
        """Insert or replace ``chunks`` with their dense vectors (one row each) for ``model``."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(chunks):
            raise ValueError(f"need one vector per chunk: {len(chunks)} chunks, vectors of shape {vectors.shape}")
        bad = np.flatnonzero(~np.isfinite(vectors).all(axis=1))
        if bad.size:  # a stored NaN makes every cosine with it NaN: a chunk no search ever finds
            raise ValueError(f"the vector of chunk {_field(chunks[int(bad[0])], 'id')!r} ({bad.size} in all) holds "
                             f"NaN or infinity; check the {model!r} model and its input. Nothing was written")
        with self.transaction():
            self._register(model, int(vectors.shape[1]))
            self._put_rows(chunks)
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                                 [(_field(c, "id"), model, vectors[i].tobytes()) for i, c in enumerate(chunks)])

    def replace_model(self, chunks: Sequence[Any], vectors: np.ndarray, model: str) -> None:
        """Make ``model``'s rows exactly these chunks (a refit LSA changes every vector)."""
        with self.transaction():
            self.drop_model(model)
            if len(chunks):
                self.put_chunks(chunks, vectors, model)

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
        ids = [_field(c, "id") for c in chunks]
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
        for batch in _batches(terms):
            known.update(self._db.execute(f"SELECT term, term_id FROM terms WHERE term IN ({_marks(batch)})", batch))
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
        for batch in _batches(ids):
            dropped.extend(blob for (blob,) in self._db.execute(
                f"SELECT terms FROM term_counts WHERE id IN ({_marks(batch)})", batch))
            self._db.execute(f"DELETE FROM term_counts WHERE id IN ({_marks(batch)})", batch)
        if dropped:
            self._move_document_frequencies(np.frombuffer(b"".join(dropped), dtype=np.int32), -1)

    def update_chunks(self, chunks: Sequence[Any]) -> None:
        """Rewrite what these chunks carry (page, title, type, section, order, text, tokens,
        fingerprint, last edit), keeping every model's vectors: for a chunk whose text did not
        change but whose page did (a newer ``last_edited_time``, a new position)."""
        with self.transaction():
            self._db.executemany(
                "UPDATE chunks SET page_id = ?, title = ?, type = ?, section = ?, ord = ?, text = ?, tokens = ?, "
                "fingerprint = ?, edited = ? WHERE id = ?",
                [(_field(c, "page_id"), _field(c, "title"), _field(c, "type"), _field(c, "section"),
                  int(_field(c, "order")), _field(c, "text"), int(_field(c, "tokens")), _field(c, "fingerprint"),
                  _field(c, "edited"), _field(c, "id")) for c in chunks])

    def delete_chunks(self, ids: Iterable[str]) -> int:
        """Remove these chunk ids under every model; the number of chunk ids that existed."""
        ids = list(dict.fromkeys(_id_list(ids, "ids")))
        with self.transaction():
            self._forget_counts(ids)
            existed = 0
            for batch in _batches(ids):
                self._db.execute(f"DELETE FROM vectors WHERE id IN ({_marks(batch)})", batch)
                existed += self._db.execute(f"DELETE FROM chunks WHERE id IN ({_marks(batch)})", batch).rowcount
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
        for column, values in (("page_id", _id_list(page_ids, "page_ids")), ("id", _id_list(ids, "ids"))):
            for batch in _batches(values):
                found.update((cid, (page, fp)) for cid, page, fp in self._db.execute(
                    f"SELECT id, page_id, fingerprint FROM chunks WHERE {column} IN ({_marks(batch)})", batch))
        return dict(sorted(found.items()))

    def count_chunks(self, model: str | None = None) -> int:
        """Distinct chunks (or rows of one model)."""
        if model is None:
            return self._db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
        if self._kind(model) == "counts":
            return self._db.execute("SELECT COUNT(*) FROM term_counts").fetchone()[0]
        return self._db.execute("SELECT COUNT(*) FROM vectors WHERE model = ?", (model,)).fetchone()[0]

    def chunks(self, model: str, ids: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """The stored chunk rows of one model, in id order, without vectors; only those of ``ids``
        if given (looked up by key, so a run that touched a few chunks reads only those)."""
        self.require_model(model)
        rows = "term_counts" if self._kind(model) == "counts" else "vectors"
        conditions, params = ([], []) if rows == "term_counts" else (["r.model = ?"], [model])
        select = (f"SELECT c.id, c.page_id, c.title, c.type, c.section, c.ord, c.text, c.tokens, c.fingerprint, "
                  f"c.edited FROM {rows} r JOIN chunks c ON c.id = r.id")
        if ids is None:
            where = f" WHERE {conditions[0]}" if conditions else ""
            return [dict(zip(CHUNK_FIELDS, row)) for row in self._db.execute(select + where + " ORDER BY r.id", params)]
        found = []
        for batch in _batches(sorted(set(_id_list(ids, "ids")))):
            where = " WHERE " + " AND ".join([*conditions, f"r.id IN ({_marks(batch)})"])
            found.extend(dict(zip(CHUNK_FIELDS, row)) for row in self._db.execute(select + where, [*params, *batch]))
        return sorted(found, key=lambda row: row["id"])

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

    def vectors(self, model: str) -> tuple[list[str], np.ndarray]:
        """Chunk ids and the ``(n, dimension)`` float32 matrix of one model, in id order.

        A term count model's rows are its TF-IDF vectors, made dense: fine for a lesson's index,
        too large for a big one (search it with :meth:`search` or a retriever instead).
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

    def search(self, query_vector: np.ndarray, model: str, k: int = 3, min_score: float | None = None) -> list[Hit]:
        """Cosine top-k among one model's vectors (stored and query vectors are L2-normalised)."""
        query_vector = np.asarray(query_vector, dtype=np.float32).ravel()
        self.require_model(model, int(query_vector.shape[0]))
        if not np.isfinite(query_vector).all():  # every cosine would be NaN, and no hit would come back
            raise ValueError(f"the query vector for {model!r} holds NaN or infinity: check the model that embedded "
                             "the question")
        ids, matrix = self._tfidf(model) if self._kind(model) == "counts" else self.vectors(model)
        # rounded so that float32 noise in the product neither orders nor filters hits
        scores = np.round(cosine_scores(matrix, query_vector), 6)
        return [self._hit(ids[row], score) for row, score in top_k_rows(scores, k, min_score=min_score)]

    def _hit(self, chunk_id: str, score: float) -> Hit:
        title, section, page_id = self._db.execute(
            "SELECT title, section, page_id FROM chunks WHERE id = ?", (chunk_id,)).fetchone()
        return Hit(id=chunk_id, score=score, title=title, section=section, page_id=page_id)

    # ------------------------------------------------------------------ pages and sync state

    def put_pages(self, pages: Iterable[IndexedPage]) -> None:
        """Insert or replace these pages (a missing type or url reads ``""``)."""
        with self.transaction():
            self._db.executemany("INSERT OR REPLACE INTO pages VALUES (?,?,?,?,?,?,?,?,?,?)",
                                 [(p.info.id, p.info.title, p.info.type or "", p.info.edited, p.info.url or "",
                                   p.read_at, p.parent_id, p.child_pages, json.dumps(dict(p.shown_originals)),
                                   json.dumps(list(p.held_originals))) for p in pages])

    def delete_pages(self, page_ids: Iterable[str]) -> int:
        """Remove pages and every chunk cut from them; the number of chunks removed."""
        page_ids = _id_list(page_ids, "page_ids")
        with self.transaction():
            removed = self.delete_chunks(self.page_chunks(page_ids))
            self._db.executemany("DELETE FROM pages WHERE page_id = ?", [(p,) for p in page_ids])
            return removed

    def pages(self) -> dict[str, PageMetadata]:
        """Pages the index holds, by id, as they were when read (``edited`` is their last_edited_time then)."""
        return {page_id: page.info for page_id, page in self.indexed_pages().items()}

    def indexed_pages(self) -> dict[str, IndexedPage]:
        """Pages the index holds, by id, with when each was read and the page it is a sub-page of."""
        rows = self._db.execute("SELECT page_id, title, type, edited, url, read_at, parent_id, child_pages, "
                                "shown_originals, held_originals FROM pages ORDER BY page_id")
        return {r[0]: IndexedPage(info=PageMetadata(id=r[0], title=r[1], type=r[2], edited=r[3], url=r[4]),
                                  read_at=r[5], parent_id=r[6], child_pages=r[7],
                                  shown_originals=tuple(json.loads(r[8]).items()),
                                  held_originals=tuple(json.loads(r[9]))) for r in rows}

    def read_times(self) -> dict[str, str]:
        """When each page the index holds was read (ISO time; ``""`` if not recorded)."""
        return dict(self._db.execute("SELECT page_id, read_at FROM pages ORDER BY page_id"))

    def get_meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        if key == "schema_version":
            raise StoreError("the schema version is written once, when the index is created")
        with self.transaction():
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def watermark(self, source: str) -> str | None:
        row = self._db.execute("SELECT watermark FROM sync_state WHERE source = ?", (source,)).fetchone()
        return row[0] if row else None

    def set_watermark(self, source: str, watermark: str) -> None:
        """Move the watermark of ``source`` forward to ``watermark``; it never goes back."""
        with self.transaction():
            self._db.execute("INSERT INTO sync_state VALUES (?, ?) ON CONFLICT (source) DO UPDATE "
                             "SET watermark = MAX(watermark, excluded.watermark)", (source, watermark))

    def add_sync_run(self, run: Mapping[str, Any]) -> None:
        columns = ["source", "kind", "watermark_before", "watermark", "ran_at", "requests", "pages_reread",
                   "pages_removed", "chunks_new", "chunks_updated", "chunks_unchanged", "chunks_deleted",
                   "chunks_total", "tokens_embedded"]
        with self.transaction():
            self._db.execute(f"INSERT INTO sync_runs ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                             [run[c] for c in columns])

    def sync_runs(self) -> list[dict[str, Any]]:
        cursor = self._db.execute("SELECT * FROM sync_runs ORDER BY run")
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor]

    # ------------------------------------------------------------------ staging (a first index's checkpoint)

    def stage_page(self, page: StagedPage, data_source_id: str) -> None:
        """Keep one page a first index has read (committed at once, outside the published index)."""
        with self.transaction():
            self._db.execute("INSERT OR REPLACE INTO staged_pages VALUES (?,?,?,?,?)",
                             (page.page_id, data_source_id, page.parent_id, page.read_at, page.body))

    def staged_pages(self, data_source_id: str) -> list[StagedPage]:
        """The pages kept for a first index of this data source, in page id order."""
        rows = self._db.execute("SELECT page_id, parent_id, read_at, body FROM staged_pages "
                                "WHERE data_source_id = ? ORDER BY page_id", (data_source_id,))
        return [StagedPage(page_id=r[0], parent_id=r[1], read_at=r[2], body=r[3]) for r in rows]

    def staged_count(self) -> int:
        """How many pages an interrupted first index left in the staging area."""
        return self._db.execute("SELECT COUNT(*) FROM staged_pages").fetchone()[0]

    def clear_staged(self) -> None:
        """Empty the staging area (when the index it was read for is published)."""
        with self.transaction():
            self._db.execute("DELETE FROM staged_pages")

    def release_free_space(self) -> None:
        """Give the space deleted rows left in the file back to the file system (after a
        transaction, not in one): a first index of 10,000 pages stages hundreds of megabytes of
        blocks that the published index does not keep."""
        if not self._db.in_transaction:
            # a script runs the pragma to its end; execute() would free a single page
            self._db.executescript("PRAGMA incremental_vacuum;")

    def erase_deleted(self) -> None:
        """Write the write-ahead log into the file and empty it (after a transaction, not in one): the
        log still holds the pages as they were before rows were deleted, so the text of a page that was
        unshared or unpublished would stay readable in it until the process ends."""
        if not self._db.in_transaction:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    # ------------------------------------------------------------------ inspection

    def serialize(self) -> bytes:
        """The whole index as bytes (a SQLite database image), for :meth:`restore`."""
        image = bytearray(self._db.serialize())
        image[18:20] = b"\x01\x01"  # marked as rollback-journal, the mode an image in memory can open
        return bytes(image)

    def restore(self, image: bytes) -> None:
        """Make the index exactly the one :meth:`serialize` returned, in place (same file)."""
        source = sqlite3.connect(":memory:")
        try:
            source.deserialize(image)
            source.backup(self._db)
        finally:
            source.close()

    def dump(self) -> str:
        """A logical dump (SQL text) of the whole index: two equal dumps mean equal indexes."""
        return "\n".join(self._db.iterdump())

    def state(self) -> dict[str, Any]:
        """What the index holds, without bookkeeping that depends on when or how it was written.

        Chunks (every column), dense vectors, term counts (as term -> count per chunk) and
        document frequencies (by term), pages (without ``read_at``), models and watermarks; the
        ``sync_runs`` log, the staging area and the term ids (numbered as terms first appeared)
        are left out. Two indexes built from the same content by different runs (one
        interrupted and resumed, one under heavy faults, one synced edit by edit) compare equal.
        """
        chunks = self._db.execute("SELECT * FROM chunks ORDER BY id").fetchall()
        vectors = self._db.execute("SELECT * FROM vectors ORDER BY id, model").fetchall()
        term_of = dict(self._db.execute("SELECT term_id, term FROM terms"))
        counts = [(chunk_id, sorted(zip(map(term_of.__getitem__, np.frombuffer(terms, dtype=np.int32).tolist()),
                                        np.frombuffer(numbers, dtype=np.int32).tolist())))
                  for chunk_id, terms, numbers in self._db.execute("SELECT * FROM term_counts ORDER BY id")]
        frequencies = self._db.execute("SELECT term, df FROM terms ORDER BY term").fetchall()
        pages = self._db.execute("SELECT page_id, title, type, edited, url, parent_id, child_pages FROM pages "
                                 "ORDER BY page_id").fetchall()
        models = self._db.execute("SELECT model, kind, analyzer FROM models ORDER BY model").fetchall()
        return {"chunks": chunks, "vectors": vectors, "term_counts": counts, "document_frequencies": frequencies,
                "pages": pages, "models": (self.models(), models),
                "sync_state": self._db.execute("SELECT * FROM sync_state ORDER BY source").fetchall()}

    def table_counts(self) -> dict[str, int]:
        names = [r[0] for r in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return {n: self._db.execute(f"SELECT COUNT(*) FROM {n}").fetchone()[0] for n in names}

    def vector_bytes(self, model: str | None = None) -> int:
        """Bytes the vectors take: dense BLOBs, and for a term count model its per-chunk term ids
        and counts (the terms themselves, stored once, are not counted)."""
        dense = "SELECT COALESCE(SUM(LENGTH(vector)), 0) FROM vectors"
        sparse = "SELECT COALESCE(SUM(LENGTH(terms) + LENGTH(counts)), 0) FROM term_counts"
        if model is None:
            return self._db.execute(dense).fetchone()[0] + self._db.execute(sparse).fetchone()[0]
        if self._kind(model) == "counts":
            return self._db.execute(sparse).fetchone()[0]
        return self._db.execute(dense + " WHERE model = ?", (model,)).fetchone()[0]

    # ------------------------------------------------------------------ files and model switches
    # Used by lab.ingest.files (which file made which chunks, with which chunker) and
    # lab.ingest.serving (which model answers searches, and a switch in progress).

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
        paths = _id_list(paths, "paths")
        with self.transaction():
            self._db.executemany("DELETE FROM ingested_files WHERE source = ? AND path = ?",
                                 [(source, p) for p in paths])
            self._db.executemany("DELETE FROM file_chunks WHERE source = ? AND path = ?", [(source, p) for p in paths])

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
