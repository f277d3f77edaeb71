"""How much of the lab's reading of a page another Notion loader's text keeps, block type by block type.

The lab's reader flattens every block it reads into lines: a table's rows, an image's caption, the
text inside columns and synced blocks. A loader people already use returns one text per page. A
lab line is *kept* when its letters (whitespace removed: both reference loaders put each rich-text
run on a line of its own) occur in the loader's text of the same page. Counting the lines a loader
misses by where they sit says what an index built from that loader could never find.

The reference loaders (LangChain's ``NotionDBLoader``, LlamaIndex's ``NotionPageReader``) are
installed with the dev extra only, so what they give is kept as a recording
(:func:`write_recording`), made and checked against a fresh run by ``tests/test_reference_loaders.py``;
a lesson reads it (:func:`read_recording`) and sets it beside the lab's own lines
(:func:`coverage_table`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pandas as pd

from lab.chunking import flatten_blocks
from lab.simulator import Workspace

__all__ = ["CONTAINERS", "LoaderRecording", "lab_lines", "letters", "missed_lines", "coverage_table",
           "write_recording", "read_recording"]

#: Blocks without text of their own that hold others: a line inside one is counted apart.
CONTAINERS = ("column", "synced_block")


@dataclass(frozen=True)
class LoaderRecording:
    """What one loader gave for the bakery's knowledge base, read through the served simulator.

    ``missed`` counts the lab's lines with text that the loader's text of their page lacks, by where
    they sit (:func:`lab_lines`); ``documents`` is how many documents the loader returned."""

    loader: str
    package: str
    notion_version: str
    call: str
    documents: int
    missed: dict[str, int] = field(default_factory=dict)


def lab_lines(pages: Iterable, workspace: Workspace) -> dict[str, list[tuple[str, str]]]:
    """Page id -> (where, text) of each line the lab's flattening makes of a block of the page.

    ``pages`` are the lab reader's pages (``read_knowledge_base(...).pages``; sub-pages are left
    out, since a loader returns the page they sit in); *where* is the block's type, followed by
    ``" in column"`` or ``" in synced_block"`` when it sits in one; the text is the block's own."""

    def where(block_id: str) -> str:
        inside = next((workspace.blocks[a].type for a in list(workspace.ancestors(block_id))[1:]
                       if a in workspace.blocks and workspace.blocks[a].type in CONTAINERS), None)
        return workspace.blocks[block_id].type + (f" in {inside}" if inside else "")

    return {page.page["id"]: [(where(line.block_id), workspace.block_text(line.block_id) or line.text)
                              for line in flatten_blocks(page.blocks).lines if line.block_id in workspace.blocks]
            for page in pages if page.parent is None}


def letters(text: str) -> str:
    """Text without whitespace: a link or a bold word a loader puts on a line of its own still matches."""
    return "".join(text.split())


def missed_lines(lines: Mapping[str, list[tuple[str, str]]], texts: Mapping[str, str]) -> Counter[str]:
    """Where the lab's lines sit whose text the loader's text of their page (``texts``, by page id) lacks."""
    missing: Counter[str] = Counter()
    for page_id, page_lines in lines.items():
        page_letters = letters(texts.get(page_id, ""))
        for where, text in page_lines:
            if letters(text) and letters(text) not in page_letters:
                missing[where] += 1
    return missing


def coverage_table(lines: Mapping[str, list[tuple[str, str]]], recordings: Iterable[LoaderRecording]) -> pd.DataFrame:
    """One row per place a line sits (block type, container), and a last row ``all``: the lab's lines
    with text there, then the lines each recorded loader kept, one column per loader."""
    counts = Counter(where for page_lines in lines.values() for where, text in page_lines if letters(text))
    table = pd.DataFrame({"block": sorted(counts), "lab_lines": [counts[w] for w in sorted(counts)]})
    for recording in recordings:
        table[recording.loader] = table["lab_lines"] - table["block"].map(recording.missed).fillna(0).astype(int)
    total = table.drop(columns="block").sum().to_dict()
    return pd.concat([table, pd.DataFrame([{"block": "all", **total}])], ignore_index=True)


def write_recording(path: Path, recordings: Iterable[LoaderRecording]) -> None:
    """Save the recordings as indented JSON, keys sorted, so a re-recording's diff shows what moved."""
    text = json.dumps([asdict(r) for r in recordings], ensure_ascii=False, indent=2, sort_keys=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")


def read_recording(path: Path) -> list[LoaderRecording]:
    """The recordings :func:`write_recording` saved."""
    return [LoaderRecording(**entry) for entry in json.loads(path.read_text(encoding="utf-8"))]
