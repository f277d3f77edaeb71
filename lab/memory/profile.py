"""A persistent user profile: a few stable facts, a whitelist of fields, and a real forget.

A profile that is re-sent to the model every turn is a record of personal data, so the store
imposes rules instead of saving whatever it is given:

- only fields on a whitelist are stored (what was not foreseen does not get in);
- values that look sensitive are refused: an ``@``, six or more digits in a row, or the words
  password, key, token, secret, contraseña, clave (whole words, plural allowed);
- every write stamps the ISO 8601 time of the edit, with its time zone;
- ``forget`` deletes the field from the file on disk, not just from memory;
- writes are atomic: a crash mid-write leaves the previous file intact.

The sensitive-value pattern is a thin net and the whitelist is the real defence. Known blind
spots (each pinned by a test): numbers spelled out ("six one two ...") or split by spaces or
dashes ("612 345 678"), addresses written as "sofia at example dot com", secrets without a
keyword ("cuaderno2026"), keywords glued to other letters ("apikey", "mypassword") or in other
languages ("Passwort"), and anything sensitive by meaning (health, opinions about other people).
It also refuses some harmless values: "piano keys", "token budgets".
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lab.errors import LabError
from lab.clock import Clock, WallClock

__all__ = [
    "DEFAULT_ALLOWED_FIELDS",
    "FORMAT_VERSION",
    "ProfileFileError",
    "ProfileStore",
    "UpdateResult",
    "sensitive_reason",
]

#: Fields a study assistant needs to help better; everything else is refused.
DEFAULT_ALLOWED_FIELDS: tuple[str, ...] = (
    "name",
    "preferred_language",
    "level",
    "topics",
    "timezone",
    "goal",
    "answer_style",
)

#: Version of the file layout, checked on load so an incompatible file is reported, not misread.
FORMAT_VERSION = 1

_LETTER = r"[^\W\d_]"
# Keywords count only as whole words (bounded by anything but a letter), so "api_key" and
# "token123" are caught while "monkey" and "tokenization" are not.
_SENSITIVE_WORDS = re.compile(
    rf"(?<!{_LETTER})(password|key|token|secret|contraseña|clave)s?(?!{_LETTER})", re.IGNORECASE
)
_LONG_DIGIT_RUN = re.compile(r"\d{6,}")

_Scalar = str | int | float | bool


class ProfileFileError(LabError, ValueError):
    """The profile file exists but is not a profile this store can read."""


@dataclass(frozen=True)
class UpdateResult:
    """What an update stored and what it refused, with the reason for each refused field."""

    accepted: tuple[str, ...]
    rejected: dict[str, str] = field(default_factory=dict)


def sensitive_reason(value: _Scalar | list[_Scalar]) -> str | None:
    """Why a value looks sensitive (an e-mail, a long number, a secret keyword), or None if it does not."""
    items = value if isinstance(value, (list, tuple)) else [value]
    for item in items:
        text = str(item)
        if "@" in text:
            return "looks sensitive: contains '@' (an e-mail address?)"
        if _LONG_DIGIT_RUN.search(text):
            return "looks sensitive: six or more digits in a row (a phone, card or ID number?)"
        word = _SENSITIVE_WORDS.search(text)
        if word:
            return f"looks sensitive: mentions '{word.group(0)}' (a secret?)"
    return None


def _shape_problem(value: Any) -> str | None:
    """Why a value cannot be stored at all (wrong type), or None if its shape is fine."""
    if value is None:
        return "None is not stored: call forget(field) to remove a field"
    items = value if isinstance(value, (list, tuple)) else [value]
    for item in items:
        if not isinstance(item, (str, int, float, bool)):
            return (f"a {type(item).__name__} cannot be stored: use a string, a number, a boolean "
                    "or a list of those")
        if isinstance(item, float) and not math.isfinite(item):
            return f"{item!r} is not valid JSON: use a finite number"
    return None


class ProfileStore:
    """A user profile kept in one JSON file: whitelisted fields, sensitive values refused, atomic writes.

    The file holds ``{"version": 1, "updated_at": "<ISO 8601 with offset>", "profile": {...}}``
    with profile fields sorted by name. ``clock`` is any object whose ``.datetime()`` returns an
    aware datetime (``lab.clock.SimulatedClock`` in lessons and tests); by default the wall clock.
    """

    def __init__(self, path: str | os.PathLike[str], allowed_fields: Iterable[str] = DEFAULT_ALLOWED_FIELDS,
                 clock: Clock | None = None) -> None:
        self.path = Path(path)
        self.allowed_fields = tuple(allowed_fields)
        if not self.allowed_fields or not all(isinstance(name, str) for name in self.allowed_fields):
            raise ValueError(f"allowed_fields must be a non-empty list of field names, got {self.allowed_fields!r}")
        self.clock = clock if clock is not None else WallClock()

    def __repr__(self) -> str:
        return f"ProfileStore(path={str(self.path)!r}, allowed_fields={self.allowed_fields!r})"

    def load(self) -> dict[str, Any]:
        """The stored document (version, updated_at, profile); an empty profile if no file exists yet."""
        if not self.path.exists():
            return {"version": FORMAT_VERSION, "updated_at": None, "profile": {}}
        try:
            document = json.loads(self.path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ProfileFileError(f"{self.path} is not valid JSON ({exc}); fix it or delete it to start "
                                   "an empty profile") from None
        if (not isinstance(document, dict) or document.get("version") != FORMAT_VERSION
                or not isinstance(document.get("profile"), dict)):
            raise ProfileFileError(f"{self.path} is not a version-{FORMAT_VERSION} profile: expected a JSON "
                                   "object with 'version': 1, 'updated_at' and a 'profile' object")
        return document

    def fields(self) -> dict[str, Any]:
        """The stored profile fields alone, as a dict."""
        return dict(self.load()["profile"])

    def update(self, fields: Mapping[str, Any]) -> UpdateResult:
        """Store the allowed, non-sensitive fields and report every refused one with its reason.

        The file is rewritten (and its time stamp moved) only if at least one field was accepted.
        """
        if not isinstance(fields, Mapping):
            raise TypeError(f"update() takes a mapping of field name to value, got {type(fields).__name__}")
        document = self.load()
        accepted: list[str] = []
        rejected: dict[str, str] = {}
        for name, value in fields.items():
            reason = self._refusal(name, value)
            if reason is None:
                document["profile"][name] = list(value) if isinstance(value, tuple) else value
                accepted.append(name)
            else:
                rejected[str(name)] = reason
        if accepted:
            self._save(document)
        return UpdateResult(tuple(accepted), rejected)

    def forget(self, field: str) -> bool:
        """Delete ``field`` from the file itself; True if it was stored, False if there was nothing to forget."""
        document = self.load()
        if field not in document["profile"]:
            return False
        del document["profile"][field]
        self._save(document)
        return True

    def stored_bytes(self) -> bytes:
        """The file exactly as it sits on disk (its ``len`` is the size in bytes)."""
        if not self.path.exists():
            raise FileNotFoundError(f"no profile stored yet at {self.path}: call update() first")
        return self.path.read_bytes()

    def _refusal(self, name: Any, value: Any) -> str | None:
        if name not in self.allowed_fields:
            return f"not an allowed field; allowed: {', '.join(sorted(self.allowed_fields))}"
        return _shape_problem(value) or sensitive_reason(value)

    def _now_iso(self) -> str:
        instant = self.clock.datetime()
        if instant.tzinfo is None or instant.utcoffset() is None:
            raise ValueError(f"the clock returned a naive datetime ({instant.isoformat()}); the profile needs "
                             "an aware one, e.g. datetime.now(timezone.utc)")
        return instant.isoformat(timespec="seconds")

    def _save(self, document: dict[str, Any]) -> None:
        stamped = {
            "version": FORMAT_VERSION,
            "updated_at": self._now_iso(),
            "profile": {name: document["profile"][name] for name in sorted(document["profile"])},
        }
        _write_json_atomically(self.path, stamped)


def _write_json_atomically(path: Path, document: Mapping[str, Any]) -> None:
    """Write to a temporary file beside ``path``, flush and fsync it, then rename it over ``path``.

    ``os.replace`` is atomic on one file system, so a reader sees either the old file or the new
    one, never half of either. The temporary file is created with owner-only permissions.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            json.dump(document, out, ensure_ascii=False, indent=2, allow_nan=False)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _fsync_directory(path.parent)


def _fsync_directory(directory: Path) -> None:
    # Makes the rename itself durable on POSIX; Windows cannot open directories, and does not need it.
    if os.name != "posix":
        return
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
