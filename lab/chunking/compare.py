"""Several chunking strategies on one corpus, measured the same way (lesson 04)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from lab.chunking.records import Chunk
from lab.chunking.tokens import count_tokens

__all__ = ["Strategy", "run_strategies", "strategy_summary", "chunks_per_file"]

Strategy = Callable[[str, str], list[Chunk]]  # (path, text) -> chunks of that file


def run_strategies(documents: Sequence[tuple[str, str]],
                   strategies: dict[str, Strategy]) -> dict[str, list[tuple[str, Chunk]]]:
    """Every strategy's chunks over every document, in document order, each with its file."""
    return {name: [(path, c) for path, text in documents for c in split(path, text)]
            for name, split in strategies.items()}


def _covered_tokens(text: str, spans: list[tuple[int, int]]) -> int:
    """Lab tokens of ``text`` inside the union of the chunk spans (each source token once)."""
    covered = 0
    for start, end in _union(spans):
        covered += count_tokens(text[start:end])
    return covered


def _union(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def chunks_per_file(results: dict[str, list[tuple[str, Chunk]]],
                    documents: Sequence[tuple[str, str]]) -> pd.DataFrame:
    """One row per file, one column per strategy: how many chunks each cut from it."""
    rows = []
    for path, _ in documents:
        row: dict[str, object] = {"file": path}
        for name, chunks in results.items():
            row[name] = sum(1 for source, _ in chunks if source == path)
        rows.append(row)
    return pd.DataFrame(rows)


def strategy_summary(results: dict[str, list[tuple[str, Chunk]]],
                     documents: Sequence[tuple[str, str]]) -> pd.DataFrame:
    """Per strategy: chunks, body size in lab tokens (mean, median, max), tokens indexed, overlap cost.

    The overlap cost compares the tokens of all chunk bodies with the source tokens they cover
    (each counted once, through the chunks' exact offsets): what indexing pays for repeating
    context between neighbouring chunks. Text no chunk covers (headers a chunker moves into
    breadcrumbs, publication comments) is reported separately.
    """
    texts = dict(documents)
    source_tokens = sum(count_tokens(text) for text in texts.values())
    rows = []
    for name, chunks in results.items():
        sizes = np.array([count_tokens(c.body) for _, c in chunks])
        covered = sum(_covered_tokens(texts[path], [(c.start, c.end) for p, c in chunks if p == path])
                      for path in texts)
        rows.append({"strategy": name, "chunks": len(chunks), "mean_tokens": round(float(sizes.mean()), 1),
                     "median_tokens": float(np.median(sizes)), "max_tokens": int(sizes.max()),
                     "tokens_indexed": int(sizes.sum()), "source_tokens_covered": covered,
                     "source_tokens_left_out": source_tokens - covered,
                     "overlap_cost_pct": round(100 * (sizes.sum() / covered - 1), 1)})
    return pd.DataFrame(rows)
