"""The client's request log: one row per HTTP attempt, on the client's clock."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import pandas as pd

__all__ = ["RequestRecord", "RequestLog"]

COLUMNS = ["t", "method", "route", "endpoint", "status", "code", "reason", "retry_after", "paced_s", "wait_s",
           "attempt", "request_id"]


@dataclass(frozen=True, slots=True)  # slots: a first index of 100,000 pages logs some 175,000 of them
class RequestRecord:
    """One attempt: when it was sent, where, what came back, and the waits around it.

    ``paced_s`` is the wait the client imposed on itself before sending (pacing), ``wait_s`` the
    wait after the answer (``Retry-After`` or backoff) before the next attempt. ``reason`` is
    the rate-limit reason of a 429 (``connection`` or ``workspace``), ``overload`` for a 529,
    ``server_error`` for a 5xx, ``network`` for a failed connection.
    """

    t: float
    method: str
    route: str
    endpoint: str
    status: int
    code: str
    reason: str
    retry_after: float | None
    paced_s: float
    wait_s: float
    attempt: int
    request_id: str


class RequestLog:
    """An append-only list of :class:`RequestRecord` with a DataFrame view."""

    def __init__(self) -> None:
        self.records: list[RequestRecord] = []

    def append(self, record: RequestRecord) -> None:
        self.records.append(record)

    def __len__(self) -> int:
        return len(self.records)

    def frame(self) -> pd.DataFrame:
        """The log as a DataFrame with the columns of :class:`RequestRecord`."""
        return pd.DataFrame([asdict(r) for r in self.records], columns=COLUMNS)

    def __repr__(self) -> str:
        return f"RequestLog({len(self.records)} requests)"
