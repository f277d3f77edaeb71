"""The search audit log: one JSON line per search, saying who asked and which pages came back.

With a permission audit (:mod:`lab.ingest.permission_audit`) you know what each integration
*could* see; the log says what each caller *was shown*. Each record holds who asked (an
integration or audience label), the audience filter applied, the version or date filter applied
(``where``: the conditions of its :class:`~lab.retrieval.ChunkFilter`, ``None`` without one), a
keyed hash of the query and the page ids returned, best first. A log written before records held
``where`` reads back with ``None`` there.

The query is stored as an HMAC-SHA256 digest, never as text: a customer's question can hold
personal data ("my son Mateo is allergic to nuts"), and a log of raw queries would become a
store of personal data with its own retention and access rules. A plain SHA-256 would not do:
short questions can be recovered by hashing likely guesses. With a key kept apart from the log,
nobody holding only the log can test guesses, while equal queries (after case and spacing are
normalised) still give equal digests, so repeats can be counted.

A record is a line that ends in a newline. A process killed while appending leaves a last line
without one; reading ignores it (it may also be a record another process is still writing), and
the next append, under a lock the appenders share (:mod:`lab.file_lock`), cuts it off before it
writes, so that its own record starts on a line of its own. Every other line is checked as it is
read (JSON within bounds, each field's type) and a bad one is named by its number, never shown.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from lab.clock import Clock
from lab.errors import LabError
from lab.file_lock import exclusive_lock
from lab.json_files import JSONFileError, parse_json_text
from lab.retrieval.corpus import SearchCorpus
from lab.retrieval.filters import ChunkFilter
from lab.retrieval.retrievers import Retriever
from lab.vectors.search import Hit

__all__ = ["SearchRecord", "SearchLog", "AuditedRetriever", "query_digest", "SearchLogKeyError", "SearchLogFileError"]


class SearchLogKeyError(LabError, ValueError):
    """The search log was given no key to hash queries with, or something that is not a key."""


class SearchLogFileError(LabError, ValueError):
    """The log's path is a folder, the file cannot be read or written, or a line of it is not a search record."""


_DIGEST = re.compile(r"[0-9a-f]{16}")
#: What each field of a record holds, as JSON reads it back (checked on every line read).
_FIELD_TYPES: dict[str, tuple[type, ...]] = {"at": (str, type(None)), "asked_by": (str,), "audience": (str, type(None)),
                                             "query_hmac": (str,), "k": (int,), "page_ids": (list,),
                                             "where": (dict, type(None))}
_OPTIONAL_FIELDS = {"where"}  # absent from the records of a log written before the field existed


def query_digest(query: str, key: bytes) -> str:
    """The first 16 hex digits of HMAC-SHA256(key, query), the query casefolded with spaces collapsed."""
    normalised = " ".join(query.casefold().split())
    return hmac.new(key, normalised.encode("utf-8"), hashlib.sha256).hexdigest()[:16]


@dataclass(frozen=True, kw_only=True)
class SearchRecord:
    """One search: when (simulated or wall clock; ``None`` without one), who, under which filters, what was
    returned. ``where`` holds the conditions of the search's :class:`~lab.retrieval.ChunkFilter` that were set
    (``{"version": "3.2"}``), ``None`` for a search without one."""

    at: str | None
    asked_by: str
    audience: str | None
    query_hmac: str
    k: int
    page_ids: list[str] = field(default_factory=list)
    where: dict[str, str] | None = None


