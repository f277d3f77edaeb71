"""A persistent user profile: a few stable facts, a whitelist of fields, a real forget, an expiry.

A profile that is re-sent to the model every turn is a record of personal data, so the store
imposes rules instead of saving whatever it is given:

- only fields on a whitelist are stored (what was not foreseen does not get in);
- values that look sensitive are refused: an ``@``, six or more digits in a row, or the words
  password, key, token, secret, contraseña, clave (whole words, plural allowed);
- values about someone else are refused: a relative, friend or colleague, or "he", "she",
  "his", "her" (the profile speaks of its owner only, who cannot consent for others);
- every field expires: each write stamps when it runs out under the retention rule, and an
  expired field is deleted from the file before anything is read (``None``: kept until forgotten);
- every write stamps the ISO 8601 time of the edit, with its time zone;
- ``forget`` deletes the field from the file on disk, not just from memory;
- writes are atomic: a crash mid-write leaves the previous file intact.

The sensitive-value pattern is a thin net and the whitelist is the real defence. Known blind
spots (each pinned by a test): numbers spelled out ("six one two ...") or split by spaces or
dashes ("612 345 678"), addresses written as "sofia at example dot com", secrets without a
keyword ("cuaderno2026"), keywords glued to other letters ("apikey", "mypassword") or in other
languages ("Passwort"), and anything sensitive by meaning (health, opinions about other people).
It also refuses some harmless values: "piano keys", "token budgets". The check for other
people sees words, not people: a bare name ("Diego cannot stand jazz") gets through, and
"son" is also Spanish for "are".
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from lab.atomic_files import write_text_atomically
from lab.errors import LabError
from lab.clock import Clock, WallClock

__all__ = [
    "DEFAULT_ALLOWED_FIELDS",
    "DEFAULT_RETENTION",
    "FORMAT_VERSION",
    "ProfileFileError",
    "ProfileStore",
    "UpdateResult",
    "refusal_reason",
    "sensitive_reason",
    "third_party_reason",
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

#: How long a field is kept after it was last written; ``None`` keeps it until it is forgotten.
#: Stable facts stay, what a learner studies and aims for changes and goes stale.
DEFAULT_RETENTION: Mapping[str, timedelta | None] = {
    "name": None,
    "preferred_language": None,
    "timezone": None,
    "level": timedelta(days=365),
    "answer_style": timedelta(days=365),
    "topics": timedelta(days=180),
    "goal": timedelta(days=90),
}

#: Version of the file layout, checked on load so an incompatible file is reported, not misread.
#: Version 2 added ``expires``; a version-1 file is read as one whose fields never expire.
FORMAT_VERSION = 2
_READABLE_VERSIONS = (1, 2)

_LETTER = r"[^\W\d_]"
# Keywords count only as whole words (bounded by anything but a letter), so "api_key" and
# "token123" are caught while "monkey" and "tokenization" are not.
_SENSITIVE_WORDS = re.compile(
    rf"(?<!{_LETTER})(password|key|token|secret|contraseña|clave)s?(?!{_LETTER})", re.IGNORECASE
)
_LONG_DIGIT_RUN = re.compile(r"\d{6,}")
# Words that put another person in a value: relatives, friends, colleagues, third-person pronouns.
_OTHER_PEOPLE = re.compile(
    rf"(?<!{_LETTER})(friend|colleague|coworker|boss|manager|classmate|teacher|partner|wife|husband|"
    r"girlfriend|boyfriend|mother|mom|mum|father|dad|sister|brother|son|daughter|neighbou?r|cousin|"
    r"aunt|uncle|he|she|him|his|her|hers|amig[oa]|compañer[oa]|jef[ea]|madre|padre|mamá|papá|"
    rf"herman[oa]|hij[oa]|pareja|novi[oa]|vecin[oa]|él|ella)s?(?!{_LETTER})",
    re.IGNORECASE,
)

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


def third_party_reason(value: _Scalar | list[_Scalar]) -> str | None:
    """Why a value looks like personal data about someone else (a relative, a friend, "she"), or None."""
    items = value if isinstance(value, (list, tuple)) else [value]
    for item in items:
        other = _OTHER_PEOPLE.search(str(item))
        if other:
            return f"about someone else: mentions '{other.group(0)}' (they did not agree to be remembered)"
    return None


def refusal_reason(name: Any, value: Any, allowed_fields: Iterable[str] = DEFAULT_ALLOWED_FIELDS) -> str | None:
    """Why ``name: value`` must not be stored, or None if it may: the whole "what not to store" check.

    In order: a field off the whitelist, a value that is not plain data, a value that looks like
    a secret or an identifier, a value about someone else.
    """
    allowed = tuple(allowed_fields)
    if name not in allowed:
        return f"not an allowed field; allowed: {', '.join(sorted(allowed))}"
    return _shape_problem(value) or sensitive_reason(value) or third_party_reason(value)


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
    """A user profile kept in one JSON file: whitelisted fields, refused values, expiry, atomic writes.

    The file holds ``{"version": 2, "updated_at": "<ISO 8601 with offset>", "profile": {...},
    "expires": {...}}`` with profile fields sorted by name, and for each field with a retention
    the instant it runs out. ``clock`` is any object whose ``.datetime()`` returns an aware
    datetime (``lab.clock.SimulatedClock`` in lessons and tests); by default the wall clock.
    ``retention`` maps a field to how long it is kept after each write (``None`` or absent:
    until forgotten).
    """

    def __init__(self, path: str | os.PathLike[str], allowed_fields: Iterable[str] = DEFAULT_ALLOWED_FIELDS,
                 clock: Clock | None = None,
                 retention: Mapping[str, timedelta | None] = DEFAULT_RETENTION) -> None:
        self.path = Path(path)
        self.allowed_fields = tuple(allowed_fields)
        if not self.allowed_fields or not all(isinstance(name, str) for name in self.allowed_fields):
            raise ValueError(f"allowed_fields must be a non-empty list of field names, got {self.allowed_fields!r}")
        self.clock = clock if clock is not None else WallClock()
        self.retention = dict(retention)
        for name, period in self.retention.items():
            if period is not None and (not isinstance(period, timedelta) or period <= timedelta(0)):
                raise ValueError(f"retention of {name!r} must be a positive timedelta or None, got {period!r}")

    def __repr__(self) -> str:
        return f"ProfileStore(path={str(self.path)!r}, allowed_fields={self.allowed_fields!r})"

    def load(self) -> dict[str, Any]:
        """The document as stored (version, updated_at, profile, expires), expired fields included;
        an empty profile if no file exists yet. :meth:`fields` is what a prompt should read."""
        if not self.path.exists():
            return {"version": FORMAT_VERSION, "updated_at": None, "profile": {}, "expires": {}}
        try:
            document = json.loads(self.path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ProfileFileError(f"{self.path} is not valid JSON ({exc}); fix it or delete it to start "
                                   "an empty profile") from None
        if (not isinstance(document, dict) or document.get("version") not in _READABLE_VERSIONS
                or not isinstance(document.get("profile"), dict)
                or not isinstance(document.setdefault("expires", {}), dict)):
            raise ProfileFileError(f"{self.path} is not a version-{FORMAT_VERSION} profile: expected a JSON "
                                   f"object with 'version': {FORMAT_VERSION}, 'updated_at', a 'profile' object "
                                   "and an 'expires' object")
        return document

    def fields(self) -> dict[str, Any]:
        """The stored profile fields alone, as a dict, after deleting those past their retention."""
        self.expire()
        return dict(self.load()["profile"])

    def expire(self) -> tuple[str, ...]:
        """Delete from the file every field whose retention ran out; the names deleted, in order."""
        document = self.load()
        now = self._now()
        expired = tuple(name for name, until in sorted(document["expires"].items())
                        if datetime.fromisoformat(until) <= now)
        for name in expired:
            document["profile"].pop(name, None)
            del document["expires"][name]
        if expired:
            self._save(document)
        return expired

    def update(self, fields: Mapping[str, Any]) -> UpdateResult:
        """Store the allowed, harmless fields, each with its expiry, and report every refused one with its reason.

        The file is rewritten (and its time stamp moved) only if at least one field was accepted.
        """
        if not isinstance(fields, Mapping):
            raise TypeError(f"update() takes a mapping of field name to value, got {type(fields).__name__}")
        self.expire()
        document = self.load()
        accepted: list[str] = []
        rejected: dict[str, str] = {}
        for name, value in fields.items():
            reason = refusal_reason(name, value, self.allowed_fields)
            if reason is None:
                document["profile"][name] = list(value) if isinstance(value, tuple) else value
                self._stamp_expiry(document, name)
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
        document["expires"].pop(field, None)
        self._save(document)
        return True

    def stored_bytes(self) -> bytes:
        """The file exactly as it sits on disk (its ``len`` is the size in bytes)."""
        if not self.path.exists():
            raise FileNotFoundError(f"no profile stored yet at {self.path}: call update() first")
        return self.path.read_bytes()

    def _stamp_expiry(self, document: dict[str, Any], name: str) -> None:
        period = self.retention.get(name)
        if period is None:
            document["expires"].pop(name, None)
        else:
            document["expires"][name] = (self._now() + period).isoformat(timespec="seconds")

    def _now(self) -> datetime:
        instant = self.clock.datetime()
        if instant.tzinfo is None or instant.utcoffset() is None:
            raise ValueError(f"the clock returned a naive datetime ({instant.isoformat()}); the profile needs "
                             "an aware one, e.g. datetime.now(timezone.utc)")
        return instant

    def _save(self, document: dict[str, Any]) -> None:
        stamped = {
            "version": FORMAT_VERSION,
            "updated_at": self._now().isoformat(timespec="seconds"),
            "profile": {name: document["profile"][name] for name in sorted(document["profile"])},
            "expires": {name: document["expires"][name] for name in sorted(document["expires"])},
        }
        text = json.dumps(stamped, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
        write_text_atomically(self.path, text)  # owner-only: a profile is personal data
