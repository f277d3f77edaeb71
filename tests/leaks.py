"""Whether a secret shows anywhere a user could see it: str, repr, a traceback, raw, escaped or in part."""

from __future__ import annotations

import traceback


def shown(*objects: object) -> str:
    """Everything printed about ``objects``: str and repr, and for an exception its whole traceback."""
    parts = []
    for obj in objects:
        parts += [str(obj), repr(obj)]
        if isinstance(obj, BaseException):
            parts.append("".join(traceback.format_exception(obj)))
    return "\n".join(parts)


PART = 12  # characters of a secret in a row that count as a leak of part of it (a cut message, a prefix)


def leaks(secret: str, text: str) -> list[str]:
    """The forms of ``secret`` found in ``text``: whole, as repr escapes it, any one of its lines, or any
    :data:`PART` characters of it in a row (a message cut in the middle of the secret shows most of it)."""
    forms = {secret, repr(secret)[1:-1], *(line for line in secret.splitlines() if len(line) > 3),
             *(secret[i:i + PART] for i in range(len(secret) - PART + 1))}
    return sorted(form for form in forms if form in text)
