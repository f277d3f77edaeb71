"""The search audit log: one JSON line per search, saying who asked and which pages came back.

With a permission audit (:mod:`lab.ingest.permission_audit`) you know what each integration
*could* see; the log says what each caller *was shown*. Each record holds who asked (an
integration or audience label), the audience filter applied, a keyed hash of the query and the
page ids returned, best first.

The query is stored as an HMAC-SHA256 digest, never as text: a customer's question can hold
personal data ("my son Mateo is allergic to nuts"), and a log of raw queries would become a
store of personal data with its own retention and access rules. A plain SHA-256 would not do:
short questions can be recovered by hashing likely guesses. With a key kept apart from the log,
nobody holding only the log can test guesses, while equal queries (after case and spacing are
normalised) still give equal digests, so repeats can be counted.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from lab.clock import Clock
from lab.errors import LabError
from lab.retrieval.corpus import SearchCorpus
from lab.retrieval.retrievers import Retriever
from lab.vectors.search import Hit

__all__ = ["SearchRecord", "SearchLog", "AuditedRetriever", "query_digest", "SearchLogKeyError", "SearchLogFileError"]


class SearchLogKeyError(LabError, ValueError):
    """The search log was given no key to hash queries with, or something that is not a key."""


class SearchLogFileError(LabError, ValueError):
    """The log's path is a folder, or a line of the file is not a search record."""


def query_digest(query: str, key: bytes) -> str:
    """The first 16 hex digits of HMAC-SHA256(key, query), the query casefolded with spaces collapsed."""
    normalised = " ".join(query.casefold().split())
    return hmac.new(key, normalised.encode("utf-8"), hashlib.sha256).hexdigest()[:16]


@dataclass(frozen=True, kw_only=True)
class SearchRecord:
    """One search: when (simulated or wall clock; ``None`` without one), who, what was returned."""

    at: str | None
    asked_by: str
    audience: str | None
    query_hmac: str
    k: int
    page_ids: list[str] = field(default_factory=list)


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
        if self.path.is_dir():
            raise SearchLogFileError(f"{self.path} is a folder; the search log is a file: pass a path such as "
                                     f"{self.path / 'searches.jsonl'}")
        self._key = key.encode("utf-8") if isinstance(key, str) else bytes(key)
        self.clock = clock

    def __repr__(self) -> str:  # never the key
        return f"SearchLog({str(self.path)!r})"

    def record(self, *, asked_by: str, query: str, hits: Sequence[Hit], k: int,
               audience: str | None = None) -> SearchRecord:
        """Append one search to the file and return its record."""
        pages = list(dict.fromkeys(hit.page_id for hit in hits if hit.page_id is not None))
        entry = SearchRecord(at=self.clock.datetime().isoformat() if self.clock is not None else None,
                             asked_by=asked_by, audience=audience, query_hmac=query_digest(query, self._key), k=k,
                             page_ids=pages)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:  # one short write per line: appends do not interleave
            handle.write(json.dumps(asdict(entry), ensure_ascii=False) + "\n")
        return entry

    def records(self) -> list[SearchRecord]:
        """Every record in the file, oldest first (none if the file does not exist yet)."""
        if not self.path.exists():
            return []
        lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        return [self._record(number, line) for number, line in enumerate(lines, start=1) if line.strip()]

    def _record(self, number: int, line: str) -> SearchRecord:
        try:
            return SearchRecord(**json.loads(line))
        except (ValueError, TypeError) as error:  # the line itself is never shown: it may hold what a person typed
            raise SearchLogFileError(
                f"line {number} of {self.path} is not a search record ({type(error).__name__}); the file holds "
                "JSON lines written by SearchLog: move it aside and start a new log") from None

    def frame(self) -> pd.DataFrame:
        """The records as a table, one row per search."""
        return pd.DataFrame([asdict(r) for r in self.records()], columns=list(SearchRecord.__dataclass_fields__))


class AuditedRetriever(Retriever):
    """Any retriever, with every search written to a :class:`SearchLog` under ``asked_by``.

    The results are the wrapped retriever's, unchanged; ``audience`` is passed through (the
    filter still happens before ranking) and recorded.
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
               min_score: float | None = None) -> list[Hit]:
        """The wrapped retriever's hits, after logging who asked and which pages they were shown."""
        hits = self.retriever.search(query, k=k, audience=audience, min_score=min_score)
        self.log.record(asked_by=self.asked_by, query=query, hits=hits, k=k, audience=audience)
        return hits

    def __getattr__(self, name: str) -> Any:  # fitted attributes (corpus_, ...) are the wrapped retriever's
        if name.startswith("__") or name in ("retriever", "log", "asked_by"):
            raise AttributeError(name)
        return getattr(self.retriever, name)
