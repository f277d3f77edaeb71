"""Keep secrets out of everything the lab shows: messages, logs, reprs and exceptions.

Every client passes what it is about to show through :func:`redact`, and checks its secret
with :func:`check_secret` before the secret goes into a header: an HTTP library that refuses a
header quotes the offending value in its error, which would print the secret.
"""

from __future__ import annotations

import json

__all__ = ["MASK", "redact", "check_secret"]

#: What a secret is replaced by wherever it would have appeared.
MASK = "[redacted]"


def _written_forms(secret: str) -> list[str]:
    """The secret as written, as ``repr`` escapes it and as JSON escapes it, longest first.

    A secret with a line break or a non-ASCII character shows escaped (``\\n``, ``\\u00e9``) in a
    repr or in a raw JSON body, where replacing only the raw form would miss it.
    """
    forms = {secret, repr(secret)[1:-1], json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]}
    return sorted(forms, key=len, reverse=True)


def redact(text: str, *secrets: str | None) -> str:
    """``text`` with every occurrence of each secret, raw or escaped, replaced by :data:`MASK`."""
    for secret in secrets:
        if secret:
            for form in _written_forms(secret):
                text = text.replace(form, MASK)
    return text


def check_secret(secret: str, name: str) -> str:
    """``secret`` unchanged if it can travel in an HTTP header, else a ``ValueError`` naming ``name``.

    The error never quotes the value. A line break usually means the secret was read from a file
    together with its final newline; a character past ASCII (a zero-width space, a typographic
    quote, a euro sign) usually came with a copy and paste. The tokens and keys the lab sends are
    printable ASCII, and a header that HTTP cannot encode fails in an error that quotes it whole.
    """
    if secret != secret.strip() or any(ord(ch) < 32 or ord(ch) == 127 for ch in secret):
        raise ValueError(f"{name} contains a line break, a control character or surrounding spaces: "
                         "set it to the secret alone (read from a file, strip the final newline)")
    if not secret.isascii():
        raise ValueError(f"{name} contains a character that is not ASCII (often one pasted with it, such as a "
                         "zero-width space or a typographic quote): set it to the secret alone, as its issuer shows it")
    return secret
