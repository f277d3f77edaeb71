"""Chunks longer than an embedding model reads, found before anything is sent.

An embedding model reads at most a fixed number of tokens per text. Past that limit most
services cut the text and embed its beginning only, without an error or a flag in the answer:
the chunk is stored, its vector looks like any other, and whatever stood after the cut can never
be found. :func:`check_input_limit` counts what is embedded (``chunk.text``, header lines
included, not only ``body``) and names every chunk past the limit, so a run can stop first.

The lab's token count is an estimate: a model's own tokeniser usually finds more tokens in
Spanish text, so keep some headroom under a published limit, or pass the model's tokeniser
as ``count``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from lab.chunking.errors import ChunkerParameterError, ChunkingError
from lab.chunking.tokens import count_tokens

__all__ = ["InputLimitReport", "InputTooLongError", "check_input_limit", "check_limit_value"]

_SHOWN_IDS = 3  # ids a message names before it says how many more there are


class _Embeddable(Protocol):
    """What the check reads from a chunk (``lab.chunking.Chunk`` is one)."""

    id: str
    text: str


@dataclass(frozen=True)
class InputLimitReport:
    """Which chunks pass a model's input limit: each one's id and token count, in input order."""

    max_tokens: int
    checked: int
    over: tuple[tuple[str, int], ...]

    @property
    def count(self) -> int:
        """How many chunks are past the limit."""
        return len(self.over)

    @property
    def ids(self) -> tuple[str, ...]:
        """The ids of the chunks past the limit."""
        return tuple(chunk_id for chunk_id, _ in self.over)

    @property
    def tokens_past_limit(self) -> int:
        """Tokens a model would drop from these chunks: what lies beyond the limit in each."""
        return sum(tokens - self.max_tokens for _, tokens in self.over)

    @property
    def ok(self) -> bool:
        """True when every chunk fits."""
        return not self.over

    def raise_if_over(self) -> InputLimitReport:
        """Raise :class:`InputTooLongError` if any chunk is past the limit; else return self."""
        if self.over:
            raise InputTooLongError(self)
        return self

    def __str__(self) -> str:
        if self.ok:
            return f"all {self.checked} chunks fit in {self.max_tokens:,} tokens"
        return (f"{self.count} of {self.checked} chunks exceed {self.max_tokens:,} tokens "
                f"({self.tokens_past_limit:,} tokens would be cut): {_named(self.over)}")


class InputTooLongError(ChunkingError):
    """Chunks longer than the model's input limit: embedding them would silently drop their ends."""

    def __init__(self, report: InputLimitReport, message: str | None = None) -> None:
        self.report = report
        super().__init__(message or (
            f"{report.count} chunk(s) exceed the model's input limit of {report.max_tokens:,} tokens: "
            f"{_named(report.over)}; cut smaller chunks (leave room for the header lines) or use a "
            "model that reads more"))


def check_limit_value(max_tokens: object, name: str = "max_tokens") -> int:
    """``max_tokens`` if it is a positive whole number; otherwise a :class:`ChunkerParameterError` saying so."""
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise ChunkerParameterError(f"{name} must be a positive whole number of tokens, got {max_tokens!r}")
    return max_tokens


def check_input_limit(chunks: Iterable[_Embeddable], max_tokens: int,
                      count: Callable[[str], int] = count_tokens) -> InputLimitReport:
    """Count the tokens of every chunk's ``text`` and report those over ``max_tokens``. Sends nothing."""
    limit = check_limit_value(max_tokens)
    checked, over = 0, []
    for chunk in chunks:
        checked += 1
        tokens = count(chunk.text)
        if tokens > limit:
            over.append((chunk.id, tokens))
    return InputLimitReport(max_tokens=limit, checked=checked, over=tuple(over))


def _named(over: tuple[tuple[str, int], ...]) -> str:
    shown = ", ".join(f"{chunk_id} ({tokens:,})" for chunk_id, tokens in over[:_SHOWN_IDS])
    rest = len(over) - _SHOWN_IDS
    return shown + (f" and {rest} more" if rest > 0 else "")
