"""Lesson 12's scenario and tables.

The lesson draws nothing at random: LSA's start vector has a fixed seed (``random_state=0``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from lab.answering import CachedAnswer
from lab.datasets.docs_corpus import load_docs_corpus
from lab.embedders import DenseEmbedder
from lab.ingest import IngestReport
from lab.retrieval import SearchCorpus
from lab.vectors import Hit

__all__ = ["key_figures", "docs_paragraphs", "edit_file", "report_frame", "runs_table", "cache_table",
           "versions_side_by_side", "pages_kept", "FlakyEmbedder", "ShortInputEmbedder", "QUESTION", "EDITED",
           "BATCH_SIZE", "DAMAGE", "naive_markdown"]

#: The question the lesson asks before and after an edit.
QUESTION = "How long does it take to get from an empty workspace to a published week?"
#: The file the lesson edits, and the edit.
EDITED = "guides/quickstart.md"
EDIT = ("in about fifteen minutes", "in about ten minutes")
BATCH_SIZE = 16

#: Report columns the lesson's tables show, in order.
#: What converting a document usually leaves behind: (document, damage, a text that shows it).
DAMAGE = (
    ("guides/holiday-scheduling.pdf", "running header on every page", "Shiftly Docs"),
    ("guides/holiday-scheduling.pdf", "page numbers", "Page 1 of 2"),
    ("integrations/microsoft-teams.html", "the site's menu", "Sign in"),
    ("integrations/microsoft-teams.html", "the site's sidebar", "Quickstart"),
    ("integrations/microsoft-teams.html", "the site's footer", "© 2026"),
    ("admin/data-retention.docx", "a table row split in two", "|  |  | An administrator"),
)


def naive_markdown(path: str, data: bytes) -> str:
    """A document converted the plain way, before any cleaning: pdfminer's text, or markdownify on the
    whole page (mammoth's HTML for Word), for comparison with :func:`lab.chunking.conversion.document_markdown`."""
    import io

    import mammoth
    from markdownify import markdownify
    from pdfminer.high_level import extract_text

    if path.endswith(".pdf"):
        return extract_text(io.BytesIO(data))
    if path.endswith(".docx"):
        return markdownify(mammoth.convert_to_html(io.BytesIO(data)).value)
    return markdownify(data.decode("utf-8"))


RUN_COLUMNS = ["model", "files_read", "files_cut", "files_removed", "chunks_new", "chunks_changed",
               "chunks_unchanged", "chunks_deleted", "chunks_stale", "chunks_total", "texts_embedded", "batches",
               "generation"]


def docs_paragraphs() -> list[str]:
    """The docs corpus cut on blank lines: the texts the offline embedder is fitted on.

    Paragraphs rather than chunks: 74 chunks allow at most 73 LSA dimensions, the corpus's
    paragraphs allow 128.
    """
    return [p for _, text in load_docs_corpus() for p in text.split("\n\n") if p.strip()]


def edit_file(path: Path, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` once in the file; a clear error if the text is not there."""
    text = path.read_text(encoding="utf-8")
    if old not in text:
        raise ValueError(f"{path.name} does not contain {old!r}: was the file already edited?")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def report_frame(report: IngestReport) -> pd.DataFrame:
    """One run's counts, one row each (the model first)."""
    row = report.as_row()
    return pd.DataFrame({"value": [row[c] for c in RUN_COLUMNS]}, index=RUN_COLUMNS)


def runs_table(records: Mapping[str, object]) -> pd.DataFrame:
    """One row per run the story recorded, in step order."""
    rows = [{"step": step} | {c: report.as_row()[c] for c in RUN_COLUMNS}
            for step, report in records.items() if isinstance(report, IngestReport)]
    return pd.DataFrame(rows)


def cache_table(records: Mapping[str, object]) -> pd.DataFrame:
    """Every question the story asked the cache: at which index generation, hit or miss, the answer."""
    rows = [{"step": step, "generation": asked.version, "hit": asked.hit, "best_source": asked.answer}
            for step, answers in records.items() if isinstance(answers, list)
            for asked in answers if isinstance(asked, CachedAnswer)]
    return pd.DataFrame(rows)


def versions_side_by_side(searches: Mapping[str, Sequence[Hit]]) -> pd.DataFrame:
    """The hits of each search in a column of its own, one row per rank: each hit's section and, in
    brackets, its version ("no version" for a chunk without one)."""
    depth = max((len(hits) for hits in searches.values()), default=0)
    columns = {name: [f"{hit.label} ({hit.version or 'no version'})" for hit in hits] + [""] * (depth - len(hits))
               for name, hits in searches.items()}
    return pd.DataFrame(columns, index=pd.RangeIndex(1, depth + 1, name="rank"))


def pages_kept(corpus: SearchCorpus, mask: np.ndarray) -> str:
    """The pages (title and day of last edit) of the rows a filter's mask keeps, oldest first."""
    pages = {(corpus.edited[row] or "", corpus.titles[row]) for row in np.flatnonzero(mask)}
    return ", ".join(f"{title} ({edited})" for edited, title in sorted(pages))


class ShortInputEmbedder:
    """``inner`` as if its model read at most ``max_input_tokens`` per text (a 256-token model, say)."""

    def __init__(self, inner: DenseEmbedder, max_input_tokens: int) -> None:
        self.inner, self.name, self.max_input_tokens = inner, inner.name, max_input_tokens

    def embed_documents(self, texts: Sequence[str]) -> Any:
        return self.inner.embed_documents(texts)


class FlakyEmbedder:
    """An embedder that fails on its ``fail_on``-th call (a dropped connection, a quota hit)."""

    def __init__(self, inner: DenseEmbedder, fail_on: int) -> None:
        self.inner, self.fail_on, self.calls = inner, fail_on, 0
        self.name = inner.name
        self.max_input_tokens = inner.max_input_tokens

    def embed_documents(self, texts: Sequence[str]) -> Any:
        self.calls += 1
        if self.calls == self.fail_on:
            raise ConnectionError(f"the embedding service dropped the connection on call {self.calls}")
        return self.inner.embed_documents(texts)


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    runs = pd.read_csv(tables / "12_runs.csv").set_index("step")
    return "; ".join(f"{step}: {int(row['texts_embedded'])} embedded, {int(row['chunks_deleted'])} deleted"
                     for step, row in runs.iterrows())
