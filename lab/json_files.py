"""Reading JSON that a person may have edited or a crash may have cut, within bounds.

A file the lab reads back (a profile, a status file, a line of a log) is checked before it is
trusted, as a request body is: its size is bounded before it is read, its nesting depth before it
is parsed (Python's parser recurses, and a deep enough value ends in ``RecursionError``), integers
may not be longer than a field needs (a 5,000-digit number would make ``int`` raise), ``NaN`` and
``Infinity`` are refused as the JSON standard refuses them (a profile holding one could never be
written again), and every string must be valid Unicode. Each problem is a :class:`JSONFileError`
saying what is wrong; the reader adds the file's name and the fix.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from lab.errors import LabError

__all__ = ["JSONFileError", "MAX_DEPTH", "MAX_INTEGER_DIGITS", "nesting_depth_exceeds", "parse_json_text",
           "read_json_file"]

#: Deeper than any file the lab writes (a profile is three levels).
MAX_DEPTH = 32
#: Longer than any count, size or id the lab writes.
MAX_INTEGER_DIGITS = 20

_STRUCTURE = re.compile(r'[\[\]{}"\\]')


class JSONFileError(LabError, ValueError):
    """A file (or a line of one) is not JSON within the lab's bounds; the message says what is wrong."""


class _Refused(Exception):
    """Raised from inside the parser's hooks; becomes a JSONFileError once the parser has unwound."""


def nesting_depth_exceeds(text: str, limit: int) -> bool:
    """True if arrays and objects in ``text`` nest deeper than ``limit``, found in one linear pass
    that looks only at brackets, quotes and backslashes (brackets inside strings do not count)."""
    depth, in_string, escaped_at = 0, False, -1
    for match in _STRUCTURE.finditer(text):
        char, at = match.group(), match.start()
        if in_string:
            if at == escaped_at:
                continue
            if char == "\\":
                escaped_at = at + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INTEGER_DIGITS:
        raise _Refused(f"holds a number with {digits} digits (at most {MAX_INTEGER_DIGITS} here)")
    return int(text)


def _no_constant(name: str) -> float:
    raise _Refused(f"holds {name}, which is not JSON (numbers are finite)")


def parse_json_text(text: str) -> Any:
    """The JSON value in ``text``; :class:`JSONFileError` if it is not JSON or breaks a bound."""
    if nesting_depth_exceeds(text, MAX_DEPTH):
        raise JSONFileError(f"nests arrays and objects deeper than {MAX_DEPTH} levels")
    try:
        value = json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except _Refused as refused:
        raise JSONFileError(str(refused)) from None
    except (json.JSONDecodeError, RecursionError) as error:
        raise JSONFileError(f"is not valid JSON ({error.msg if isinstance(error, json.JSONDecodeError) else error})"
                            ) from None
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise JSONFileError("holds a string with an unpaired UTF-16 surrogate (such as \\ud800), which is not "
                            "Unicode text") from None
    return value


def _read_bounded(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The bytes of ``path``, refused with :class:`JSONFileError` past ``max_bytes`` (only that much is read);
    ``OSError`` as the file system raised it (a missing file, a folder, no permission)."""
    with open(path, "rb") as file:
        data = file.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise JSONFileError(f"is larger than {max_bytes:,} bytes, more than this file ever holds")
    return data


def read_json_file(path: str | os.PathLike[str], max_bytes: int) -> Any:
    """The JSON value in the UTF-8 file at ``path``, read within bounds (see the module's docstring)."""
    data = _read_bounded(Path(path), max_bytes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise JSONFileError(f"is not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})") from None
    return parse_json_text(text)
