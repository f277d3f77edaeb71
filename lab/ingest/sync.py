"""Keep the index in step with Notion: a full index, then incremental syncs that never lose it.

An incremental sync asks for the pages edited ``on_or_after`` the stored watermark (minute
rounding makes a strict ``after`` lose edits made in the watermark's own minute), re-reads
those that are publishable, compares fingerprints chunk by chunk, and reconciles with one
query of the publishable pages so that unpublished, trashed or unshared pages leave the index
with all their chunks. The new watermark is the largest ``last_edited_time`` seen, never the
clock.

Every network read happens before the first write, and every write happens in one SQLite
transaction: a failure anywhere (network error, exception, kill) leaves the previous index and
watermark exactly as they were, and running the sync again completes the work.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from lab.errors import LabError
from lab.chunking import Chunk, SectionTokenChunker
from lab.chunking.corpus import chunk_pages
from lab.client import NotionClient, collect_paginated_api
from lab.clock import Clock, iso_minute
from lab.ingest.reading import (KNOWLEDGE_BASE_TITLE, PUBLISHABLE_PROPERTY, PageRead, page_title, publishable_pages,
                                read_knowledge_base, read_pages)
from lab.ingest.models import TFIDF_MODEL, CorpusModels, DenseEmbedder, DenseVectors
from lab.ingest.store import IndexStore
from lab.notion.pages import PageMetadata
from lab.vectors import WordAnalyzer

__all__ = ["SyncConfig", "SyncReport", "GuardrailError", "full_index", "incremental_sync", "cost_table"]


class GuardrailError(LabError, RuntimeError):
    """A reconciliation would delete more of the index than allowed; nothing was written."""


@dataclass
class SyncConfig:
    """Where to read, how to cut, what to store, and how much a reconciliation may delete."""

    source: str = "notion"
    title: str = KNOWLEDGE_BASE_TITLE
    publishable_property: str = PUBLISHABLE_PROPERTY
    chunker: SectionTokenChunker = field(default_factory=SectionTokenChunker)
    analyzer: Callable[[str], list[str]] = field(default_factory=WordAnalyzer)  # TF-IDF's, refitted on change
    dense: DenseEmbedder | None = None  # embeds only new and changed chunks
    max_delete_share: float = 0.5
    data_source_id: str | None = None
    on_page: Callable[[PageRead], None] | None = None


@dataclass(kw_only=True)
class SyncReport:
    """What one run did: one row of the ``sync_runs`` table, plus the details behind it."""

    kind: str
    watermark_before: str | None
    watermark: str
    ran_at: str
    requests: int
    pages_reread: list[str]
    pages_removed: list[str]
    boundary_pages: list[str]
    chunks_new: int
    chunks_updated: int
    chunks_unchanged: int
    chunks_deleted: int
    chunks_total: int
    tokens_embedded: int

    def row(self, source: str) -> dict[str, Any]:
        return {"source": source, "kind": self.kind, "watermark_before": self.watermark_before,
                "watermark": self.watermark, "ran_at": self.ran_at, "requests": self.requests,
                "pages_reread": len(self.pages_reread), "pages_removed": len(self.pages_removed),
                "chunks_new": self.chunks_new, "chunks_updated": self.chunks_updated,
                "chunks_unchanged": self.chunks_unchanged, "chunks_deleted": self.chunks_deleted,
                "chunks_total": self.chunks_total, "tokens_embedded": self.tokens_embedded}


def _parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _needs_reread(page: dict[str, Any], known: PageMetadata | None, read_at: str) -> bool:
    """Re-read unless we hold this exact version and read it after its last-edit minute had closed.

    ``last_edited_time`` has minute precision: if we read a page during the minute it was
    stamped, a later edit in that same minute keeps the stamp, so only a re-read can see it.
    """
    if known is None or known.edited != page["last_edited_time"] or not read_at:
        return True
    return _parse(read_at) < _parse(page["last_edited_time"]) + timedelta(minutes=1)


def _chunk(read: list[PageRead], config: SyncConfig) -> list[Chunk]:
    return chunk_pages(read, config.chunker).chunks


def _refit(store: IndexStore, rows: list[dict[str, Any]], config: SyncConfig) -> None:
    """Refit the corpus models on every chunk the index will hold, in id order (as ``stored_tfidf`` does)."""
    if rows:
        CorpusModels(analyzer=config.analyzer).fit([r["text"] for r in rows]).save(store, rows)
    else:  # nothing left to fit on: the model goes with its last chunk
        store.replace_model([], np.zeros((0, 1), dtype=np.float32), TFIDF_MODEL)


@dataclass(frozen=True, kw_only=True)
class _Changes:
    """What one run writes, worked out after every read and applied in one transaction."""

    source_id: str
    corpus: list[dict[str, Any]] | None  # every chunk the index will hold, if that set changed (refit on it)
    embed: list[Chunk]  # new and changed chunks, for the dense model
    delete_chunks: set[str]
    remove_pages: set[str]
    pages: list[PageMetadata]  # the pages read
    read_at: str  # when they were read


def _write(store: IndexStore, config: SyncConfig, changes: _Changes, report: SyncReport) -> None:
    """Apply one run's changes in a single transaction (all of them, or none)."""
    dense = DenseVectors.embed(config.dense, changes.embed) if config.dense and changes.embed else None
    with store.transaction():  # the embedding above is a network call: it happens before any write
        store.set_meta(f"{config.source}.data_source_id", changes.source_id)
        if changes.remove_pages:
            store.delete_pages(changes.remove_pages)
        if changes.delete_chunks:
            store.delete_chunks(changes.delete_chunks)
        if changes.corpus is not None:
            _refit(store, sorted(changes.corpus, key=lambda row: row["id"]), config)
        if dense is not None:
            dense.save(store)
        store.put_pages(changes.pages, changes.read_at)
        store.set_watermark(config.source, report.watermark)
        store.add_sync_run(report.row(config.source))


