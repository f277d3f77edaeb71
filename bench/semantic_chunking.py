"""Semantic chunking of lesson 04's docs corpus: what measuring meaning costs beside reading structure.

Each chunker of lesson 04 cuts the 11 markdown files: the markdown-header (1,200 / 150 characters),
paragraph (900 / 150) and word-window (120 / 20 words) chunkers, and the semantic chunker
(95th percentile, one neighbouring sentence on each side, 1,200 characters) with
multilingual-e5-small embedding every sentence window from scratch (no kept vectors), with one
thread and with the engine's default. Reported per row: chunks, sentences, texts and model tokens
embedded, wall and CPU seconds. Seconds are wall time on the machine as it is (a shared 2-core
machine runs other work too); CPU seconds are steadier.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import pandas as pd

__all__ = ["main", "measure_structural", "measure_semantic", "FULL", "QUICK"]

FULL = {"files": None, "threads": (1, None)}
#: A smoke run of a few seconds: the first file only, one thread.
QUICK = {"files": 1, "threads": (1,)}


def _documents(files: int | None) -> list[Any]:
    from lab.chunking import Document
    from lab.datasets import load_docs_corpus

    return [Document.from_markdown(text, path) for path, text in load_docs_corpus()[:files]]


def measure_structural(files: int | None) -> list[dict[str, Any]]:
    """Time the three chunkers that read only the text, as lesson 04 sets them."""
    from lab.chunking import MarkdownHeaderChunker, ParagraphChunker, WordWindowChunker

    documents, rows = _documents(files), []
    for name, chunker in (("markdown headers", MarkdownHeaderChunker(max_chars=1200, overlap_chars=150)),
                          ("paragraphs", ParagraphChunker(max_chars=900, overlap_chars=150)),
                          ("word windows", WordWindowChunker(size=120, overlap=20))):
        began, cpu = time.perf_counter(), time.process_time()
        chunks = sum(len(chunker.split(document)) for document in documents)
        rows.append({"chunker": name, "threads": None, "files": len(documents), "chunks": chunks,
                     "sentences": None, "texts embedded": 0, "model tokens": 0,
                     "seconds": time.perf_counter() - began, "CPU s": time.process_time() - cpu})
    return rows


def measure_semantic(files: int | None, threads: int | None) -> dict[str, Any]:
    """Load the model, then cut every file with the semantic chunker, every window embedded by the model once."""
    from lab.chunking import SemanticChunker
    from lab.embedders import E5_MAX_TOKENS, CachedEmbedder, E5Embedder, EmbeddingCache

    class Counting:
        """The model, counting the model tokens it embeds."""

        def __init__(self) -> None:
            self.model, self.tokens = E5Embedder(threads=threads), 0

        def embed_documents(self, texts: list[str]) -> Any:
            result = self.model.embed_documents(texts)
            self.tokens += result.tokens
            return result

    documents, model = _documents(files), Counting()
    embedder = CachedEmbedder(model.model.name, lambda: model, EmbeddingCache(None), E5_MAX_TOKENS)
    chunker = SemanticChunker(embedder)
    began, cpu = time.perf_counter(), time.process_time()
    chunks = sum(len(chunker.split(document)) for document in documents)
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    sentences = sum(len(chunker.sentence_jumps(document).spans) for document in documents)  # kept: no model time
    return {"chunker": "semantic (e5)", "threads": "default" if threads is None else threads,
            "files": len(documents), "chunks": chunks, "sentences": sentences, "texts embedded": embedder.misses_,
            "model tokens": model.tokens, "seconds": seconds, "CPU s": cpu}


def main(quick: bool = False) -> pd.DataFrame:
    """Measure, print and return the table."""
    sizes = QUICK if quick else FULL
    rows = measure_structural(sizes["files"])
    for threads in sizes["threads"]:
        rows.append(measure_semantic(sizes["files"], threads))
        print(f"semantic chunking, threads {threads or 'default'}: measured", file=sys.stderr, flush=True)
    table = pd.DataFrame(rows)
    print("semantic chunking of the docs corpus beside the chunkers that read its structure; the semantic rows "
          "include embedding every sentence window with multilingual-e5-small (model loading excluded)")
    with pd.option_context("display.width", 250, "display.max_columns", 30):
        print(table.round(3).to_string(index=False))
    return table


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
