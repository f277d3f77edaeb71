"""Keep the index in step with Notion: a full index that resumes, then incremental syncs that miss nothing.

An incremental sync asks for the pages edited ``on_or_after`` the stored watermark (minute
rounding makes a strict ``after`` lose edits made in the watermark's own minute) and lists the
publishable pages. Reconciliation goes both ways: every publishable page the list holds is
compared with the index, so a page whose ``last_edited_time`` moved is read again, and so is a
page the index lacks although nothing stamped it (shared again, published again, restored with
an old stamp); a page the index holds that the list no longer returns (unpublished, trashed,
unshared) leaves with all its chunks. Sub-pages are documents of their own and are found as
:mod:`lab.ingest.sub_pages` explains; a page that shows a synced block held by another page is
read again when what it shows changed (:mod:`lab.ingest.synced_originals`). The new watermark is
the largest ``last_edited_time`` the query returned, never the clock, and it never goes back. The
chunk rows of a page read again carry its current metadata (last edit, title, order) whether or
not their text changed.

A run costs what changed: it looks up only the stored chunks of the pages it read or removes
(through the index's page index), writes the term counts of new and changed chunks only (the
idf is recomputed when the index is read, :mod:`lab.index`), and sends only those to a
dense model. A full index chunks each page as it reads it and drops its blocks.

Every network read happens before the first write, and every write happens in one SQLite
transaction: a failure anywhere (network error, exception, kill) leaves the previous index and
watermark exactly as they were, and running the sync again completes the work. A run plans
against a snapshot of the index and writes only if no other run has published since (the
index's generation number has not moved); otherwise it plans again from the index as it now
is, so two syncs on one file, in one process or two, never lose an edit.

A full index keeps each page it reads in the index file's staging area as it reads it
(:mod:`lab.ingest.checkpoint`): after a crash or a Ctrl-C, running it again reads only the pages
that are missing or changed, and the published index still changes in one transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lab.chunking import Chunk, SectionTokenChunker
from lab.chunking.corpus import chunk_pages
from lab.client import NotionClient, WalkReport, query_every_row
from lab.clock import Clock, iso_minute
from lab.ingest.checkpoint import ReadCheckpoint
from lab.ingest.deletion_guardrail import GuardrailError, check_deletion_share, check_max_share
from lab.ingest.page_reads import PageRead, read_page
from lab.ingest.reading import (KNOWLEDGE_BASE_TITLE, PUBLISHABLE_PROPERTY, find_data_source, page_title,
                                publishable_pages, read_knowledge_base)
from lab.embedders import DenseEmbedder
from lab.index import TFIDF_MODEL, DenseVectors, IndexSnapshot, IndexStore, IndexedPage
from lab.ingest.replanning import MAX_ATTEMPTS, ConcurrentSyncError, check_unmoved, publish_with_replanning
from lab.ingest.sub_pages import find_sub_pages, known_read_is_current
from lab.ingest.synced_originals import SyncedOriginals
from lab.notion.pages import PageMetadata
from lab.vectors import WordAnalyzer
from lab.vectors.counting import learn_counts

__all__ = ["SyncConfig", "SyncReport", "GuardrailError", "ConcurrentSyncError", "full_index", "incremental_sync",
           "cost_table", "MAX_ATTEMPTS"]

@dataclass
class SyncConfig:
    """Where to read, how to cut, what to store, and how much a reconciliation may delete."""

    source: str = "notion"
    title: str = KNOWLEDGE_BASE_TITLE
    publishable_property: str = PUBLISHABLE_PROPERTY
    chunker: SectionTokenChunker = field(default_factory=SectionTokenChunker)
    analyzer: Callable[[str], list[str]] = field(default_factory=WordAnalyzer)  # TF-IDF's, refitted on change
    dense: DenseEmbedder | None = None  # embeds only new and changed chunks
    search_recipe: str | None = None  # the recipe searches of this index use, by name (lab.retrieval.RECIPES)
    max_delete_share: float = 0.5
    data_source_id: str | None = None
    on_page: Callable[[PageRead], None] | None = None

    def __post_init__(self) -> None:
        check_max_share(self.max_delete_share)


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
    pages_resumed: int = 0  # pages a full index took from an interrupted run instead of reading them
    attempts: int = 1  # 2 or more: another run published while this one read, and it planned again
    #: blocks whose children were not read: they nest deeper than the walk's fuse (DEFAULT_MAX_DEPTH)
    blocks_too_deep: list[str] = field(default_factory=list)
    #: data-source queries the run made from a creation time on: one per listing unless a listing held more
    #: than Notion's 10,000 results a query (:func:`~lab.client.query_every_row`)
    query_windows: int = 0

    def row(self, source: str) -> dict[str, Any]:
        return {"source": source, "kind": self.kind, "watermark_before": self.watermark_before,
                "watermark": self.watermark, "ran_at": self.ran_at, "requests": self.requests,
                "pages_reread": len(self.pages_reread), "pages_removed": len(self.pages_removed),
                "chunks_new": self.chunks_new, "chunks_updated": self.chunks_updated,
                "chunks_unchanged": self.chunks_unchanged, "chunks_deleted": self.chunks_deleted,
                "chunks_total": self.chunks_total, "tokens_embedded": self.tokens_embedded}


def _chunk(read: list[PageRead], config: SyncConfig) -> list[Chunk]:
    return chunk_pages(read, config.chunker).chunks


def _write_term_counts(store: IndexStore, config: SyncConfig, changes: _Changes) -> None:
    """Write the term counts of the chunks whose text is new, inside the run's transaction.

    Only those chunks' rows and the frequencies of their terms change (see :mod:`lab.index`);
    a full index replaces them all, and counts made by another analyzer are all made again.
    """
    analyzer = repr(config.analyzer)
    if changes.publishes_staging or store.counts_analyzer(TFIDF_MODEL) not in (None, analyzer):
        kept = [] if changes.publishes_staging else [
            row for row in store.chunks(TFIDF_MODEL) if row["page_id"] not in changes.reread]
        texts = [row["text"] for row in kept] + [c.text for c in changes.fresh]
        store.replace_term_counts(kept + changes.fresh, *learn_counts(texts, config.analyzer), TFIDF_MODEL,
                                  analyzer)
    elif changes.embed:
        counts, terms = learn_counts([c.text for c in changes.embed], config.analyzer)
        store.put_term_counts(changes.embed, counts, terms, TFIDF_MODEL, analyzer)
    if TFIDF_MODEL in store.models() and store.count_chunks(TFIDF_MODEL) == 0:
        store.drop_model(TFIDF_MODEL)  # the model goes with its last chunk


@dataclass(frozen=True, kw_only=True)
class _Changes:
    """What one run writes, worked out after every read and applied in one transaction."""

    source_id: str
    generation: int  # of the snapshot planned against: the write happens only if it has not moved
    reread: set[str]  # pages read: their stored chunks give way to ``fresh``
    fresh: list[Chunk]  # every chunk of the pages read
    unchanged: list[Chunk]  # those whose text the index already holds (rows rewritten, vectors kept)
    embed: list[Chunk]  # new and changed chunks: their term counts, and the dense model's vectors
    delete_chunks: set[str]
    remove_pages: set[str]
    pages: list[IndexedPage]  # the pages read
    publishes_staging: bool = False  # a full index: its checkpoint is spent


def _write(store: IndexStore, config: SyncConfig, changes: _Changes, report: SyncReport) -> None:
    """Apply one run's changes in a single transaction (all of them, or none), if no other run
    published since its snapshot."""
    dense = DenseVectors.embed(config.dense, changes.embed) if config.dense and changes.embed else None
    with store.transaction():  # the embedding above is a network call: it happens before any write
        check_unmoved(store, changes.generation)
        store.set_meta(f"{config.source}.data_source_id", changes.source_id)
        if config.search_recipe is not None:
            store.set_search_recipe(config.search_recipe)
        store.delete_pages(changes.remove_pages)
        store.delete_chunks(changes.delete_chunks)
        store.update_chunks(changes.unchanged)  # same text, but the page's last edit, title or order moved
        _write_term_counts(store, config, changes)
        if dense is not None:
            dense.save(store)
        store.put_pages(changes.pages)
        store.set_watermark(config.source, report.watermark)
        store.add_sync_run(report.row(config.source))
        if changes.publishes_staging:
            store.clear_staged()
        store.bump_generation()
    if changes.publishes_staging:
        store.release_free_space()
    if changes.remove_pages:
        store.erase_deleted()


def _publish(store: IndexStore, config: SyncConfig,
             plan: Callable[[IndexSnapshot], tuple[_Changes, SyncReport]]) -> SyncReport:
    """Plan against a snapshot and write; plan again if another run published meanwhile."""
    def attempt(number: int) -> SyncReport:
        changes, report = plan(store.snapshot(config.source))
        report.attempts = number
        _write(store, config, changes, report)
        return report

    return publish_with_replanning(store, attempt)


def _check_parts(client: Any, store: Any) -> None:
    """A clear TypeError for a path or a session passed where the run needs the objects themselves."""
    if not isinstance(client, NotionClient):
        raise TypeError(f"the run reads through a NotionClient (NotionClient(token)), not {type(client).__name__}")
    if not isinstance(store, IndexStore):
        raise TypeError(f"the run writes into an IndexStore (IndexStore('kb.sqlite')), not {type(store).__name__}")


def full_index(client: NotionClient, store: IndexStore, clock: Clock, config: SyncConfig | None = None) -> SyncReport:
    """Read every publishable page and its sub-pages, chunk them, vectorise them and replace the
    index with the result; a run interrupted before it published is resumed."""
    _check_parts(client, store)
    config = config or SyncConfig()
    before = len(client.log)
    source_id = config.data_source_id
    if source_id is None:  # "" is not "not given": the client refuses it as an id
        source_id = find_data_source(client, config.title)["id"]
    checkpoint = ReadCheckpoint(store, source_id)
    chunked: dict[str, list[Chunk]] = {}  # the chunks of each page this attempt read

    def keep(read: PageRead) -> None:
        checkpoint.keep(read)
        if config.on_page is not None:
            config.on_page(read)
        chunked[read.id] = _chunk([read], config)  # pages are chunked one by one, so as they come
        read.drop_content()

    def plan(base: IndexSnapshot) -> tuple[_Changes, SyncReport]:
        chunked.clear()
        knowledge_base = read_knowledge_base(client, config.title, config.publishable_property, source_id, keep,
                                             earlier=checkpoint.reads())
        reads, resumed = knowledge_base.pages, set(knowledge_base.resumed)
        chunks = [c for r in reads for c in (chunked.pop(r.id) if r.id in chunked else _chunk([r], config))]
        previous = base.watermark
        watermark = max([previous or ""] + [r.edited for r in reads if r.parent_id is None]) or (previous or "")
        old_ids, new_ids = set(store.chunk_ids()), {c.id for c in chunks}
        report = SyncReport(kind="full", watermark_before=previous, watermark=watermark,
                            ran_at=iso_minute(clock.datetime()), requests=len(client.log) - before,
                            pages_reread=[r.title for r in reads if r.id not in resumed], pages_removed=[],
                            boundary_pages=[],
                            chunks_new=len(new_ids - old_ids), chunks_updated=len(new_ids & old_ids),
                            chunks_unchanged=0, chunks_deleted=len(old_ids - new_ids), chunks_total=len(chunks),
                            tokens_embedded=sum(c.tokens for c in chunks),
                            pages_resumed=len(resumed), blocks_too_deep=list(knowledge_base.walk.too_deep),
                            query_windows=knowledge_base.query_windows)
        changes = _Changes(source_id=source_id, generation=base.generation, reread={r.id for r in reads},
                           fresh=chunks, unchanged=[], embed=chunks,
                           delete_chunks=old_ids - new_ids, remove_pages=set(base.pages) - {r.id for r in reads},
                           pages=[r.indexed() for r in reads], publishes_staging=True)
        return changes, report

    return _publish(store, config, plan)


def incremental_sync(client: NotionClient, store: IndexStore, clock: Clock, config: SyncConfig | None = None,
                     force: bool = False) -> SyncReport:
    """Bring the index up to date with two queries (three when it holds sub-pages) plus one read per
    page that changed or came back."""
    _check_parts(client, store)
    config = config or SyncConfig()
    if store.watermark(config.source) is None or store.get_meta(f"{config.source}.data_source_id") is None:
        return full_index(client, store, clock, config)
    before = len(client.log)

    def plan(base: IndexSnapshot) -> tuple[_Changes, SyncReport]:
        return _plan_sync(client, store, clock, config, force, base, before)

    return _publish(store, config, plan)


def _read_and_tell(client: NotionClient, page: dict[str, Any], config: SyncConfig, walk: WalkReport) -> PageRead:
    read = read_page(client, page, walk)
    if config.on_page is not None:
        config.on_page(read)
    return read


def _plan_sync(client: NotionClient, store: IndexStore, clock: Clock, config: SyncConfig, force: bool,
               base: IndexSnapshot, before: int) -> tuple[_Changes, SyncReport]:
    """Read what changed since ``base`` and work out the writes (nothing is written here)."""
    watermark, source_id, indexed = base.watermark, base.data_source_id, base.pages
    edited = query_every_row(client.data_sources.query, source_id, filter={
        "timestamp": "last_edited_time", "last_edited_time": {"on_or_after": watermark}})
    changed = edited.rows
    documents: list[tuple[PageMetadata, PageRead | None]] = []
    walk = WalkReport()
    listing = publishable_pages(client, source_id, config.publishable_property)
    listed = listing.rows
    originals = SyncedOriginals.for_index(client, indexed, listed)
    for page in listed:
        if known_read_is_current(page, indexed.get(page["id"]), originals):
            documents.append((indexed[page["id"]].info, None))
        else:
            read = _read_and_tell(client, page, config, walk)
            documents.append((read.info, read))
    sub_pages = find_sub_pages(client, documents, indexed, on_page=config.on_page, report=walk, originals=originals)
    reads = [read for _, read in documents if read is not None] + sub_pages.reads
    fresh = _chunk(reads, config)

    reread = {r.id for r in reads}
    removed_pages = set(indexed) - {info.id for info, _ in documents} - sub_pages.ids
    # what the index holds of the pages concerned (and of these chunk ids, had they moved page)
    stored = store.page_chunks(reread | removed_pages, [c.id for c in fresh])
    new = [c for c in fresh if c.id not in stored]
    updated = [c for c in fresh if c.id in stored and stored[c.id][1] != c.fingerprint]
    unchanged = [c for c in fresh if c.id in stored and stored[c.id][1] == c.fingerprint]
    fresh_ids = {c.id for c in fresh}
    vanished = {cid for cid, (page_id, _) in stored.items() if page_id in reread and cid not in fresh_ids}
    removed_chunks = {cid for cid, (page_id, _) in stored.items() if page_id in removed_pages}

    deleting = len(vanished | removed_chunks)
    held = base.chunk_count
    check_deletion_share(
        deleting, held, config.max_delete_share, force=force, run="this sync", scope="in the index",
        explanation=f": {len(removed_pages)} of {len(indexed)} indexed pages are no longer publishable or visible. "
        "That usually means the integration lost access or the publishable property changed, not that the pages "
        "were retired. Nothing was written; run again with force=True if the deletion is intended.")

    report = SyncReport(kind="incremental", watermark_before=watermark,
                        watermark=max([watermark] + [p["last_edited_time"] for p in changed]),
                        ran_at=iso_minute(clock.datetime()), requests=len(client.log) - before,
                        pages_reread=[r.title for r in reads],
                        pages_removed=[indexed[p].info.title for p in sorted(removed_pages)],
                        boundary_pages=[page_title(p) for p in changed if p["last_edited_time"] == watermark],
                        chunks_new=len(new), chunks_updated=len(updated), chunks_unchanged=len(unchanged),
                        chunks_deleted=deleting, chunks_total=held - deleting + len(new),
                        tokens_embedded=sum(c.tokens for c in new + updated), blocks_too_deep=list(walk.too_deep),
                        query_windows=edited.windows + listing.windows)
    changes = _Changes(source_id=source_id, generation=base.generation, reread=reread, fresh=fresh,
                       unchanged=unchanged, embed=new + updated,
                       delete_chunks=vanished, remove_pages=removed_pages,
                       pages=[r.indexed() for r in reads])
    return changes, report


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
