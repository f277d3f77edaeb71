"""JSON on the wire: request bodies read within bounds, response bodies written as UTF-8.

A request body is checked before it is trusted: its nesting depth is measured before it is
parsed (Python's parser and the filter compiler recurse), integers may not be longer than any
Notion field needs (a 5,000-digit number would otherwise make ``int`` raise), ``NaN`` and
``Infinity`` are refused as the JSON standard refuses them, and every string must be valid
Unicode (a lone UTF-16 surrogate such as ``"\\ud800"`` cannot be written back as UTF-8). Each
problem is a Notion-shaped 400.
"""

from __future__ import annotations

import json
from typing import Any

from lab.json_files import nesting_depth_exceeds
from lab.simulator.errors import APIError, validation_error

__all__ = ["MAX_JSON_DEPTH", "MAX_INTEGER_DIGITS", "parse_json_body", "shown", "dump_json", "is_valid_unicode"]

#: The deepest body a read needs is a compound filter (body > filter > and > or > condition >
#: operator, six levels); the margin leaves room for clients that wrap more than they must.
MAX_JSON_DEPTH = 32
#: Longer than any count or size the API takes (a page_size, a 64-bit id).
MAX_INTEGER_DIGITS = 20


class _BodyRefused(Exception):
    """Raised from inside the JSON parser's hooks; becomes a 400 once the parser has unwound."""


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise _BodyRefused(f"body failed validation: a number in the body has {len(text.lstrip('-'))} digits; "
                           f"numbers here have at most {MAX_INTEGER_DIGITS}.")
    return int(text)


def _no_constant(name: str) -> float:
    raise _BodyRefused(f"body failed validation: `{name}` is not valid JSON; send numbers as finite decimals.")


def is_valid_unicode(text: str) -> bool:
    """False if ``text`` holds a lone UTF-16 surrogate (it cannot be encoded as UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def parse_json_body(raw: bytes) -> Any:
    """The JSON value in ``raw``, or the 400 Notion sends: ``invalid_json`` when it is not JSON,
    ``validation_error`` when it nests too deep, carries an over-long integer, ``NaN`` or
    ``Infinity``, or a string that is not valid Unicode."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise APIError(400, "invalid_json", "Error parsing JSON body: the body is not UTF-8.") from None
    if nesting_depth_exceeds(text, MAX_JSON_DEPTH):
        raise validation_error(f"body failed validation: the body nests arrays and objects deeper than "
                               f"{MAX_JSON_DEPTH} levels.")
    try:
        value = json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except _BodyRefused as refused:
        raise validation_error(str(refused)) from None
    except (json.JSONDecodeError, RecursionError):
        raise APIError(400, "invalid_json", "Error parsing JSON body.") from None
    if not is_valid_unicode(json.dumps(value, ensure_ascii=False)):
        raise validation_error("body failed validation: a string in the body holds an unpaired UTF-16 "
                               "surrogate (such as \\ud800); send valid Unicode text.")
    return value


def shown(value: Any, limit: int = 80) -> str:
    """``value`` as JSON for an error message, cut to ``limit`` characters (a message never
    echoes a whole body back)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def dump_json(body: Any) -> bytes:
    """``body`` as UTF-8 JSON bytes; a string that cannot be UTF-8 is written escaped rather than
    breaking the answer."""
    text = json.dumps(body, ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(body).encode("ascii")
