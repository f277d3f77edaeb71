"""Paragraph chunking with a character budget and overlap (900 / 150 by default)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lab.chunking.budgets import check_char_budget
from lab.chunking.flatten import FlatDocument
from lab.chunking.markdown_outline import find_fences
from lab.chunking.packing import MARKDOWN_SEPARATORS, OUTLINE_SEPARATORS, AtomicSpans, split_to_budget
from lab.chunking.records import Chunk, fingerprint, page_info
from lab.chunking.slugs import LEAD_SLUG, SlugRegistry, slugify
from lab.chunking.tokens import TokenIndex

__all__ = ["ParagraphChunker"]


class ParagraphChunker:
    """Whole paragraphs accumulated up to ``max_chars``; each chunk after the first starts with
    the previous chunk's last ``overlap_chars`` characters or fewer, on a word boundary.

    On a flattened Notion page (:meth:`split`) a paragraph is a top-level line with its
    indented lines (a toggle's question and its answer stay together) and the page is cut
    section by section, each chunk headed by ``Page > Section`` and naming its blocks in
    ``source["block_ids"]``; ids follow the token chunker's section-scoped scheme. On plain text
    (:meth:`split_text`) paragraphs are separated by blank lines. A paragraph longer than the
    budget is cut between lines (blocks of a page; list items or table rows of plain text),
    then sentences (including the CJK "。", "？", "！"), then words.
    Code blocks stay whole, so a code block longer than the budget is the one case where a
    body exceeds ``max_chars``.
    """

    chunker_name = "paragraphs"

    def __init__(self, max_chars: int = 900, overlap_chars: int = 150) -> None:
        self.max_chars = max_chars
        self.overlap_chars = overlap_chars

    def split(self, flat: FlatDocument, page: Mapping[str, Any]) -> list[Chunk]:
        """Chunks of a flattened page, never crossing a section; ``page`` as for the token chunker."""
        check_char_budget(self.max_chars, self.overlap_chars)
        info = page_info(page)
        text = flat.text
        code = AtomicSpans([(line.start, line.end) for line in flat.lines if line.block_type == "code"])
        registry = SlugRegistry()
        tokens = TokenIndex(text)
        chunks: list[Chunk] = []
        for section in flat.sections:
            pieces = split_to_budget(text, section.body_start, section.body_end, max_chars=self.max_chars,
                                     overlap_chars=self.overlap_chars, separators=OUTLINE_SEPARATORS, atomic=code)
            if not pieces:
                continue
            slug = registry.claim(slugify(section.title) if section.title is not None else LEAD_SLUG)
            header = info.title if section.title is None else f"{info.title} > {section.title}"
            for k, (start, end) in enumerate(pieces):
                lines = flat.lines_between(start, end)
                chunks.append(self._chunk(
                    f"{info.id}:{slug}:{k:02d}", info.id, info.title, info.type, section.title, len(chunks), header,
                    lines[0].table_header, tokens, start, end, info.edited,
                    {"block_ids": list(dict.fromkeys(line.block_id for line in lines))}))
        return chunks

    def split_text(self, text: str, doc_id: str, title: str | None = None) -> list[Chunk]:
        """Chunks of plain text (paragraphs separated by blank lines), headed by ``title`` if given."""
        check_char_budget(self.max_chars, self.overlap_chars)
        fences = AtomicSpans(find_fences(text))
        pieces = split_to_budget(text, 0, len(text), max_chars=self.max_chars, overlap_chars=self.overlap_chars,
                                 separators=MARKDOWN_SEPARATORS, atomic=fences)
        tokens = TokenIndex(text)
        return [self._chunk(f"{doc_id}:{k:02d}", doc_id, title or doc_id, None, None, k, title, None,
                            tokens, start, end, None, {})
                for k, (start, end) in enumerate(pieces)]

    def _chunk(self, chunk_id: str, page_id: str, title: str, page_type: str | None, section: str | None,
               order: int, header: str | None, table: str | None, tokens: TokenIndex, start: int, end: int,
               edited: str | None, source: dict[str, object]) -> Chunk:
        body = tokens.text[start:end]
        text = "".join(f"{part}\n" for part in (header, table) if part) + body
        return Chunk(id=chunk_id, page_id=page_id, title=title, type=page_type, section=section, order=order,
                     text=text, body=body, start=start, end=end, tokens=tokens.count(start, end),
                     fingerprint=fingerprint(text), edited=edited, chunker=self.chunker_name,
                     source=source)
