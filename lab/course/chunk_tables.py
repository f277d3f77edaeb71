"""The tables lessons 03, 04 and 05 print about chunks: per page and type, totals, the count
formula, strategies side by side, word windows over the study notes, chunks past input limits."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from lab.chunking import (ChunkedCorpus, Chunk, Document, SectionTokenChunker, WordWindowChunker, check_input_limit,
                          count_tokens)

__all__ = ["Comparison", "page_table", "table_by_type", "chunk_totals", "count_formula_check", "chunks_per_file",
           "strategy_summary", "word_window_summary", "input_limit_table"]

#: Chunks of the same documents cut by several chunkers: ``{strategy: {document id: chunks}}``.
Comparison = dict[str, dict[str, list[Chunk]]]


def page_table(corpus: ChunkedCorpus) -> pd.DataFrame:
    """One row per page: id, title, type, tokens (headings excluded), sections, chunks cut."""
    cut = Counter(c.page_id for c in corpus.chunks)
    return pd.DataFrame([{"page_id": page_id, "title": corpus.documents[page_id].title,
                          "type": corpus.documents[page_id].type, "tokens": flat.body_tokens,
                          "sections": len(flat.sections), "chunks": cut[page_id]}
                         for page_id, flat in corpus.flats.items()])


def table_by_type(corpus: ChunkedCorpus) -> pd.DataFrame:
    """Table 2 by page type, with a total row: pages, body tokens (headings excluded), their mean
    per page, and chunks."""
    table = (page_table(corpus).groupby("type")
             .agg(pages=("tokens", "size"), tokens=("tokens", "sum"), mean_tokens=("tokens", "mean"),
                  chunks=("chunks", "sum"))
             .reset_index())
    total = {"type": "total", "pages": int(table["pages"].sum()), "tokens": int(table["tokens"].sum()),
             "mean_tokens": table["tokens"].sum() / table["pages"].sum(), "chunks": int(table["chunks"].sum())}
    table = pd.concat([table, pd.DataFrame([total])], ignore_index=True)
    table["mean_tokens"] = table["mean_tokens"].round(0).astype(int)
    return table.rename(columns={"tokens": "body_tokens", "mean_tokens": "body_tokens_per_page"})


def chunk_totals(corpus: ChunkedCorpus) -> pd.DataFrame:
    """Totals over all chunks: count, body tokens (chunks vs pages), tokens embedded with the
    header lines, mean/median/max body size, sections with text, overlap cost.

    Sizes and the overlap cost count bodies only, so that the overlap is not confused with the
    header line every chunk adds; sections are counted as :func:`count_formula_check` counts them.
    """
    pages = page_table(corpus)
    sizes = np.array([c.tokens for c in corpus.chunks])
    source_tokens = int(pages["tokens"].sum())
    sections = sum(count_tokens(flat.body(s)) > 0 for flat in corpus.flats.values() for s in flat.sections)
    rows = [("chunks", len(corpus.chunks)), ("chunk body tokens", int(sizes.sum())),
            ("page body tokens", source_tokens),
            ("tokens embedded, header lines included", sum(count_tokens(c.text) for c in corpus.chunks)),
            ("mean tokens per chunk", round(float(sizes.mean()), 1)), ("median", float(np.median(sizes))),
            ("max", int(sizes.max())), ("sections with text", int(sections)),
            ("overlap overhead %", round(100 * (sizes.sum() / source_tokens - 1), 2))]
    return pd.DataFrame(rows, columns=["measure", "value"], dtype=object)


def count_formula_check(corpus: ChunkedCorpus, chunker: SectionTokenChunker) -> pd.DataFrame:
    """One row per non-empty section: its tokens T, the chunks the formula predicts, the chunks cut."""
    by_page: dict[str, list[int]] = {}
    for chunk in corpus.chunks:
        by_page.setdefault(chunk.page_id, []).append(chunk.start)
    rows = []
    for page_id, flat in corpus.flats.items():
        starts = np.array(sorted(by_page.get(page_id, [])))
        for section in flat.sections:
            tokens = count_tokens(flat.body(section))
            if tokens == 0:
                continue
            inside = int(((starts >= section.body_start) & (starts < section.body_end)).sum())
            rows.append({"page_id": page_id, "section": section.title, "T": tokens,
                         "expected": chunker.expected_chunks(tokens), "cut": inside})
    return pd.DataFrame(rows)


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


def word_window_summary(notes: Document, sizes: Iterable[int] = (20, 40, 80),
                        overlaps: Iterable[int] = (0, 10)) -> pd.DataFrame:
    """One row per (size, overlap) over a stream of notes: chunks, words indexed, chunks mixing
    notes, mean notes per chunk."""
    rows = []
    overlaps = list(overlaps)
    for size in sizes:
        for overlap in overlaps:
            chunks = WordWindowChunker(size, overlap).split(notes)
            per_chunk = [len(c.source["sources"]) for c in chunks]
            rows.append({
                "size": size,
                "overlap": overlap,
                "chunks": len(chunks),
                "words_indexed": sum(c.source["words"] for c in chunks),
                "chunks_mixing_sources": sum(n > 1 for n in per_chunk),
                "sources_per_chunk": sum(per_chunk) / len(per_chunk) if per_chunk else 0.0,
            })
    return pd.DataFrame(rows)


def input_limit_table(chunks: Iterable[Chunk], limits: Mapping[str, int]) -> pd.DataFrame:
    """One row per model limit (``{model: max_tokens}``): the chunks it would cut and the tokens it would drop.

    Columns: model, max_tokens, chunks_over, tokens_cut, longest_over (the longest text past the limit, 0 if none).
    """
    chunks = list(chunks)
    rows = []
    for model, max_tokens in limits.items():
        report = check_input_limit(chunks, max_tokens)
        rows.append({"model": model, "max_tokens": max_tokens, "chunks_over": report.count,
                     "tokens_cut": report.tokens_past_limit,
                     "longest_over": max((tokens for _, tokens in report.over), default=0)})
    return pd.DataFrame(rows)
