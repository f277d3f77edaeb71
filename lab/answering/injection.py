"""A check for instruction-like text in retrieved sources: prompt injection, flagged before answering.

A knowledge base is edited by people, and sometimes pasted from customers' messages: a page can
end up saying "ignora las instrucciones anteriores...". Fencing keeps such text as data in the
prompt (:mod:`lab.answering.prompt`); this check also names it, so the answer can leave it out
and someone can fix the page. The patterns are phrases that address a model rather than a
customer, in Spanish and English; they catch the common forms, not every possible one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lab.answering.sentences import sentences
from lab.answering.sources import Source, check_sources

__all__ = ["INSTRUCTION_PATTERNS", "Flag", "instruction_like", "flag_sources"]

_PATTERNS = (
    r"\bignor\w*\s+(?:\w+\s+){0,2}(?:instruccion\w*|indicaciones|reglas)",
    r"\bolvid\w*\s+(?:\w+\s+){0,2}(?:instruccion\w*|anterior\w*|reglas)",
    r"\b(?:prompt|mensaje|instrucciones)\s+del\s+sistema\b",
    r"\bahora\s+(?:eres|actúas?)\b",
    r"\bignore\s+(?:\w+\s+){0,2}(?:instructions|rules)\b",
    r"\bdisregard\s+(?:\w+\s+){0,2}(?:instructions|rules)\b",
    r"\bsystem\s+prompt\b",
    r"\byou\s+are\s+now\b",
)
#: Phrases that speak to a model, not to a customer (case-insensitive regular expressions).
INSTRUCTION_PATTERNS: tuple[re.Pattern[str], ...] = tuple(re.compile(p, re.IGNORECASE) for p in _PATTERNS)


@dataclass(frozen=True)
class Flag:
    """A sentence of source ``number`` that reads like an instruction to a model."""

    number: int
    sentence: str

    def __str__(self) -> str:
        return f"[{self.number}] {self.sentence}"


def instruction_like(text: str) -> list[str]:
    """The sentences of ``text`` that match an :data:`INSTRUCTION_PATTERNS` phrase, in order."""
    if not isinstance(text, str):
        raise TypeError(f"instruction_like reads a text (str), not {type(text).__name__}")
    return [s for s in sentences(text) if any(p.search(s) for p in INSTRUCTION_PATTERNS)]


def flag_sources(sources: Sequence[Source]) -> list[Flag]:
    """Every instruction-like sentence of every source, by source number."""
    check_sources(sources)
    return [Flag(source.number, sentence) for source in sources for sentence in instruction_like(source.text)]

