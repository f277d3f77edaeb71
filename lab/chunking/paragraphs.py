"""Paragraph chunking with a character budget and overlap (900 / 150 by default)."""

from __future__ import annotations

from lab.chunking.chunker import Chunker
from lab.chunking.document import Document
from lab.chunking.flatten import FlatDocument
from lab.chunking.markdown_outline import find_fences
from lab.chunking.packing import MARKDOWN_SEPARATORS, OUTLINE_SEPARATORS, AtomicSpans, split_to_budget
from lab.chunking.records import Chunk
from lab.chunking.slugs import LEAD_SLUG, SlugRegistry, slugify
from lab.chunking.tokens import TokenIndex

__all__ = ["ParagraphChunker"]


class ParagraphChunker(Chunker):
    """Whole paragraphs accumulated up to ``max_chars``; each chunk after the first starts with
    the previous chunk's last ``overlap_chars`` characters or fewer, on a word boundary.

    On a Notion page (:meth:`Document.from_notion_page`) a paragraph is a top-level line with
    its indented lines (a toggle's question and its answer stay together) and the page is cut
    section by section, each chunk headed by ``Page > Section`` and naming its blocks in
    ``source["block_ids"]``; ids follow the token chunker's section-scoped scheme. Any other
    document is read as plain text whose paragraphs are separated by blank lines, headed by
    its title if it has one, with ids ``{document id}:{NN}``. A paragraph longer than the
    budget is cut between lines (blocks of a page; list items or table rows of plain text),
    then sentences (including the CJK "。", "？", "！"), then words.
    Code blocks stay whole, so a code block longer than the budget is the one case where a
    body exceeds ``max_chars``.
    """

    chunker_name = "paragraphs"
    window_params = ("max_chars", "overlap_chars")

    def __init__(self, max_chars: int = 900, overlap_chars: int = 150, input_limit: int | None = None) -> None:
        self.max_chars = max_chars
        self.overlap_chars = overlap_chars
        self.input_limit = input_limit

    def _split(self, document: Document) -> list[Chunk]:
        if document.flat is None:
            return self._split_text(document)
        return self._split_page(document, document.flat)

    def _split_page(self, document: Document, flat: FlatDocument) -> list[Chunk]:
        """Chunks of a flattened page, never crossing a section."""
        text = document.text
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
            header = document.title if section.title is None else f"{document.title} > {section.title}"
            for k, (start, end) in enumerate(pieces):
                lines = flat.lines_between(start, end)
                chunks.append(self._chunk(
                    document, tokens, start, end, chunk_id=f"{document.id}:{slug}:{k:02d}", title=document.title,
                    section=section.title, order=len(chunks), header=header, table=lines[0].table_header,
                    source={"block_ids": list(dict.fromkeys(line.block_id for line in lines))}))
        return chunks

    def _split_text(self, document: Document) -> list[Chunk]:
        """Chunks of plain text (paragraphs separated by blank lines), headed by the title if any."""
        text = document.text
        fences = AtomicSpans(find_fences(text))
        pieces = split_to_budget(text, 0, len(text), max_chars=self.max_chars, overlap_chars=self.overlap_chars,
                                 separators=MARKDOWN_SEPARATORS, atomic=fences)
        tokens = TokenIndex(text)
        return [self._chunk(document, tokens, start, end, chunk_id=f"{document.id}:{k:02d}",
                            title=document.title or document.id, section=None, order=k, header=document.title,
                            table=None, source={})
                for k, (start, end) in enumerate(pieces)]