class SearchLog:
    """An append-only JSONL file of :class:`SearchRecord`.

    Parameters
    ----------
    path : the file; created on the first record, appended to afterwards.
    key : the secret that keys the query hash (keep it out of the log's folder and out of git).
    clock : stamps each record (``None`` leaves ``at`` empty).
    """

    def __init__(self, path: str | Path, *, key: bytes | str, clock: Clock | None = None) -> None:
        if not key:
            raise SearchLogKeyError("the search log needs a key to hash queries with; pass key=... from a secret "
                                    "kept apart from the log (an environment variable, say)")
        if not isinstance(key, (str, bytes, bytearray)):  # bytes(5) would be a key of five zero bytes
            raise SearchLogKeyError(f"the search log's key is a str or bytes secret, not {type(key).__name__}; "
                                    "pass key=... from a secret kept apart from the log")
        self.path = Path(path)
        if os.path.isdir(self.path):  # isdir: a path it may not look into is found out at the first record
            raise SearchLogFileError(f"{self.path} is a folder; the search log is a file: pass a path such as "
                                     f"{self.path / 'searches.jsonl'}")
        self._key = key.encode("utf-8") if isinstance(key, str) else bytes(key)
        self.clock = clock

    def __repr__(self) -> str:  # never the key
        return f"SearchLog({str(self.path)!r})"

    def record(self, *, asked_by: str, query: str, hits: Sequence[Hit], k: int,
               audience: str | None = None, where: ChunkFilter | None = None) -> SearchRecord:
        """Append one search to the file and return its record."""
        pages = list(dict.fromkeys(hit.page_id for hit in hits if hit.page_id is not None))
        conditions = {name: value for name, value in asdict(where).items() if value is not None} if where else {}
        entry = SearchRecord(at=self.clock.datetime().isoformat() if self.clock is not None else None,
                             asked_by=asked_by, audience=audience, query_hmac=query_digest(query, self._key), k=k,
                             page_ids=pages, where=conditions or None)
        line = (json.dumps(asdict(entry), ensure_ascii=False) + "\n").encode("utf-8")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with exclusive_lock(self.path):
                _append_line(self.path, line)
        except OSError as error:
            raise SearchLogFileError(f"{self.path} cannot be written ({error.strerror or error}); free some space or "
                                     "make it writable: this search was not logged") from None
        return entry

    def records(self) -> list[SearchRecord]:
        """Every record in the file, oldest first (none if the file does not exist yet); a last line
        without its newline (cut by a crash, or still being written) is not a record yet."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return []
        except OSError as error:
            raise SearchLogFileError(f"{self.path} cannot be read ({error.strerror or error}); give this program "
                                     "read access to it") from None
        lines = data.split(b"\n")[:-1]  # whatever follows the last newline is not a whole record
        return [self._record(number, line) for number, line in enumerate(lines, start=1) if line.strip()]

    def _record(self, number: int, line: bytes) -> SearchRecord:
        # the line itself is never shown: it may hold what a person typed
        try:
            fields = parse_json_text(line.decode("utf-8"))
        except UnicodeDecodeError:
            raise self._not_a_record(number, "it is not UTF-8 text") from None
        except JSONFileError as problem:  # says what is wrong, never what the line holds
            raise self._not_a_record(number, f"it {problem}") from None
        problem = _record_problem(fields)
        if problem is not None:
            raise self._not_a_record(number, problem)
        return SearchRecord(**fields)

    def _not_a_record(self, number: int, problem: str) -> SearchLogFileError:
        return SearchLogFileError(f"line {number} of {self.path} is not a search record ({problem}); the file holds "
                                  "JSON lines written by SearchLog: move it aside and start a new log")

    def frame(self) -> pd.DataFrame:
        """The records as a table, one row per search."""
        return pd.DataFrame([asdict(r) for r in self.records()], columns=list(SearchRecord.__dataclass_fields__))


def _append_line(path: Path, line: bytes) -> None:
    """Append ``line`` to the log, under the appenders' lock: first cut a last line that a crashed
    append left without its newline; if the write fails (a full disk), cut what it wrote, so that
    the file ends on a whole record either way."""
    descriptor = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        size = os.lseek(descriptor, 0, os.SEEK_END)
        if size and _read_at(descriptor, size - 1, 1) != b"\n":
            size = _start_of_last_line(descriptor, size)
            os.ftruncate(descriptor, size)
        try:
            view = memoryview(line)
            while view:  # a write may take only part of the line (O_APPEND: each part lands at the end)
                view = view[os.write(descriptor, view):]
        except OSError:
            os.ftruncate(descriptor, size)
            raise
    finally:
        os.close(descriptor)


def _read_at(descriptor: int, offset: int, count: int) -> bytes:
    os.lseek(descriptor, offset, os.SEEK_SET)  # os.pread is POSIX only
    return os.read(descriptor, count)


def _start_of_last_line(descriptor: int, size: int, block: int = 4096) -> int:
    """Where the file's last line starts: just after the last newline before ``size``, or 0."""
    end = size
    while end > 0:
        start = max(0, end - block)
        found = _read_at(descriptor, start, end - start).rfind(b"\n")
        if found >= 0:
            return start + found + 1
        end = start
    return 0


def _record_problem(fields: Any) -> str | None:
    """Why a parsed line is not a search record (None if it is one): its keys, then each field's type."""
    if not isinstance(fields, dict):
        return "it is not a JSON object"
    expected = list(_FIELD_TYPES)
    missing = sorted(set(expected) - set(fields) - _OPTIONAL_FIELDS)
    extra = sorted(set(fields) - set(expected))
    if missing or extra:
        return f"its keys are not {', '.join(expected)}" + (f": {', '.join(missing)} missing" if missing else "") + (
            f"; {len(extra)} unknown" if extra else "")
    for name, types in _FIELD_TYPES.items():
        if name in fields and (not isinstance(fields[name], types) or isinstance(fields[name], bool)):
            return f"its {name!r} is a {type(fields[name]).__name__}"
    if not _DIGEST.fullmatch(fields["query_hmac"]):
        return "its 'query_hmac' is not 16 hex digits"
    if fields["k"] < 0:
        return "its 'k' is negative"
    if not all(isinstance(page, str) for page in fields["page_ids"]):
        return "its 'page_ids' hold something other than strings"
    where = fields.get("where")
    if where is not None and not (set(where) <= set(ChunkFilter.__dataclass_fields__)
                                  and all(isinstance(value, str) for value in where.values())):
        return "its 'where' is not a filter's conditions"
    return None


class AuditedRetriever(Retriever):
    """Any retriever, with every search written to a :class:`SearchLog` under ``asked_by``.

    The results are the wrapped retriever's, unchanged; ``audience`` and ``where`` are passed through
    (the filters still apply before ranking) and recorded.
    """

    def __init__(self, retriever: Retriever, log: SearchLog, asked_by: str) -> None:
        self.retriever = retriever
        self.log = log
        self.asked_by = asked_by

    def fit(self, corpus: SearchCorpus) -> AuditedRetriever:
        """Fit the wrapped retriever; returns self."""
        self.retriever.fit(corpus)
        return self

    def search(self, query: str, k: int = 10, audience: str | None = None,
               min_score: float | None = None, where: ChunkFilter | None = None) -> list[Hit]:
        """The wrapped retriever's hits, after logging who asked and which pages they were shown."""
        hits = self.retriever.search(query, k=k, audience=audience, min_score=min_score, where=where)
        self.log.record(asked_by=self.asked_by, query=query, hits=hits, k=k, audience=audience, where=where)
        return hits

    def __getattr__(self, name: str) -> Any:  # fitted attributes (corpus_, ...) are the wrapped retriever's
        if name.startswith("__") or name in ("retriever", "log", "asked_by"):
            raise AttributeError(name)
        return getattr(self.retriever, name)
