"""The checkers of lesson 03's exercises (expected values computed, never typed)."""

from __future__ import annotations

import copy
from functools import lru_cache

from lab.chunking import ChunkedCorpus, Document, SectionTokenChunker, chunk_pages, flatten_blocks, token_spans
from lab.client import FixedRate
from lab.course.chunk_tables import chunk_totals, count_formula_check
from lab.course.lesson03 import SEED
from lab.exercises.checking import Exercises
from lab.exercises.runs import run_indexer
from lab.ingest.reading import KnowledgeBaseRead

__all__ = ["exercise"]

CINNAMON = "Ficha: Rol de canela"
CINNAMON_SENTENCE = "lleva nuez en la receta"  # in the "Alérgenos" section of the cinnamon roll sheet


#: The checkers of the exercises at the end of lesson 03: ``exercise(1).check(...)``.
exercise = Exercises("lesson03")


@lru_cache(maxsize=1)
def _read() -> KnowledgeBaseRead:
    return run_indexer("paced", FixedRate(3.0), passes=1, seed=SEED).read


def _corpus(chunker: SectionTokenChunker) -> ChunkedCorpus:
    return chunk_pages(_read().pages, chunker)


@exercise.define(1)
def _smaller_windows() -> dict:
    chunker = SectionTokenChunker(max_tokens=200, overlap=40)
    corpus = _corpus(chunker)
    check = count_formula_check(corpus, chunker)
    totals = chunk_totals(corpus).set_index("measure")["value"]
    return {"chunks": len(corpus.chunks), "sections_over_L": int((check["T"] > 200).sum()),
            "overlap_pct": float(totals["overlap overhead %"])}


@exercise.define(2)
def _longest_section() -> dict:
    chunker = SectionTokenChunker(max_tokens=300, overlap=50)
    corpus = _corpus(chunker)
    check = count_formula_check(corpus, chunker)
    top = check.sort_values(["T", "section"], ascending=[False, True]).iloc[0]
    windows = sorted((c for c in corpus.chunks if c.page_id == top["page_id"] and c.section == top["section"]),
                     key=lambda c: c.start)
    text = corpus.flats[top["page_id"]].text
    shared = {len(token_spans(text[b.start:a.end])) for a, b in zip(windows, windows[1:])}
    return {"windows": len(windows), "shared_tokens": shared.pop() if len(shared) == 1 else sorted(shared),
            "last_window_tokens": windows[-1].tokens}


@exercise.define(3)
def _rewritten_sentence() -> dict:
    chunker = SectionTokenChunker(max_tokens=300, overlap=50)
    page = next(p for p in _read().pages if p.title == CINNAMON)
    edited = copy.deepcopy(page.blocks)
    for _, block in edited:
        runs = block.get(block["type"], {}).get("rich_text", [])
        if runs and CINNAMON_SENTENCE in "".join(run["plain_text"] for run in runs):
            runs[0]["plain_text"] = runs[0]["text"]["content"] = "Todas las piezas de rol de canela llevan nuez."
            del runs[1:]

    def fingerprints(blocks: list) -> dict[str, str]:
        document = Document.from_notion_page(flatten_blocks(blocks), page.info)
        return {c.id: c.fingerprint for c in chunker.split(document)}

    before, after = fingerprints(page.blocks), fingerprints(edited)
    changed = sum(before[i] != after.get(i) for i in before)
    return {"changed_chunks": changed, "unchanged_chunks": len(before) - changed, "same_ids": set(before) == set(after)}
