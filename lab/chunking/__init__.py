"""From pages to chunks: flattening Notion blocks, the lab token counter and the chunkers.

Every chunker returns :class:`Chunk` records whose ``body`` is an exact slice of the source
(``source_text[start:end] == body``) and whose ids are deterministic.
"""

from lab.chunking.tokens import TOKEN_PATTERN, count_tokens, token_spans

__all__ = [
    "TOKEN_PATTERN",
    "count_tokens",
    "token_spans",
]
