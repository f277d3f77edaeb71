"""A scheduled sync's status file: one line of JSON that an alerting tool can watch.

A sync run from cron or a systemd timer has nobody reading its output. Each run, whether it
succeeded, was refused by the deletion guardrail or failed, replaces one small file with what
happened: the outcome, the exit code, the run's counts, the watermark and when the run finished
(as the sync reports it: the simulated clock in the lessons, the wall clock on the command line).
A monitor alerts when ``outcome`` is not ``"ok"``, or when ``finished_at`` grows too old (the job
stopped running at all). A run that finished but retired pages is ``"ok"`` (retiring a page is
legitimate) and says so: ``counts["pages_removed"]``, the ids in ``retired_pages``, a warning
in ``message`` and ``alert``, which is ``null`` unless the run has something a person should look at
(then one line naming it), so that a monitor can alert on it too (ids only: the file is readable by
others). With ``sync --alert-on-removal`` such a run also ends with exit code 10, not 0.

The file is written to a temporary file in the same folder and renamed over the old one, so a
reader sees the previous status or the new one, never half a line. The token never reaches it:
every message passes through :func:`lab.redaction.redact` first. Reading it back checks every
field (its type, and the outcome and exit code against their ranges) before a monitor trusts it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from lab.atomic_files import write_text_atomically
from lab.errors import LabError
from lab.json_files import JSONFileError, read_json_file
from lab.redaction import redact

__all__ = ["OUTCOMES", "RUN_COUNTS", "RunStatus", "StatusFileError", "write_status_file", "read_status_file"]

#: Every outcome a status file can hold: the sync finished, the guardrail refused it, or it failed.
OUTCOMES = ("ok", "refused", "failed")
#: The counts of a ``sync_runs`` row that a status file repeats.
RUN_COUNTS = ("requests", "pages_reread", "pages_removed", "chunks_new", "chunks_updated", "chunks_unchanged",
              "chunks_deleted", "chunks_total", "tokens_embedded")
#: Far more than one line of status ever holds.
MAX_STATUS_BYTES = 1 << 20
#: Each field of the file and what it holds, as JSON reads it back.
_FIELD_TYPES: dict[str, tuple[type, ...]] = {"command": (str,), "outcome": (str,), "exit_code": (int,),
                                             "finished_at": (str,), "watermark": (str, type(None)),
                                             "counts": (dict,), "message": (str,), "retired_pages": (list,),
                                             "alert": (str, type(None))}
#: Fields a file written before they existed may lack, and what they read as then.
_OPTIONAL_FIELDS: dict[str, Any] = {"retired_pages": [], "alert": None}


class StatusFileError(LabError, ValueError):
    """A status file that is not one ``write_status_file`` wrote (damaged, edited, or another file)."""


@dataclass(frozen=True, kw_only=True)
class RunStatus:
    """How one run ended, in the fields a monitor reads (``to_line`` gives the file's one line)."""

    command: str
    outcome: str
    exit_code: int
    finished_at: str
    watermark: str | None
    counts: dict[str, int] = field(default_factory=dict)
    message: str = ""
    retired_pages: list[str] = field(default_factory=list)  # ids of the pages the run took out of the index
    alert: str | None = None  # what a person should look at (pages removed), None when nothing

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}, got {self.outcome!r}")

    @classmethod
    def from_run(cls, run: Mapping[str, Any], *, command: str = "sync", exit_code: int = 0,
                 retired_pages: Sequence[str] = (), erased: bool = True) -> RunStatus:
        """The status of a run that finished, from its ``sync_runs`` row (as the index recorded it) and the ids
        of the pages it retired (the row counts them; the run's report names them); ``erased`` False when a
        reader of the index kept removed text in its file (:attr:`~lab.ingest.SyncReport.erased`)."""
        removed = int(run.get("pages_removed", 0))
        pages = f"{removed} page{'' if removed == 1 else 's'}"
        warning = f"; warning: {pages} retired from the index" if removed else ""
        alerts = [f"{pages} removed from the index (ids in retired_pages): retired, or the integration lost access"
                  ] if removed else []
        if not erased:
            alerts.append("removed text is still in the index file: another process was reading it; the next sync "
                          "erases it")
        alert = "; ".join(alerts) or None
        return cls(command=command, outcome="ok", exit_code=exit_code, finished_at=run["ran_at"],
                   watermark=run["watermark"], counts={name: int(run[name]) for name in RUN_COUNTS if name in run},
                   message=f"{run['kind']} run{warning}", retired_pages=list(retired_pages), alert=alert)

    def to_line(self, *secrets: str | None) -> str:
        """The status as one line of JSON (keys sorted), with every secret given redacted."""
        line = json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)
        return redact(line, *secrets)


def write_status_file(path: str | Path, status: RunStatus, *secrets: str | None) -> Path:
    """Replace ``path`` with ``status`` in one line, atomically: a temporary file in the same folder
    (so the rename never crosses file systems) is flushed to disk, then renamed over ``path``."""
    # 0o644: a monitor running as another user reads it (the token is redacted from the line)
    return write_text_atomically(path, status.to_line(*secrets) + "\n", mode=0o644)


def read_status_file(path: str | Path) -> RunStatus:
    """The status a file holds (what a monitor does in two lines of any language), every field checked."""
    try:
        fields = read_json_file(path, MAX_STATUS_BYTES)
    except JSONFileError as problem:
        raise _not_a_status(path, str(problem)) from None
    except OSError as error:  # missing, a folder, no permission: as the file system says
        raise StatusFileError(f"{path} cannot be read ({error.strerror or error}); is it the --status-file "
                              "that sync writes?") from None
    problem = _status_problem(fields)
    if problem is not None:
        raise _not_a_status(path, problem)
    return RunStatus(**fields)


def _not_a_status(path: str | Path, problem: str) -> StatusFileError:
    return StatusFileError(f"{path} is not a status file written by sync: it {problem}; the next sync run replaces "
                           "it (treat it as a failed run until then)")


def _status_problem(fields: Any) -> str | None:
    """Why parsed JSON is not a run's status (None if it is one): its keys, each field's type and range."""
    if not isinstance(fields, dict):
        return "is not a JSON object"
    for name, default in _OPTIONAL_FIELDS.items():
        fields.setdefault(name, default)
    missing, unknown = sorted(set(_FIELD_TYPES) - set(fields)), sorted(set(fields) - set(_FIELD_TYPES))
    if missing or unknown:
        return f"lacks {', '.join(missing)}" if missing else f"holds the unknown key {unknown[0]!r}"
    for name, types in _FIELD_TYPES.items():
        if not isinstance(fields[name], types) or isinstance(fields[name], bool):
            return f"holds {name!r} as a {type(fields[name]).__name__}"
    if fields["outcome"] not in OUTCOMES:
        return f"holds the outcome {fields['outcome'][:20]!r}, not one of {', '.join(OUTCOMES)}"
    if not 0 <= fields["exit_code"] <= 255:
        return f"holds the exit code {fields['exit_code']}, outside 0 to 255"
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in fields["counts"].values()):
        return "holds a count that is not a whole number of at least 0"
    if not all(isinstance(page_id, str) for page_id in fields["retired_pages"]):
        return "holds a retired page id that is not a string"
    return None
