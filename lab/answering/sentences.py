"""Sentences of a chunk: lines, then sentence ends followed by a capital or an opening ¿ ¡."""

from __future__ import annotations

import re

__all__ = ["sentences"]

_END = re.compile(r"(?<=[.!?…])\s+(?=[¿¡\"«(]?[A-ZÁÉÍÓÚÑ0-9])")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` in order, list markers removed, empty ones dropped."""
    found = []
    for line in text.splitlines():
        line = _BULLET.sub("", line).strip()
        found += [part.strip() for part in _END.split(line) if part.strip()]
    return found
