"""Semantic chunking: cut where the meaning of consecutive sentences jumps.

Each sentence is embedded together with ``buffer_size`` neighbours on each side (a lone sentence
says too little for its vector to be steady); the cosine distance between the windows of
sentence ``k`` and sentence ``k + 1`` measures how far the text moves between them. A distance
above the document's ``breakpoint_percentile``-th percentile is a cut, as in LangChain's
``SemanticChunker`` (``breakpoint_threshold_type="percentile"``, 95 by default). The price is one
embedding per sentence, before any chunk is embedded.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lab.arguments import check_positive_int
from lab.chunking.chunker import Chunker
from lab.chunking.document import Document
from lab.chunking.errors import ChunkerParameterError, ChunkingError
from lab.chunking.flatten import FlatDocument
from lab.chunking.input_limit import check_limit_value
from lab.chunking.markdown_outline import MarkdownTable, find_fences, find_tables
from lab.chunking.packing import MARKDOWN_SENTENCES, OUTLINE_SENTENCES, AtomicSpans, split_sentences
from lab.chunking.records import Chunk
from lab.chunking.slugs import LEAD_SLUG, SlugRegistry, slugify
from lab.chunking.tokens import TokenIndex

__all__ = ["SemanticChunker", "SentenceJumps"]

_LINE = re.compile(r"[^\n]+")
# A sentence whose last line is a markdown heading (alone, or after a publication comment).
_HEADING_LAST = re.compile(r"(?:\A|\n) {0,3}#{1,6}(?:[ \t][^\n]*)?\Z")


@dataclass(frozen=True)
class SentenceJumps:
    """How far the meaning moves between a document's consecutive sentences.

    Attributes
    ----------
    spans : ``(start, end)`` of every sentence in ``document.text``, in order, shape (n,).
    sections : the section each sentence belongs to (its index in the page's sections; 0 for a
        document without sections), shape (n,).
    distances : cosine distance between the windows of sentence ``k`` and ``k + 1``, shape (n - 1,);
        NaN where the two sentences lie in different sections (a cut is there anyway).
    threshold : the ``breakpoint_percentile``-th percentile of the finite distances; ``None`` when
        there is none (no section has two sentences).
    embedded : texts sent to the embedder (one window per sentence of a section with two or more).
    """

    spans: tuple[tuple[int, int], ...]
    sections: tuple[int, ...]
    distances: np.ndarray = field(repr=False)
    threshold: float | None
    embedded: int

    @property
    def breakpoints(self) -> list[int]:
        """Each ``k`` whose distance is above the threshold: a cut between sentence ``k`` and ``k + 1``."""
        if self.threshold is None:
            return []
        return [int(k) for k in np.flatnonzero(np.nan_to_num(self.distances, nan=-np.inf) > self.threshold)]


class SemanticChunker(Chunker):
    """Sentences grouped until the meaning jumps, each group kept under ``max_chars``.

    Parameters
    ----------
    embedder : anything whose ``embed_documents(texts).vectors`` gives one unit float32 row per text
        (``lab.embedders.e5_embedder()``, ``VoyageEmbedder``); it is called once per document.
    breakpoint_percentile : a distance above this percentile of the document's distances is a cut
        (95: about one gap in twenty).
    buffer_size : sentences embedded on each side of a sentence, within its section (1: three-sentence
        windows; 0: each sentence alone).
    max_chars : the most characters of a body; a group longer than that is cut again at its largest
        jump (among equal jumps, the one nearest its middle) until every piece fits. Code blocks stay
        whole, so a code block longer than the budget is the one body that exceeds it.
    input_limit : tokens the embedding model reads per chunk text, or ``None`` for no check.

    Sentences end at ". ", "? ", "! ", "。", "？", "！" and at the boundaries the paragraph chunker
    uses: blank lines, list items and table rows in plain text; every block on a Notion page
    (:meth:`Document.from_notion_page`), which is cut section by section, each chunk headed by
    ``Page > Section``, with ids ``{page id}:{section slug}:{NN}`` and its blocks in
    ``source["block_ids"]``. Any other document (a markdown file included) is read as plain text,
    headed by its title if it has one, with ids ``{document id}:{NN}``: its headers are only lines,
    and whether the jumps find them is what semantic chunking promises. ``source["cut"]`` says why a
    chunk starts where it does (``"start"`` of a section, a ``"jump"``, or the ``"budget"``) and
    ``source["distance"]`` the distance there. Chunks do not overlap.

    The threshold is relative to the whole document, so editing one section can move cuts in
    another; a chunker that cuts on headers or a budget does not have that cost. A window longer
    than the embedder reads is refused by it before anything is embedded (e5 raises
    :class:`~lab.chunking.InputTooLongError`); a smaller ``buffer_size`` shortens the windows.
    """

    chunker_name = "semantic"

    def __init__(self, embedder: Any, breakpoint_percentile: float = 95.0, buffer_size: int = 1,
                 max_chars: int = 1200, input_limit: int | None = None) -> None:
        self.embedder = embedder
        self.breakpoint_percentile = breakpoint_percentile
        self.buffer_size = buffer_size
        self.max_chars = max_chars
        self.input_limit = input_limit

    def _check_params(self) -> None:
        """Raise :class:`ChunkerParameterError` naming a parameter that cannot work."""
        if not callable(getattr(self.embedder, "embed_documents", None)):
            raise ChunkerParameterError(
                f"embedder must have embed_documents(texts) returning .vectors (one unit row per text), got "
                f"{type(self.embedder).__name__}; pass lab.embedders.e5_embedder() or another dense embedder")
        percentile = self.breakpoint_percentile
        if isinstance(percentile, bool) or not isinstance(percentile, (int, float, np.integer, np.floating)) \
                or not 0 <= percentile <= 100:
            raise ChunkerParameterError(f"breakpoint_percentile must be a number between 0 and 100 (95 cuts about "
                                        f"one gap in twenty), not {percentile!r}")
        if isinstance(self.buffer_size, bool) or not isinstance(self.buffer_size, int) or self.buffer_size < 0:
            raise ChunkerParameterError(f"buffer_size must be a whole number of neighbouring sentences, 0 or more, "
                                        f"not {self.buffer_size!r}")
        check_positive_int("max_chars", self.max_chars, " (characters in a body)", error=ChunkerParameterError)
        if self.input_limit is not None:
            check_limit_value(self.input_limit, "input_limit")

    def sentence_jumps(self, document: Document) -> SentenceJumps:
        """The sentences of ``document``, the distances between neighbours and the threshold that cuts them."""
        self._check_params()
        if not isinstance(document, Document):
            raise ChunkingError(f"{type(self).__name__}.sentence_jumps takes a Document, got "
                                f"{type(document).__name__}")
        spans, sections = self._sentences(document)
        windows = self._windows(document.text, spans, sections)
        distances = np.full(max(len(spans) - 1, 0), np.nan)
        if windows:
            vectors = self._embed([text for _, text in windows])
            rows = {k: vectors[j] for j, (k, _) in enumerate(windows)}
            for k in range(len(spans) - 1):
                if sections[k] == sections[k + 1]:
                    distances[k] = min(max(1.0 - float(rows[k] @ rows[k + 1]), 0.0), 2.0)
        finite = distances[np.isfinite(distances)]
        threshold = float(np.percentile(finite, self.breakpoint_percentile)) if len(finite) else None
        return SentenceJumps(spans=tuple(spans), sections=tuple(sections), distances=distances, threshold=threshold,
                             embedded=len(windows))

    def _sentences(self, document: Document) -> tuple[list[tuple[int, int]], list[int]]:
        """Every sentence span and the index of its section, in document order."""
        text, flat = document.text, document.flat
        if flat is None:
            fences = find_fences(text)
            tables = find_tables(text, 0, len(text), tuple(fences))
            rows = [(t.start, t.rule_end) for t in tables]
            rows += [(m.start(), m.end()) for t in tables for m in _LINE.finditer(text, t.rule_end + 1, t.end)]
            atomic = AtomicSpans([*fences, *((a, b) for a, b in rows if b - a <= self.max_chars)])
            spans = split_sentences(text, 0, len(text), max_chars=self.max_chars, separators=MARKDOWN_SENTENCES,
                                    atomic=atomic)
            titles = {t.rule_end for t in tables} | {b for a, b in spans if _HEADING_LAST.search(text[a:b])}
            spans = self._attach_titles(spans, titles)
            return spans, [0] * len(spans)
        code = AtomicSpans([(line.start, line.end) for line in flat.lines if line.block_type == "code"
                            or (line.block_type == "table_row" and line.end - line.start <= self.max_chars)])
        heads = {line.end for line, after in zip(flat.lines, flat.lines[1:]) if line.block_type == "table_row"
                 and line.table_header is None and after.table_header == line.text.strip()}
        spans, sections = [], []
        for index, section in enumerate(flat.sections):
            found = self._attach_titles(split_sentences(text, section.body_start, section.body_end,
                                                        max_chars=self.max_chars, separators=OUTLINE_SENTENCES,
                                                        atomic=code), heads)
            spans += found
            sections += [index] * len(found)
        return spans, sections

    def _attach_titles(self, spans: list[tuple[int, int]], titles: set[int]) -> list[tuple[int, int]]:
        """Each sentence ending at one of ``titles`` (a heading line, a table's header row) joined to the
        sentence after it, when both fit in ``max_chars``: a title is not a sentence, and a cut after it
        would strand it."""
        joined: list[tuple[int, int]] = []
        start: int | None = None
        for k, (span_start, span_end) in enumerate(spans):
            first = span_start if start is None else start
            if span_end in titles and k + 1 < len(spans) and spans[k + 1][1] - first <= self.max_chars:
                start = first
                continue
            joined.append((first, span_end))
            start = None
        return joined

    def _windows(self, text: str, spans: Sequence[tuple[int, int]], sections: Sequence[int]) -> list[tuple[int, str]]:
        """``(k, text)`` of each sentence that has a neighbour in its section: the sentence with
        ``buffer_size`` sentences of that section on each side, as one slice of the text."""
        windows = []
        for k, section in enumerate(sections):
            first, last = k, k
            while first > 0 and k - first < self.buffer_size and sections[first - 1] == section:
                first -= 1
            while last + 1 < len(spans) and last - k < self.buffer_size and sections[last + 1] == section:
                last += 1
            alone = (k == 0 or sections[k - 1] != section) and (k + 1 == len(spans) or sections[k + 1] != section)
            if not alone:
                windows.append((k, text[spans[first][0]:spans[last][1]]))
        return windows

    def _embed(self, texts: list[str]) -> np.ndarray:
        """Unit rows for ``texts`` from the embedder, checked: one finite, non-zero row per text."""
        vectors = np.asarray(self.embedder.embed_documents(texts).vectors, dtype=np.float64)
        if vectors.ndim != 2 or len(vectors) != len(texts) or not np.isfinite(vectors).all():
            raise ChunkingError(f"the embedder returned vectors of shape {vectors.shape} for {len(texts)} sentences; "
                                "it must return one finite row per text")
        norms = np.linalg.norm(vectors, axis=1)
        if (norms == 0).any():
            raise ChunkingError(f"the embedder returned a zero vector for sentence window {int(np.argmin(norms))}; "
                                "a cosine needs a direction")
        return vectors / norms[:, None]

    def _split(self, document: Document) -> list[Chunk]:
        jumps = self.sentence_jumps(document)
        groups = self._groups(jumps)
        if document.flat is None:
            return self._text_chunks(document, jumps, groups)
        return self._page_chunks(document, document.flat, jumps, groups)

    def _groups(self, jumps: SentenceJumps) -> list[tuple[int, int, str, float | None]]:
        """``(first, stop, cut, distance)``: runs of sentences between cuts, each under the budget."""
        spans, n = jumps.spans, len(jumps.spans)
        cut_before = {k + 1: ("jump", float(jumps.distances[k])) for k in jumps.breakpoints}
        cut_before.update({k: ("start", None) for k in range(n)
                           if k == 0 or jumps.sections[k] != jumps.sections[k - 1]})
        starts = sorted(cut_before) + [n]
        groups = []
        for first, stop in zip(starts, starts[1:]):
            pieces = self._fit(spans, jumps.distances, first, stop)
            for j, (a, b) in enumerate(pieces):
                reason, distance = cut_before[a] if j == 0 else ("budget", float(jumps.distances[a - 1]))
                groups.append((a, b, reason, None if distance is None else round(distance, 4)))
        return groups

    def _fit(self, spans: Sequence[tuple[int, int]], distances: np.ndarray, first: int,
             stop: int) -> list[tuple[int, int]]:
        """Sentences ``first:stop`` cut at their largest jumps until each piece fits in ``max_chars``.

        Only cuts that leave no more pieces than the length needs are considered (so that a jump near
        an end does not strand a sentence); among equal jumps, the one nearest the middle.
        """
        pieces, pending = [], [(first, stop)]
        while pending:
            a, b = pending.pop()
            start, end = spans[a][0], spans[b - 1][1]
            if b - a == 1 or end - start <= self.max_chars:
                pieces.append((a, b))
                continue
            need = math.ceil((end - start) / self.max_chars)
            cuts = [k for k in range(a + 1, b) if math.ceil((spans[k - 1][1] - start) / self.max_chars)
                    + math.ceil((end - spans[k][0]) / self.max_chars) <= need] or range(a + 1, b)
            middle = (start + end) / 2
            cut = max(cuts, key=lambda k: (distances[k - 1], -abs(spans[k][0] - middle), -k))
            pending += [(cut, b), (a, cut)]  # the earlier piece is taken first
        return pieces

    def _page_chunks(self, document: Document, flat: FlatDocument, jumps: SentenceJumps,
                     groups: list[tuple[int, int, str, float | None]]) -> list[Chunk]:
        """Chunks of a flattened page, headed by ``Page > Section``, ids scoped by section."""
        tokens = TokenIndex(document.text)
        registry, slugs, chunks = SlugRegistry(), {}, []
        counts: dict[int, int] = {}
        for first, stop, cut, distance in groups:
            index = jumps.sections[first]
            section = flat.sections[index]
            if index not in slugs:
                slugs[index] = registry.claim(slugify(section.title) if section.title is not None else LEAD_SLUG)
            k = counts[index] = counts.get(index, -1) + 1
            start, end = jumps.spans[first][0], jumps.spans[stop - 1][1]
            lines = flat.lines_between(start, end)
            header = document.title if section.title is None else f"{document.title} > {section.title}"
            chunks.append(self._chunk(
                document, tokens, start, end, chunk_id=f"{document.id}:{slugs[index]}:{k:02d}", title=document.title,
                section=section.title, order=len(chunks), header=header, table=lines[0].table_header,
                source={"block_ids": list(dict.fromkeys(line.block_id for line in lines)), "cut": cut,
                        "distance": distance}))
        return chunks

    def _text_chunks(self, document: Document, jumps: SentenceJumps,
                     groups: list[tuple[int, int, str, float | None]]) -> list[Chunk]:
        """Chunks of a plain text (a markdown file included), headed by its title if it has one."""
        text = document.text
        tokens = TokenIndex(text)
        tables = find_tables(text, 0, len(text), tuple(find_fences(text)))
        chunks = []
        for k, (first, stop, cut, distance) in enumerate(groups):
            start, end = jumps.spans[first][0], jumps.spans[stop - 1][1]
            chunks.append(self._chunk(document, tokens, start, end, chunk_id=f"{document.id}:{k:02d}",
                                      title=document.title or document.id, section=None, order=k,
                                      header=document.title, table=_table_head(text, tables, start),
                                      source={"cut": cut, "distance": distance}))
        return chunks


def _table_head(text: str, tables: list[MarkdownTable], position: int) -> str | None:
    """The header row and rule of the table whose rows ``position`` starts in, if any."""
    j = bisect_right([t.start for t in tables], position) - 1
    if j >= 0 and tables[j].rule_end < position <= tables[j].end:
        return text[tables[j].start:tables[j].rule_end]
    return None
