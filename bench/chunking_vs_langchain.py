"""Chunking throughput of the lab against LangChain's text splitters, as ratios from one run.

One seeded generator writes a corpus of pages (at least 20 MB of markdown; about 1 MB with
``--quick``). Each page exists twice with the same content: as a markdown file and as a
Notion block traversal, flattened once before timing. Two comparisons:

- markdown: :class:`lab.chunking.MarkdownHeaderChunker` (1,200 / 150 characters) against
  LangChain's ``MarkdownHeaderTextSplitter`` followed by ``RecursiveCharacterTextSplitter``
  with the same budget and overlap;
- token windows: :class:`lab.chunking.SectionTokenChunker` (300 / 50 tokens) against
  LangChain's token splitting (``split_text_on_tokens``, the engine of ``TokenTextSplitter``,
  given the lab's tokenizer because tiktoken is not a dependency) and against
  ``RecursiveCharacterTextSplitter`` measuring length in lab tokens, both section by section.

Settings. LangChain's splitters have no speed options (no compiled or parallel mode): each is
used as its documentation shows, with the lab's sizes; only the length function differs where
the lab counts tokens, and it is the lab's own so that both cut at the same places.

Throughput is input megabytes (UTF-8) per second; a ratio above 1 means the lab is faster.
The lab does more per chunk than the references (stable ids, fingerprints, exact offsets,
table headers), so a ratio near 1 already means that work is not paid for in speed.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter
from langchain_text_splitters.base import Tokenizer, split_text_on_tokens

from lab.chunking import (
    TOKEN_PATTERN, Document, FlatDocument, MarkdownHeaderChunker, SectionTokenChunker, count_tokens, flatten_blocks,
)
from lab.notion import PageMetadata

__all__ = ["generate_corpus", "GeneratedCorpus", "main"]

FULL_BYTES = 20_000_000
QUICK_BYTES = 1_000_000
SEED = 2026

_LETTERS = list("abcdefghijlmnopqrstuvyzáéíóúñ")
_LETTER_P = np.array([8, 2, 4, 5, 12, 1, 1, 1, 6, 1, 5, 3, 7, 9, 2, 1, 6, 7, 4, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1],
                     dtype=float)


@dataclass
class GeneratedCorpus:
    """The same pages as markdown files and as flattened Notion pages."""

    markdown: list[tuple[str, str]]
    flat: list[tuple[FlatDocument, dict[str, str]]]

    @property
    def markdown_bytes(self) -> int:
        return sum(len(text.encode("utf-8")) for _, text in self.markdown)

    @property
    def flat_bytes(self) -> int:
        return sum(len(flat.text.encode("utf-8")) for flat, _ in self.flat)


class _Writer:
    """Seeded text: a Zipf-like vocabulary of made-up words, sentences, lists, code and tables."""

    def __init__(self, rng: np.random.Generator, vocabulary: int = 6000) -> None:
        self.rng = rng
        p = _LETTER_P / _LETTER_P.sum()
        lengths = rng.integers(2, 11, size=vocabulary)
        self.words = ["".join(rng.choice(_LETTERS, size=n, p=p)) for n in lengths]
        weights = 1.0 / np.arange(1, vocabulary + 1)
        self.cumulative = np.cumsum(weights / weights.sum())
        self._ids = itertools.count(1)

    def block_text(self, block_type: str, text: str) -> dict:
        """A rich-text block (paragraph, heading, list item) holding ``text``."""
        return self.block(block_type, {"rich_text": _rich(text)})

    def block(self, block_type: str, content: dict) -> dict:
        """A block dict with the next id of this corpus."""
        return {"id": f"b{next(self._ids):012d}", "type": block_type, block_type: content}

    def sentence(self, low: int = 6, high: int = 26) -> str:
        n = int(self.rng.integers(low, high))
        picks = np.searchsorted(self.cumulative, self.rng.random(n))
        words = [self.words[min(k, len(self.words) - 1)] for k in picks]
        if self.rng.random() < 0.3:
            words.insert(int(self.rng.integers(0, n + 1)), str(int(self.rng.integers(1, 500))))
        if self.rng.random() < 0.25:
            words[int(self.rng.integers(0, n))] += ","
        text = " ".join(words)
        return text[0].upper() + text[1:] + str(self.rng.choice([".", ".", ".", "?", "!"]))

    def paragraph(self) -> str:
        return " ".join(self.sentence() for _ in range(int(self.rng.integers(1, 9))))


def _rich(text: str) -> list[dict]:
    return [{"type": "text", "text": {"content": text, "link": None}, "plain_text": text, "href": None}]


def _page(writer: _Writer, index: int) -> tuple[str, str, str, list[tuple[int, dict]]]:
    """One page: its title, path, markdown and Notion traversal."""
    rng = writer.rng
    title = writer.sentence(2, 5).rstrip(".?!")
    path = f"{['guides', 'admin', 'api', 'integrations'][index % 4]}/page-{index:05d}.md"
    md = [f"<!-- url: /{path[:-3]} | version: 1.{index % 7} | updated: 2026-03-{1 + index % 28:02d} -->",
          f"# {title}", writer.paragraph()]
    blocks: list[tuple[int, dict]] = [(0, writer.block_text("paragraph", md[-1]))]
    for _ in range(int(rng.integers(3, 9))):
        level = 3 if rng.random() < 0.3 else 2
        heading = writer.sentence(2, 6).rstrip(".?!")
        md.append("#" * level + " " + heading)
        blocks.append((0, writer.block_text(f"heading_{level}", heading)))
        for _ in range(int(rng.integers(1, 7))):
            kind = rng.choice(["paragraph", "list", "code", "table"], p=[.7, .15, .05, .1])
            if kind == "paragraph":
                text = writer.paragraph()
                md.append(text)
                blocks.append((0, writer.block_text("paragraph", text)))
            elif kind == "list":
                items = [writer.sentence(3, 12) for _ in range(int(rng.integers(2, 7)))]
                md.append("\n".join(f"- {item}" for item in items))
                blocks.extend((0, writer.block_text("bulleted_list_item", item)) for item in items)
            elif kind == "code":
                lines = [f"# {writer.sentence(3, 8)}", "def run(x):", "    total = x * 2", "    return total"]
                md.append("```python\n" + "\n".join(lines) + "\n```")
                blocks.append((0, writer.block("code", {"rich_text": _rich("\n".join(lines)), "language": "python"})))
            else:
                rows = [["Name", "Value", "Note"]] + [[writer.sentence(1, 3), str(int(rng.integers(1, 999))),
                                                       writer.sentence(2, 6)] for _ in range(int(rng.integers(3, 25)))]
                md.append("\n".join(["| " + " | ".join(rows[0]) + " |", "| --- | --- | --- |"]
                                    + ["| " + " | ".join(r) + " |" for r in rows[1:]]))
                blocks.append((0, writer.block("table", {"table_width": 3, "has_column_header": True,
                                                         "has_row_header": False})))
                blocks.extend((1, writer.block("table_row", {"cells": [_rich(c) for c in r]})) for r in rows)
    return title, path, "\n\n".join(md) + "\n", blocks


def generate_corpus(target_bytes: int = FULL_BYTES, seed: int = SEED) -> GeneratedCorpus:
    """Pages until the markdown reaches ``target_bytes``, the same for a given seed."""
    writer = _Writer(np.random.default_rng(seed))
    markdown, flat, total, index = [], [], 0, 0
    while total < target_bytes:
        title, path, text, blocks = _page(writer, index)
        markdown.append((path, text))
        page = PageMetadata(id=f"page-{index:05d}", title=title, type=path.split("/")[0],
                            edited="2026-03-01T10:00:00.000Z")
        flat.append((flatten_blocks(blocks), page))
        total += len(text.encode("utf-8"))
        index += 1
    return GeneratedCorpus(markdown, flat)


def _best_times(runs: dict[str, Callable[[], int]], repeats: int) -> dict[str, tuple[float, int]]:
    """Best wall time and output count of each run; runs are interleaved so that a change in
    machine load during the benchmark affects the lab and the references alike."""
    best = {name: (float("inf"), 0) for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            gc.collect()
            started = time.perf_counter()
            produced = run()
            elapsed = time.perf_counter() - started
            best[name] = (min(best[name][0], elapsed), produced)
    return best


def _lab_markdown(corpus: GeneratedCorpus) -> int:
    chunker = MarkdownHeaderChunker(max_chars=1200, overlap_chars=150)
    # Reading the file's outline is part of the work, as it is for LangChain's header splitter.
    return sum(len(chunker.split(Document.from_markdown(text, path))) for path, text in corpus.markdown)


def _langchain_markdown(corpus: GeneratedCorpus) -> int:
    headers = MarkdownHeaderTextSplitter(headers_to_split_on=[("#", "page"), ("##", "section"), ("###", "subsection")])
    recursive = RecursiveCharacterTextSplitter(chunk_size=1200, chunk_overlap=150)
    return sum(len(recursive.split_documents(headers.split_text(text))) for _, text in corpus.markdown)


def _lab_tokens(corpus: GeneratedCorpus) -> int:
    chunker = SectionTokenChunker(max_tokens=300, overlap=50)
    return sum(len(chunker.split(Document.from_notion_page(flat, page))) for flat, page in corpus.flat)


def _section_bodies(corpus: GeneratedCorpus) -> list[str]:
    return [flat.body(s) for flat, _ in corpus.flat for s in flat.sections]


def _langchain_token_splitter(corpus: GeneratedCorpus) -> int:
    vocabulary: dict[str, int] = {}
    words: list[str] = []

    def encode(text: str) -> list[int]:
        ids = []
        for token in TOKEN_PATTERN.findall(text):
            if token not in vocabulary:
                vocabulary[token] = len(words)
                words.append(token)
            ids.append(vocabulary[token])
        return ids

    tokenizer = Tokenizer(chunk_overlap=50, tokens_per_chunk=300, decode=lambda ids: " ".join(words[i] for i in ids),
                          encode=encode)
    return sum(len(split_text_on_tokens(text=body, tokenizer=tokenizer)) for body in _section_bodies(corpus))


def _langchain_recursive_tokens(corpus: GeneratedCorpus) -> int:
    splitter = RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=50, length_function=count_tokens)
    return sum(len(splitter.split_text(body)) for body in _section_bodies(corpus))


def measure(corpus: GeneratedCorpus, repeats: int = 1) -> pd.DataFrame:
    """Throughput of each lab chunker and its references on ``corpus``, with lab/reference ratios."""
    md_mb, flat_mb = corpus.markdown_bytes / 1e6, corpus.flat_bytes / 1e6
    t = _best_times({
        "lab markdown": lambda: _lab_markdown(corpus),
        "langchain markdown": lambda: _langchain_markdown(corpus),
        "lab tokens": lambda: _lab_tokens(corpus),
        "langchain tokens": lambda: _langchain_token_splitter(corpus),
        "langchain recursive tokens": lambda: _langchain_recursive_tokens(corpus),
    }, repeats)
    rows = []
    for name, lab, reference, mb in [
        ("markdown 1200/150 vs MarkdownHeaderTextSplitter+RecursiveCharacterTextSplitter",
         t["lab markdown"], t["langchain markdown"], md_mb),
        ("token windows 300/50 vs split_text_on_tokens (TokenTextSplitter engine)",
         t["lab tokens"], t["langchain tokens"], flat_mb),
        ("token windows 300/50 vs RecursiveCharacterTextSplitter(length=lab tokens)",
         t["lab tokens"], t["langchain recursive tokens"], flat_mb),
    ]:
        rows.append({"comparison": name, "corpus_mb": round(mb, 2),
                     "lab_mb_per_s": mb / lab[0], "reference_mb_per_s": mb / reference[0],
                     "ratio": reference[0] / lab[0], "lab_chunks": lab[1], "reference_chunks": reference[1]})
    return pd.DataFrame(rows)


def main(quick: bool = False) -> pd.DataFrame:
    """Generate the corpus (20 MB, or ~1 MB when ``quick``), measure, print and return the table."""
    target = QUICK_BYTES if quick else FULL_BYTES
    corpus = generate_corpus(target, SEED)
    print(f"chunking vs LangChain: {len(corpus.markdown)} pages, {corpus.markdown_bytes / 1e6:.1f} MB markdown, "
          f"{corpus.flat_bytes / 1e6:.1f} MB flattened (seed {SEED})")
    table = measure(corpus, repeats=3)
    with pd.option_context("display.width", 200, "display.max_colwidth", 90):
        print(table.round(2).to_string(index=False))
    return table


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="about 1 MB instead of 20 MB")
    main(quick=parser.parse_args().quick)
