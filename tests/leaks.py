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


def leaks(secret: str, text: str) -> list[str]:
    """The forms of ``secret`` found in ``text``: whole, as repr escapes it, or any one of its lines."""
    forms = {secret, repr(secret)[1:-1], *(line for line in secret.splitlines() if len(line) > 3)}
    return sorted(form for form in forms if form in text)
