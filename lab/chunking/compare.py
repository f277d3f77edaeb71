"""Several chunking strategies on the same documents, measured the same way (lesson 04)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from lab.chunking.document import Document
from lab.chunking.records import Chunk
from lab.chunking.tokens import count_tokens

__all__ = ["Comparison", "chunks_per_file", "strategy_summary"]

#: Chunks of the same documents cut by several chunkers: ``{strategy: {document id: chunks}}``.
Comparison = dict[str, dict[str, list[Chunk]]]


def chunks_per_file(results: Comparison) -> pd.DataFrame:
    """One row per document, one column per strategy: how many chunks each cut from it."""
    files = dict.fromkeys(doc_id for by_file in results.values() for doc_id in by_file)
    return pd.DataFrame([{"file": doc_id} | {name: len(by_file.get(doc_id, [])) for name, by_file in results.items()}
                         for doc_id in files])


def strategy_summary(results: Comparison, documents: Iterable[Document]) -> pd.DataFrame:
    """Per strategy: chunks, body size in lab tokens (mean, median, max), tokens indexed, overlap cost.

    The overlap cost compares the tokens of all chunk bodies with the source tokens they cover
    (each counted once, through the chunks' exact offsets): what indexing pays for repeating
    context between neighbouring chunks. Text no chunk covers (headers a chunker moves into
    breadcrumbs, publication comments) is reported separately.
    """
    texts = {document.id: document.text for document in documents}
    source_tokens = sum(count_tokens(text) for text in texts.values())
    rows = []
    for name, by_file in results.items():
        sizes = np.array([count_tokens(c.body) for chunks in by_file.values() for c in chunks])
        covered = sum(_covered_tokens(texts[doc_id], [(c.start, c.end) for c in by_file.get(doc_id, [])])
                      for doc_id in texts)
        rows.append({"strategy": name, "chunks": len(sizes), "mean_tokens": round(float(sizes.mean()), 1),
                     "median_tokens": float(np.median(sizes)), "max_tokens": int(sizes.max()),
                     "tokens_indexed": int(sizes.sum()), "source_tokens_covered": covered,
                     "source_tokens_left_out": source_tokens - covered,
                     "overlap_cost_pct": round(100 * (sizes.sum() / covered - 1), 1)})
    return pd.DataFrame(rows)


def _covered_tokens(text: str, spans: list[tuple[int, int]]) -> int:
    """Lab tokens of ``text`` inside the union of the chunk spans (each source token once)."""
    return sum(count_tokens(text[start:end]) for start, end in _union(spans))


def _union(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
