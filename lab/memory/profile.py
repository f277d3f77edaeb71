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
- writes are atomic: a crash mid-write leaves the previous file intact;
- each update reads, changes and writes the file under a lock (:mod:`lab.file_lock`), so two
  processes updating one profile at once both keep their fields;
- the file is checked as it is read, entry by entry, and a file the store refuses is left as it
  was; a field the store would refuse now (a hand edit, an older whitelist) is not given to a
  prompt.

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
from lab.clock import Clock, WallClock
from lab.errors import LabError
from lab.file_lock import exclusive_lock
from lab.json_files import JSONFileError, read_json_file

__all__ = [
    "DEFAULT_ALLOWED_FIELDS",
    "DEFAULT_RETENTION",
    "FORMAT_VERSION",
    "MAX_FILE_BYTES",
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
#: Larger than any profile of whitelisted short facts; a larger file is not one this store wrote.
MAX_FILE_BYTES = 1 << 20
_KEYS = ("version", "updated_at", "profile", "expires")

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


def _document_problem(document: Any) -> str | None:
    """What makes a parsed file not a profile this store reads (None if it is one): the type and
    range of each entry, as the store writes them."""
    if not isinstance(document, dict):
        return f"is not a version-{FORMAT_VERSION} profile: expected a JSON object, found {_json_type(document)}"
    unknown = sorted(set(document) - set(_KEYS))
    if unknown:
        return (f"is not a version-{FORMAT_VERSION} profile: it holds the key {unknown[0]!r}, which a profile does not "
                f"have (it has {', '.join(_KEYS)})")
    version = document.get("version")
    if type(version) is not int or version not in _READABLE_VERSIONS:  # True == 1, but is no version
        return (f"is not a version-{FORMAT_VERSION} profile: its version is {json.dumps(version)[:40]} (this store "
                f"reads versions {' and '.join(map(str, _READABLE_VERSIONS))})")
    if document.get("updated_at") is not None and _aware_time_problem(document["updated_at"]):
        return (f"is not a version-{FORMAT_VERSION} profile: its updated_at is "
                f"{_aware_time_problem(document['updated_at'])}")
    if not isinstance(document.get("profile"), dict):
        return (f"is not a version-{FORMAT_VERSION} profile: 'profile' is {_json_type(document.get('profile'))}, not a "
                "'profile' object of field name to value")
    for name, value in document["profile"].items():
        shape = _shape_problem(value)
        if shape is not None:
            return (f"is not a version-{FORMAT_VERSION} profile: the field {name!r} holds "
                    f"{json.dumps(value)[:40]}: {shape}")
    expires = document.get("expires", {})
    if not isinstance(expires, dict):
        return (f"is not a version-{FORMAT_VERSION} profile: 'expires' is {_json_type(expires)}, not an 'expires' "
                "object of field name to expiry time")
    for name, until in expires.items():
        problem = _aware_time_problem(until)
        if problem:
            return f"is not a version-{FORMAT_VERSION} profile: the expiry of {name!r} is {problem}"
    return None


def _aware_time_problem(value: Any) -> str | None:
    """Why ``value`` is not an ISO 8601 time with its time zone, as the store writes them (None if it is one)."""
    example = "such as 2026-07-01T09:00:00+00:00"
    if not isinstance(value, str):
        return f"{_json_type(value)}, not an ISO 8601 time with its time zone ({example})"
    try:
        instant = datetime.fromisoformat(value)
    except ValueError:
        return f"{json.dumps(value)[:40]}, which is not an ISO 8601 time ({example})"
    if instant.utcoffset() is None:
        return f"{json.dumps(value)[:40]}, a time without a time zone ({example})"
    return None


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "a number",
             float: "a number"}
    return "null" if value is None else names.get(type(value), f"a {type(value).__name__}")


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
        an empty profile if no file exists yet. :meth:`fields` is what a prompt should read.

        The file is checked as it is read (size, JSON within bounds, the type of every entry, each
        expiry a time with its zone); anything else is a :class:`ProfileFileError` naming the file,
        the entry and the fix, and the file is left as it was.
        """
        try:
            document = read_json_file(self.path, MAX_FILE_BYTES)
        except FileNotFoundError:
            return {"version": FORMAT_VERSION, "updated_at": None, "profile": {}, "expires": {}}
        except JSONFileError as problem:
            raise self._refused(str(problem)) from None
        except OSError as error:  # a folder, a path under a file, no permission to read it
            raise ProfileFileError(f"{self.path} cannot be read ({error.strerror or error}); give the program read "
                                   "access to it, or choose another path") from None
        problem = _document_problem(document)
        if problem is not None:
            raise self._refused(problem)
        document.setdefault("expires", {})  # a version-1 file has none: its fields never expire
        return document

    def fields(self) -> dict[str, Any]:
        """The stored fields a prompt may read, after deleting those past their retention.

        A stored field the store would refuse now (off the whitelist, sensitive, about someone
        else: written under an older whitelist, or by hand) is left out; :meth:`refused_fields`
        lists it and :meth:`forget` deletes it.
        """
        self.expire()
        return {name: value for name, value in self.load()["profile"].items()
                if refusal_reason(name, value, self.allowed_fields) is None}

    def refused_fields(self) -> dict[str, str]:
        """Stored fields that :meth:`fields` leaves out, each with the reason the store would refuse it now."""
        stored = self.load()["profile"]
        reasons = {name: refusal_reason(name, value, self.allowed_fields) for name, value in stored.items()}
        return {name: reason for name, reason in reasons.items() if reason is not None}

    def expire(self) -> tuple[str, ...]:
        """Delete from the file every field whose retention ran out; the names deleted, in order."""
        if not self._drop_expired(self.load()):  # nothing to delete: a read takes no lock and writes nothing
            return ()
        with exclusive_lock(self.path):
            document = self.load()
            expired = self._drop_expired(document)
            if expired:
                self._save(document)
            return expired

    def update(self, fields: Mapping[str, Any]) -> UpdateResult:
        """Store the allowed, harmless fields, each with its expiry, and report every refused one with its reason.

        The file is rewritten (and its time stamp moved) only if at least one field was accepted or
        expired. The read, the change and the write hold the profile's lock, so that updates from
        several processes at once each keep what the others wrote.
        """
        if not isinstance(fields, Mapping):
            raise TypeError(f"update() takes a mapping of field name to value, got {type(fields).__name__}")
        reasons = {name: refusal_reason(name, value, self.allowed_fields) for name, value in fields.items()}
        accepted = tuple(name for name, reason in reasons.items() if reason is None)
        rejected = {str(name): reason for name, reason in reasons.items() if reason is not None}
        if not accepted:
            self.expire()
            return UpdateResult(accepted, rejected)
        with exclusive_lock(self.path):
            document = self.load()
            self._drop_expired(document)
            for name in accepted:
                value = fields[name]
                document["profile"][name] = list(value) if isinstance(value, tuple) else value
                self._stamp_expiry(document, name)
            self._save(document)
        return UpdateResult(accepted, rejected)

    def forget(self, field: str) -> bool:
        """Delete ``field`` from the file itself; True if it was stored, False if there was nothing to forget."""
        if field not in self.load()["profile"]:  # nothing to forget: no lock, no write
            return False
        with exclusive_lock(self.path):
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

    def _drop_expired(self, document: dict[str, Any]) -> tuple[str, ...]:
        """Delete the fields past their retention from ``document`` (in memory); their names, in order."""
        now = self._now()
        expired = tuple(name for name, until in sorted(document["expires"].items())
                        if datetime.fromisoformat(until) <= now)
        for name in expired:
            document["profile"].pop(name, None)
            del document["expires"][name]
        return expired

    def _refused(self, problem: str) -> ProfileFileError:
        return ProfileFileError(f"{self.path} {problem}; it was left as it is: fix it, or delete it to start an "
                                "empty profile")

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
