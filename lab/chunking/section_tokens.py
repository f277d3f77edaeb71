"""Token windows within each section of a flattened Notion page (lesson 03: L = 300, s = 50)."""

from __future__ import annotations

from lab.chunking.budgets import window_bounds
from lab.chunking.chunker import WindowChunker
from lab.chunking.document import Document
from lab.chunking.records import Chunk, fingerprint
from lab.chunking.slugs import LEAD_SLUG, SlugRegistry, slugify
from lab.chunking.tokens import TokenIndex

__all__ = ["SectionTokenChunker"]


class SectionTokenChunker(WindowChunker):
    """Windows of ``max_tokens`` lab tokens advancing ``max_tokens - overlap``, never across sections.

    It cuts Notion pages (:meth:`Document.from_notion_page`), whose flattening gives the sections.
    A section of ``T`` tokens gives ``1`` chunk if ``T <= L`` else ``ceil((T - s) / (L - s))``
    (:meth:`expected_chunks`). A window's body runs from its first token's start to its last
    token's end, so the page's own whitespace and code indentation are kept.

    Ids are ``{page_id}:{section_slug}:{k:02d}`` with ``k`` the window's index within its
    section (a repeated title gets ``-2``, ``-3`` on its slug; the lead section uses ``_``).
    A plain ``{page_id}:{NNN}`` numbering would shift every later id as soon as an earlier
    section grows by one window, and an incremental sync would then re-embed text that did
    not change; with section-scoped ids, editing one section or one page leaves every other
    chunk id untouched. ``order`` still gives the chunk's position in the page, and
    ``source["block_ids"]`` names the blocks the chunk's body came from.
    """

    chunker_name = "section_tokens"
    window_params = ("max_tokens", "overlap")

    def __init__(self, max_tokens: int = 300, overlap: int = 50, input_limit: int | None = None) -> None:
        self.max_tokens = max_tokens
        self.overlap = overlap
        self.input_limit = input_limit

    def _split(self, document: Document) -> list[Chunk]:
        flat = self._needs(document.flat, "the sections of a flattened Notion page",
                           "from_notion_page(flatten_blocks(blocks), page)")
        text = document.text
        index = TokenIndex(text)
        registry = SlugRegistry()
        chunks: list[Chunk] = []
        for section in flat.sections:
            # Section bodies never split a token, so the tokens that start in a body are its tokens.
            first_token = int(index.starts.searchsorted(section.body_start))
            n_tokens = int(index.starts.searchsorted(section.body_end)) - first_token
            if n_tokens == 0:
                continue
            slug = registry.claim(slugify(section.title) if section.title is not None else LEAD_SLUG)
            header = document.title if section.title is None else f"{document.title} > {section.title}"
            for k, (first, stop) in enumerate(window_bounds(n_tokens, self.max_tokens, self.overlap)):
                start = int(index.starts[first_token + first])
                end = int(index.ends[first_token + stop - 1])
                body = text[start:end]
                lines = flat.lines_between(start, end)
                table = lines[0].table_header
                chunk_text = f"{header}\n" + (f"{table}\n" if table else "") + body
                chunks.append(Chunk(
                    id=f"{document.id}:{slug}:{k:02d}",
                    page_id=document.id,
                    title=document.title,
                    type=document.type,
                    section=section.title,
                    order=len(chunks),
                    text=chunk_text,
                    body=body,
                    start=start,
                    end=end,
                    tokens=stop - first,
                    fingerprint=fingerprint(chunk_text),
                    edited=document.edited,
                    chunker=self.chunker_name,
                    version=document.version,
                    source={"block_ids": list(dict.fromkeys(line.block_id for line in lines))},
                ))
        return chunks
