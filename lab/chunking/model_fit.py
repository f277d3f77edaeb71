"""Chunks cut again where a model's tokenizer finds more tokens than the lab counted.

The chunkers size a chunk in lab tokens (:func:`lab.chunking.count_tokens`), an estimate of what a
model reads. On ordinary prose the two agree closely; they part on text the lab counts as one
word and a tokenizer as many pieces: minified JSON in a code block, a long URL, a run of
Chinese characters between two punctuation marks, a base64 blob. One such chunk over the model's
input limit would stop a whole index. :class:`FittedChunker` cuts such a chunk in two at a lab
token boundary, again and again, until every piece fits (a single lab token longer than the limit
is cut between characters), so the model reads every piece whole. Chunks that fit are returned
untouched: on text where the estimate holds, nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from lab.chunking.document import Document
from lab.chunking.records import Chunk, fingerprint
from lab.chunking.tokens import TokenIndex

__all__ = ["FittedChunker", "fit_to_model"]


def _fits(chunk: Chunk, head: str, start: int, end: int, count: Callable[[str], int], limit: int) -> bool:
    return count(head + chunk.body[start:end]) <= limit


def _pieces(chunk: Chunk, head: str, count: Callable[[str], int], limit: int) -> list[tuple[int, int]]:
    """Spans of ``chunk.body`` that each fit, in order, covering it: halves at lab token boundaries, and
    between characters inside a token that alone is too long."""
    index = TokenIndex(chunk.body)
    done: list[tuple[int, int]] = []
    todo = [(0, len(chunk.body))]
    while todo:
        start, end = todo.pop()
        if _fits(chunk, head, start, end, count, limit) or end - start <= 1:
            done.append((start, end))
            continue
        first = int(index.starts.searchsorted(start))
        stop = int(index.starts.searchsorted(end))
        if stop - first >= 2:  # cut between two tokens, the piece's first half ending at a token's end
            middle = int(index.ends[first + (stop - first) // 2 - 1])
            after = int(index.starts[first + (stop - first) // 2])
            pieces = [(start, middle), (after, end)]
        else:  # one token, or none: between characters
            middle = (start + end) // 2
            pieces = [(start, middle), (middle, end)]
        todo += reversed(pieces)  # the first half next: pieces leave in order
    return done


def fit_to_model(chunks: Iterable[Chunk], count: Callable[[str], int], limit: int) -> list[Chunk]:
    """``chunks`` with each one longer than ``limit`` tokens (as ``count`` counts its ``text``) cut into pieces
    that fit, in order; a piece's id is its chunk's with ``.1``, ``.2``... after it, its text the same header
    lines and its part of the body. ``order`` is renumbered within each page. A chunk whose header lines alone
    reach the limit is returned as it is: no cut helps, and the check before embedding names it."""
    fitted: list[Chunk] = []
    for chunk in chunks:
        if count(chunk.text) <= limit:
            fitted.append(chunk)
            continue
        head = chunk.text[:len(chunk.text) - len(chunk.body)]
        if count(head) >= limit:  # the header lines leave no room for any body: no cut can help
            fitted.append(chunk)
            continue
        spans = _pieces(chunk, head, count, limit)
        for number, (start, end) in enumerate(spans, start=1):
            body = chunk.body[start:end]
            fitted.append(replace(chunk, id=f"{chunk.id}.{number}", text=head + body, body=body,
                                  start=chunk.start + start, end=chunk.start + end,
                                  tokens=len(TokenIndex(body)), fingerprint=fingerprint(head + body)))
    orders: dict[str, int] = {}
    for position, chunk in enumerate(fitted):
        order = orders.get(chunk.page_id, 0)
        orders[chunk.page_id] = order + 1
        if chunk.order != order:
            fitted[position] = replace(chunk, order=order)
    return fitted


class FittedChunker:
    """``chunker`` whose chunks a model reads whole: :func:`fit_to_model` applied to each page's chunks,
    with ``count`` the model's token count and ``limit`` its input limit."""

    def __init__(self, chunker: Any, count: Callable[[str], int], limit: int) -> None:
        self.chunker, self.count, self.limit = chunker, count, limit
        self.chunker_name = chunker.chunker_name

    def __repr__(self) -> str:
        return f"FittedChunker({self.chunker!r}, limit={self.limit})"

    def split(self, document: Document) -> list[Chunk]:
        """The chunker's chunks of ``document``, each over the limit cut into pieces that fit."""
        return fit_to_model(self.chunker.split(document), self.count, self.limit)