def full_index(client: NotionClient, store: IndexStore, clock: Clock, config: SyncConfig | None = None) -> SyncReport:
    """Read every publishable page, chunk it, vectorise it and replace the index with the result."""
    config = config or SyncConfig()
    before = len(client.log)
    knowledge_base = read_knowledge_base(client, config.title, config.publishable_property, config.data_source_id,
                                         config.on_page)
    reads = knowledge_base.pages
    read_at = clock.datetime().isoformat()
    chunks = _chunk(reads, config)
    previous = store.watermark(config.source)
    watermark = max([previous or ""] + [r.edited for r in reads]) or (previous or "")
    old_ids = set(store.chunk_ids())
    new_ids = {c.id for c in chunks}
    report = SyncReport(kind="full", watermark_before=previous, watermark=watermark,
                        ran_at=iso_minute(clock.datetime()), requests=len(client.log) - before,
                        pages_reread=[r.title for r in reads], pages_removed=[], boundary_pages=[],
                        chunks_new=len(new_ids - old_ids), chunks_updated=len(new_ids & old_ids), chunks_unchanged=0,
                        chunks_deleted=len(old_ids - new_ids), chunks_total=len(chunks),
                        tokens_embedded=sum(c.tokens for c in chunks))
    changes = _Changes(source_id=knowledge_base.data_source_id, corpus=[c.to_dict() for c in chunks], embed=chunks,
                       delete_chunks=old_ids - new_ids, remove_pages=set(store.pages()) - {r.id for r in reads},
                       pages=[r.info for r in reads], read_at=read_at)
    _write(store, config, changes, report)
    return report


