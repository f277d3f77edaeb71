"""Header-aware chunking of markdown documentation pages."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from pathlib import PurePosixPath

from lab.chunking.chunker import Chunker
from lab.chunking.document import Document
from lab.chunking.markdown_outline import MarkdownSection, Publication, find_tables
from lab.chunking.packing import MARKDOWN_SEPARATORS, AtomicSpans, split_to_budget
from lab.chunking.records import Chunk, fingerprint
from lab.chunking.slugs import LEAD_SLUG, SlugRegistry, slugify
from lab.chunking.tokens import TokenIndex

__all__ = ["MarkdownHeaderChunker"]


class MarkdownHeaderChunker(Chunker):
    """Cut a markdown file (:meth:`Document.from_markdown`) on its ``##`` and ``###`` headers,
    sub-splitting long sections.

    - The page title is the first ``#`` line; a ``###`` section's breadcrumb is
      ``Page > H2 > H3``. Header-looking lines inside ``` or ~~~ fences are code.
    - A first-line comment ``<!-- url: ... | version: ... | updated: ... -->`` gives the
      publication metadata; missing fields fall back to a url built from the file path,
      version ``"unversioned"`` and ``updated=None``, and ``source["fallbacks"]`` says which.
      Every chunk carries the date as ``edited`` and the version as ``version`` (``None`` for a
      page whose comment gives none), which the index keeps and a search can filter on.
    - A section longer than ``max_chars`` is cut on blank lines (a fenced code block is one
      paragraph); a paragraph still too long between its list items or table rows, else
      between sentences (". ", "? ", "! ", "。", "？", "！"; the line breaks of wrapped prose
      are not boundaries), then between words. Each piece after the first starts with at
      most ``overlap_chars`` characters from the end of the one before, beginning on a row,
      sentence, line or word boundary, and never with text from another section.
    - ``max_chars`` bounds ``body``; the only body that may exceed it is a single fenced code
      block longer than the budget, kept whole because half a code sample misleads.
    - A piece that starts inside a pipe table repeats the table's header row and rule line in
      its ``text`` (not in ``body``, which stays an exact slice of the page).
    - Ids are ``{url-slug}--{section-slug}--{NN}``: the same page and section give the same ids
      on every run, and a change in one section leaves the other sections' ids alone.
    """

    chunker_name = "markdown_header"
    window_params = ("max_chars", "overlap_chars")

    def __init__(self, max_chars: int = 1200, overlap_chars: int = 150, input_limit: int | None = None) -> None:
        self.max_chars = max_chars
        self.overlap_chars = overlap_chars
        self.input_limit = input_limit

    def _split(self, document: Document) -> list[Chunk]:
        file = self._needs(document.markdown, "a markdown file by its headers", "from_markdown(text, path)")
        markdown, path, outline, publication = document.text, file.path, file.outline, file.publication
        title = outline.title or PurePosixPath(path).stem.replace("-", " ").replace("_", " ").capitalize()
        page_slug = slugify(publication.url, fallback="page")
        folders = PurePosixPath(path).parts
        page_type = folders[0] if len(folders) > 1 else None
        fences = AtomicSpans(outline.fences)
        registry = SlugRegistry()
        tokens = TokenIndex(markdown)
        chunks: list[Chunk] = []
        for section in outline.sections:
            pieces = split_to_budget(markdown, section.body_start, section.body_end, max_chars=self.max_chars,
                                     overlap_chars=self.overlap_chars, separators=MARKDOWN_SEPARATORS,
                                     atomic=fences)
            if not pieces:
                continue
            section_slug = registry.claim(slugify(" ".join(section.path)) if section.path else LEAD_SLUG)
            table_headers = self._table_headers(markdown, section, outline.fences) if len(pieces) > 1 else None
            breadcrumb = " > ".join([title, *section.path])
            for k, (start, end) in enumerate(pieces):
                body = markdown[start:end]
                repeated = table_headers(start) if table_headers else None
                text = f"[{breadcrumb}]\n" + (repeated + "\n" if repeated else "") + body
                chunks.append(Chunk(
                    id=f"{page_slug}--{section_slug}--{k:02d}",
                    page_id=page_slug,
                    title=title,
                    type=page_type,
                    section=" > ".join(section.path) or None,
                    order=len(chunks),
                    text=text,
                    body=body,
                    start=start,
                    end=end,
                    tokens=tokens.count(start, end),
                    fingerprint=fingerprint(text),
                    edited=publication.updated,
                    chunker=self.chunker_name,
                    version=None if "version" in publication.fallbacks else publication.version,
                    source=self._source(path, publication),
                ))
        return chunks

    @staticmethod
    def _source(path: str, publication: Publication) -> dict[str, object]:
        return {"path": path, "url": publication.url, "version": publication.version,
                "updated": publication.updated, "fallbacks": list(publication.fallbacks)}

    @staticmethod
    def _table_headers(markdown: str, section: MarkdownSection,
                       fences: tuple[tuple[int, int], ...]) -> Callable[[int], str | None]:
        """A lookup from a piece's start to the header lines of the table it starts in, if any."""
        tables = find_tables(markdown, section.body_start, section.body_end, fences)
        starts = [t.start for t in tables]

        def header_for(position: int) -> str | None:
            j = bisect_right(starts, position) - 1
            if j >= 0 and tables[j].rule_end < position <= tables[j].end:
                return markdown[tables[j].start:tables[j].rule_end]
            return None

        return header_for
