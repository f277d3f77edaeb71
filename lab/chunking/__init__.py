"""From pages to chunks: flattening Notion blocks, the lab token counter, six chunkers.

- :func:`flatten_blocks` turns a page's ``(depth, block)`` traversal into a
  :class:`FlatDocument` (sections with exact offsets, role-keeping lines, block ids).
- :class:`Document` is what every chunker cuts: a flattened Notion page, a markdown file, a
  plain text or a stream of notes, each made with its own constructor.
- :class:`SectionTokenChunker` cuts token windows within sections (lesson 03).
- :class:`MarkdownHeaderChunker`, :class:`ParagraphChunker` and :class:`WordWindowChunker`
  are the strategies lesson 04 compares; :class:`SemanticChunker` cuts where the meaning of
  consecutive sentences jumps, measured by an embedding model it is given.
- :func:`check_input_limit` names the chunks an embedding model would cut at its input
  limit, before any call; a chunker given ``input_limit`` refuses to return them.
- :class:`FittedChunker` (:func:`fit_to_model`) cuts a chunk again where a model's tokenizer finds
  more tokens than its input limit, so that the model reads every piece whole.

Every chunker is called the same way, ``chunker.split(document)``, and returns :class:`Chunk`
records whose ``body`` is an exact slice of the document's text
(``document.text[start:end] == body``) and whose ids are deterministic.
"""

from lab.chunking.budgets import window_count
from lab.chunking.chunker import Chunker
from lab.chunking.corpus import ChunkedCorpus, chunk_pages
from lab.chunking.document import SOURCE_SEPARATOR, Document, MarkdownFile, Note
from lab.chunking.errors import ChunkerParameterError, ChunkingError, MalformedBlockError, MalformedPageError
from lab.chunking.flatten import (
    MARKERS_BY_LANGUAGE, MARKERS_EN, MARKERS_ES, MARKERS_ZH, FlatDocument, FlatLine, Markers, Section, SkippedBlock, flatten_blocks,
    rich_text_plain,
)
from lab.chunking.input_limit import InputLimitReport, InputTooLongError, check_input_limit
from lab.chunking.markdown import MarkdownHeaderChunker
from lab.chunking.model_fit import FittedChunker, fit_to_model
from lab.chunking.markdown_outline import find_fences, parse_outline, parse_publication_comment
from lab.chunking.paragraphs import ParagraphChunker
from lab.chunking.records import Chunk, chunks_to_frame, fingerprint
from lab.chunking.section_tokens import SectionTokenChunker
from lab.chunking.semantic import SemanticChunker, SentenceJumps
from lab.chunking.size_guidance import (SIZE_GUIDANCE, SizeGuidance, guidance_for, guidance_in_units, han_characters,
                                        overlap_share, units_per_character)
from lab.chunking.slugs import slugify
from lab.chunking.tokens import TOKEN_PATTERN, count_tokens, token_spans
from lab.chunking.word_windows import WordWindowChunker

__all__ = [
    "TOKEN_PATTERN", "count_tokens", "token_spans",
    "Markers", "MARKERS_ES", "MARKERS_EN", "MARKERS_ZH", "MARKERS_BY_LANGUAGE", "FlatDocument", "FlatLine", "Section", "SkippedBlock",
    "flatten_blocks", "rich_text_plain",
    "Document", "Note", "MarkdownFile", "SOURCE_SEPARATOR",
    "Chunk", "chunks_to_frame", "fingerprint",
    "Chunker", "SectionTokenChunker", "MarkdownHeaderChunker", "ParagraphChunker", "WordWindowChunker",
    "SemanticChunker", "SentenceJumps",
    "window_count", "find_fences", "parse_outline", "parse_publication_comment", "slugify",
    "ChunkedCorpus", "chunk_pages",
    "check_input_limit", "InputLimitReport", "InputTooLongError", "FittedChunker", "fit_to_model",
    "ChunkingError", "MalformedBlockError", "MalformedPageError", "ChunkerParameterError",
    "SIZE_GUIDANCE", "SizeGuidance", "guidance_for", "guidance_in_units", "han_characters", "overlap_share",
    "units_per_character",
]