def incremental_sync(client: NotionClient, store: IndexStore, clock: Clock, config: SyncConfig | None = None,
                     force: bool = False) -> SyncReport:
    """Bring the index up to date with two queries plus one read per changed publishable page."""
    config = config or SyncConfig()
    watermark = store.watermark(config.source)
    source_id = store.get_meta(f"{config.source}.data_source_id")
    if watermark is None or source_id is None:
        return full_index(client, store, clock, config)
    before = len(client.log)
    changed = collect_paginated_api(client.data_sources.query, data_source_id=source_id, filter={
        "timestamp": "last_edited_time", "last_edited_time": {"on_or_after": watermark}})
    current = {p["id"]: p for p in publishable_pages(client, source_id, config.publishable_property)}
    indexed, read_times = store.pages(), store.read_times()
    boundary = [p for p in changed if p["last_edited_time"] == watermark]
    to_read = [p for p in changed
               if p["id"] in current and _needs_reread(p, indexed.get(p["id"]), read_times.get(p["id"], ""))]
    reads = read_pages(client, to_read, on_page=config.on_page)
    read_at = clock.datetime().isoformat()
    fresh_all = _chunk(reads, config)

    stored = store.chunk_ids()
    reread_ids = {r.id for r in reads}
    stale = {cid for cid in stored if any(cid.startswith(pid + ":") for pid in reread_ids)}
    new = [c for c in fresh_all if c.id not in stored]
    updated = [c for c in fresh_all if c.id in stored and stored[c.id] != c.fingerprint]
    unchanged = [c for c in fresh_all if c.id in stored and stored[c.id] == c.fingerprint]
    vanished = stale - {c.id for c in fresh_all}
    removed_pages = set(indexed) - set(current)
    removed_chunks = {cid for cid in stored if any(cid.startswith(pid + ":") for pid in removed_pages)}

    total_before = len(stored)
    deleting = len(vanished | removed_chunks)
    if total_before and deleting / total_before > config.max_delete_share and not force:
        raise GuardrailError(
            f"this sync would delete {deleting} of the {total_before} chunks in the index "
            f"({100 * deleting / total_before:.0f} %, more than the {100 * config.max_delete_share:.0f} % allowed): "
            f"{len(removed_pages)} of {len(indexed)} indexed pages are no longer publishable or visible. That "
            "usually means the integration lost access or the publishable property changed, not that the pages "
            "were retired. Nothing was written; run again with force=True if the deletion is intended.")

    new_watermark = max([watermark] + [p["last_edited_time"] for p in changed])
    keep = [row for row in store.chunks(TFIDF_MODEL) if row["id"] not in (stale | removed_chunks)] \
        if TFIDF_MODEL in store.models() else []
    corpus = keep + [c.to_dict() for c in new + updated + unchanged]
    report = SyncReport(kind="incremental", watermark_before=watermark, watermark=new_watermark,
                        ran_at=iso_minute(clock.datetime()), requests=len(client.log) - before,
                        pages_reread=[r.title for r in reads],
                        pages_removed=[indexed[p].title for p in sorted(removed_pages)],
                        boundary_pages=[page_title(p) for p in boundary], chunks_new=len(new),
                        chunks_updated=len(updated), chunks_unchanged=len(unchanged), chunks_deleted=deleting,
                        chunks_total=len(corpus), tokens_embedded=sum(c.tokens for c in new + updated))
    corpus_changed = bool(new or updated or vanished or removed_chunks)
    changes = _Changes(source_id=source_id, corpus=corpus if corpus_changed else None, embed=new + updated,
                       delete_chunks=vanished, remove_pages=removed_pages,
                       pages=[r.info for r in reads], read_at=read_at)
    _write(store, config, changes, report)
    return report


def cost_table(runs: dict[str, tuple[int, int]], *, usd_per_million: float = 0.06, rate: float = 3.0,
               days: int = 30, days_with_changes: int = 4, changed_run: str = "today's sync",
               quiet_run: str = "a sync with no changes") -> "pd.DataFrame":
    """Table 3: requests, tokens embedded, minimum seconds at ``rate`` and embedding cost per run.

    ``runs`` maps a run's name to (requests to Notion, tokens sent for embedding). A typical
    month is ``days_with_changes`` runs like ``changed_run`` and the rest like ``quiet_run``.
    """
    import pandas as pd

    rows = [{"run": name, "requests": req, "tokens_embedded": tok} for name, (req, tok) in runs.items()]
    changed, quiet = runs[changed_run], runs[quiet_run]
    quiet_days = days - days_with_changes
    rows.append({"run": f"a typical month ({days} daily syncs, {days_with_changes} with changes)",
                 "requests": days_with_changes * changed[0] + quiet_days * quiet[0],
                 "tokens_embedded": days_with_changes * changed[1] + quiet_days * quiet[1]})
    table = pd.DataFrame(rows)
    table["minimum_seconds"] = (table["requests"] / rate).round(1)
    table["usd_embeddings"] = (table["tokens_embedded"] * usd_per_million / 1e6).round(5)
    return table
