"""Keep the index in step with Notion: a full index that resumes, then incremental syncs that miss nothing.

An incremental sync asks for the pages edited ``on_or_after`` the stored watermark (minute
rounding makes a strict ``after`` lose edits made in the watermark's own minute). A reconciling
sync also lists every publishable page; a quick sync does not (:mod:`lab.ingest.quick_sync` says
what it catches and what waits). Listing 100,000 rows takes 1,000 requests, five and a half
minutes at Notion's average of 3 requests per second, so a sync reconciles only when
``SyncConfig.reconcile_every`` has passed since the last reconciliation (measured on the run's
clock; ``timedelta(0)``, the default, reconciles every run), when asked (``force_reconcile``), or
when the index was never reconciled. A full index is a reconciliation. When the last one began is
kept in the index's ``meta`` (``<source>.reconciled_at``), written in the run's transaction, and
:attr:`SyncReport.reconciled` says whether a run reconciled. The deletion guardrail
(:mod:`lab.ingest.deletion_guardrail`) weighs the deletions of every run, quick or reconciling.

A reconciliation goes both ways: every publishable page the list holds is
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
dense model. A quick sync also looks up only the indexed pages it has reason to doubt, never
every page. Each run keeps, in ``meta`` under the content's random stamp, how many chunks the
index holds and whether it holds sub-pages, so that the next run reads them instead of counting
every row; a write by anything else (a files run, a model switch) moves the stamp, and the next
run counts again.

A run's memory does not grow with the workspace: each page it reads goes to the staging area of
the index file as soon as it is read, and the run keeps only the page's metadata; it is then
published a batch of pages at a time (:mod:`lab.ingest.publishing`): cut, compared with the index,
embedded into the staging area before the transaction, and written inside it. With a dense model, each
batch of pages is embedded in a background thread while the run reads the next batch
(:mod:`lab.ingest.embedding_ahead`): a paced first index takes about the longer of its reading and
its embedding, not their sum, and writes exactly what it would write otherwise.

Every network read (and every call to a dense model) happens before the first write, and every
write happens in one SQLite transaction: a failure anywhere (network error, exception, kill)
leaves the previous index and watermark exactly as they were, and running the sync again
completes the work. A run plans
against a snapshot of the index and writes only if no other run has published since (the
index's generation number has not moved); otherwise it plans again from the index as it now
is, so two syncs on one file, in one process or two, never lose an edit.

A full index keeps each page it reads in the index file's staging area as it reads it
(:mod:`lab.ingest.checkpoint`): after a crash or a Ctrl-C, running it again reads only the pages
that are missing or changed, and the published index still changes in one transaction.
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lab.chunking import MARKERS_ES, Markers, SectionTokenChunker
from lab.client import NotionClient, WalkReport, query_every_row
from lab.clock import Clock, iso_minute
from lab.ingest.checkpoint import ReadCheckpoint, StagedRead
from lab.ingest.deletion_guardrail import GuardrailError, check_deletion_share, check_max_share
from lab.ingest.embedding_ahead import EmbeddingAhead
from lab.ingest.page_reads import PageRead, page_essentials, read_page
from lab.ingest.reading import (KNOWLEDGE_BASE_TITLE, PUBLISHABLE_PROPERTY, find_data_source, page_title,
                                publishable_pages, read_knowledge_base)
from lab.embedders import DenseEmbedder
from lab.index import IndexedPage, IndexSnapshot, IndexStore, dense_models, require_dense_model
from lab.index.upkeep import ERASE_PENDING_SUFFIX, RECONCILED_SUFFIX
from lab.ingest.publishing import DEFAULT_BATCH_PAGES, Publication, Tally
from lab.ingest.quick_sync import edited_filter, plan_quick
from lab.ingest.replanning import MAX_ATTEMPTS, ConcurrentSyncError, check_unmoved, publish_with_replanning
from lab.ingest.sub_pages import find_sub_pages, known_read_is_current
from lab.ingest.synced_originals import SyncedOriginals
from lab.notion.pages import TYPE_PROPERTY, PageMetadata, PageProperties
from lab.vectors import WordAnalyzer

if TYPE_CHECKING:
    import pandas as pd  # cost_table's return type; pandas is imported when the table is made

__all__ = ["SyncConfig", "SyncReport", "RetiredPage", "GuardrailError", "ConcurrentSyncError", "full_index", "incremental_sync",
           "cost_table", "MAX_ATTEMPTS", "reconciled_key", "reconciliation_due"]

@dataclass
class SyncConfig:
    """Where to read, how to cut, what to store, and how much a reconciliation may delete."""

    source: str = "notion"
    title: str = KNOWLEDGE_BASE_TITLE
    publishable_property: str = PUBLISHABLE_PROPERTY
    audience_property: str | None = None  # the select naming who may see a page (None: pages carry no audience)
    version_property: str | None = None  # the select naming a page's documentation version (None: pages carry none)
    type_property: str = TYPE_PROPERTY  # the select naming a page's kind (a page without it has no type)
    #: the labels of a line's role in the chunks ("Pregunta: ", "Question: "...): the pages' language
    markers: Markers = MARKERS_ES
    chunker: SectionTokenChunker = field(default_factory=SectionTokenChunker)
    analyzer: Callable[[str], list[str]] = field(default_factory=WordAnalyzer)  # TF-IDF's, refitted on change
    dense: DenseEmbedder | None = None  # embeds only new and changed chunks
    search_recipe: str | None = None  # the recipe searches of this index use, by name (lab.retrieval.RECIPES)
    max_delete_share: float = 0.5
    data_source_id: str | None = None
    on_page: Callable[[PageRead], None] | None = None
    batch_pages: int = DEFAULT_BATCH_PAGES  # pages cut, embedded and written at a time: what a run holds
    #: embed each batch of pages read in a background thread while the next batch is read
    #: (:mod:`lab.ingest.embedding_ahead`); the index is the same either way, only the wall time differs
    embed_while_reading: bool = True
    on_embedded: Callable[[int], None] | None = None  # told how many chunks the dense model has just embedded
    on_listed: Callable[[int], None] | None = None  # told how many pages a full index listed, before reading them
    #: how often a sync lists every publishable page (simulated clock); between, a sync reads only what its
    #: watermark query returns. ``timedelta(0)``: every sync reconciles; ``None``: only when asked
    reconcile_every: datetime.timedelta | None = datetime.timedelta(0)

    @property
    def page_properties(self) -> PageProperties:
        """The selects every page's type, audience and version are read from."""
        return PageProperties(audience=self.audience_property, version=self.version_property,
                              type=self.type_property)

    def __post_init__(self) -> None:
        check_max_share(self.max_delete_share)
        if isinstance(self.batch_pages, bool) or not isinstance(self.batch_pages, int) or self.batch_pages < 1:
            raise ValueError(f"batch_pages must be a whole number of pages, at least 1, not {self.batch_pages!r}")
        if self.reconcile_every is not None and (not isinstance(self.reconcile_every, datetime.timedelta)
                                                 or self.reconcile_every < datetime.timedelta(0)):
            raise ValueError("reconcile_every must be a timedelta of zero or more (zero: every sync reconciles) or "
                             f"None (only when asked), not {self.reconcile_every!r}")


@dataclass(frozen=True)
class RetiredPage:
    """A page a run took out of the index: its id and its title as the index held it (never its text)."""

    id: str
    title: str


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
    #: the pages the run took out of the index (trashed, unpublished, unshared, deleted, or no longer listed), by id
    retired: list[RetiredPage] = field(default_factory=list)
    #: whether the run listed every publishable page (a full index, or a sync whose reconciliation was due or
    #: asked for); a quick sync read only what its watermark query returned and what those pages' edits reach,
    #: and a page trashed, deleted, unshared or shared again waits for the next reconciliation
    #: (:mod:`lab.ingest.quick_sync` says precisely what waits)
    reconciled: bool = False
    #: False when another process reading the index file kept the text of removed chunks from being erased
    #: from it (:meth:`~lab.index.IndexStore.erase_deleted`); the index records it, and the next run erases it
    erased: bool = True

    def retirement_alert(self) -> str | None:
        """One line that names how many pages the run retired, and which (first titles), or ``None`` if none:
        pages leave silently otherwise, and an integration that lost access looks like a retirement."""
        if not self.retired:
            return None
        titles = [" ".join(page.title.split()) for page in self.retired]
        named = ", ".join(repr(title) for title in titles[:_ALERT_TITLES])
        more = f" and {len(titles) - _ALERT_TITLES} more" if len(titles) > _ALERT_TITLES else ""
        pages = "page" if len(titles) == 1 else "pages"
        return (f"warning: {len(titles)} {pages} retired from the index (no longer publishable and visible to the "
                f"integration): {named}{more}")

    def erasure_alert(self) -> str | None:
        """One line when the text of what left the index is still in its file (a reader was in the way), else
        ``None``."""
        if self.erased:
            return None
        return ("warning: another process was reading the index, so the text of the chunks this run removed is "
                "still in the file; the next sync erases it (stop long-running readers first)")

    def row(self, source: str) -> dict[str, Any]:
        return {"source": source, "kind": self.kind, "watermark_before": self.watermark_before,
                "watermark": self.watermark, "ran_at": self.ran_at, "requests": self.requests,
                "pages_reread": len(self.pages_reread), "pages_removed": len(self.pages_removed),
                "chunks_new": self.chunks_new, "chunks_updated": self.chunks_updated,
                "chunks_unchanged": self.chunks_unchanged, "chunks_deleted": self.chunks_deleted,
                "chunks_total": self.chunks_total, "tokens_embedded": self.tokens_embedded}


def reconciled_key(source: str) -> str:
    """The meta key under which the index keeps when the last run that reconciled ``source`` began."""
    return f"{source}{RECONCILED_SUFFIX}"


#: Titles a retirement alert names before it only counts the rest.
_ALERT_TITLES = 5


def _retired(pages: dict[str, IndexedPage], page_ids: set[str]) -> list[RetiredPage]:
    """The pages of ``page_ids`` as the index holds them, in id order."""
    return [RetiredPage(page_id, pages[page_id].info.title) for page_id in sorted(page_ids)]


@dataclass(frozen=True, kw_only=True)
class _Changes:
    """What one run publishes, worked out after every read and written in one transaction."""

    source_id: str
    generation: int  # of the snapshot planned against: the write happens only if it has not moved
    staging: ReadCheckpoint  # where the run's reads wait
    pages: list[StagedRead]  # the pages read (or resumed): their stored chunks give way to theirs
    remove_pages: set[str]
    full: bool = False  # a full index: it replaces the whole index, and its checkpoint is spent
    reconciled_at: str | None = None  # when a run that listed every publishable page began (None: it listed none)
    content_stamp: str = ""  # of the snapshot: while it holds, the run's counts are exact without counting again
    holds_sub_pages: bool | None = None  # whether the index will hold a sub-page once written (None: look)
    embedding_failure: BaseException | None = None  # what the model raised while the run read: raised before writing


def _publication(store: IndexStore, config: SyncConfig, changes: _Changes) -> Publication:
    return Publication(store, changes.staging, changes.pages, chunker=config.chunker, analyzer=config.analyzer,
                       dense=config.dense, full=changes.full, batch_pages=config.batch_pages,
                       on_embedded=config.on_embedded, markers=config.markers)


def _embedding_ahead(store: IndexStore, config: SyncConfig, staging: ReadCheckpoint,
                     full: bool) -> contextlib.AbstractContextManager[EmbeddingAhead | None]:
    """Where a run's reads go to be embedded while it reads on (``None``: no dense model, or not asked)."""
    if config.dense is None or not config.embed_while_reading:
        return contextlib.nullcontext()

    def publication_of(pages: list[StagedRead]) -> Publication:
        return Publication(store, staging, pages, chunker=config.chunker, analyzer=config.analyzer, dense=config.dense,
                           full=full, batch_pages=config.batch_pages, markers=config.markers)

    return EmbeddingAhead(publication_of, config.batch_pages, config.on_embedded)


def _write(store: IndexStore, config: SyncConfig, changes: _Changes, report: SyncReport) -> None:
    """Publish one run's changes in a single transaction (all of them, or none), a batch of pages at a
    time, if no other run published since its snapshot; a dense model is called before it begins."""
    publication = _publication(store, config, changes)
    if config.dense is not None:
        if changes.full:  # a sync surveyed when it planned
            publication.survey()
        if changes.embedding_failure is not None:  # where the embedding pass would have met it
            raise changes.embedding_failure
        publication.embed()  # a network call: it happens before any write
    with store.transaction():
        check_unmoved(store, changes.generation)
        held = store.count_chunks() if changes.full else 0  # a sync knew what it holds when it planned
        # nothing but this run wrote since the snapshot (a files run or a model switch moves the stamp too)
        unmoved = store.content_stamp() == changes.content_stamp
        store.set_meta(f"{config.source}.data_source_id", changes.source_id)
        if config.search_recipe is not None:
            store.set_search_recipe(config.search_recipe)
        removed = store.delete_pages(changes.remove_pages) + len(changes.remove_pages)
        tally = publication.write()
        if changes.full:  # what the index held and this run did not write again goes
            if config.dense is not None:  # every chunk was embedded again: another model's rows would go stale
                for model in set(dense_models(store)) - {config.dense.name}:
                    store.drop_model(model)
            gone = store.page_ids() - {page.page_id for page in changes.pages}
            removed += store.delete_pages(gone) + len(gone) + store.delete_chunks(store.chunks_without_page())
            store.forget_files_without_chunks()  # a folder's files went with their chunks: the next run adds them
            _count_full(report, tally, held)
        if changes.full or not unmoved:
            report.chunks_total = store.count_chunks()
        sub_pages = changes.holds_sub_pages
        store.keep_counts(config.source, report.chunks_total,
                          sub_pages if sub_pages is not None and unmoved else store.holds_sub_pages())
        store.set_watermark(config.source, report.watermark)
        if changes.reconciled_at is not None:
            store.set_meta(reconciled_key(config.source), changes.reconciled_at)
        store.add_sync_run(report.row(config.source))
        if changes.full:
            store.clear_staged()
        store.bump_generation()
    if changes.full:
        store.release_free_space()
    # the text of what left the index must not stay readable in the file; one a reader kept there is erased
    # by the next run that can
    pending = f"{config.source}{ERASE_PENDING_SUFFIX}"
    if removed or store.get_meta(pending) is not None:
        report.erased = store.erase_deleted()
        if not report.erased:
            store.set_meta(pending, report.ran_at)
        elif store.get_meta(pending) is not None:
            store.delete_meta(pending)
            store.erase_deleted()  # the key's own deletion leaves nothing private in the log, but keep it empty


def _count_full(report: SyncReport, tally: Tally, held: int) -> None:
    """A full index's chunk counts, known once it has written them: every chunk is embedded again."""
    report.chunks_new, report.chunks_updated = tally.new, tally.updated + tally.unchanged
    report.chunks_deleted, report.chunks_total = held - report.chunks_updated, tally.fresh
    report.tokens_embedded = tally.tokens_fresh


def _publish(store: IndexStore, config: SyncConfig,
             plan: Callable[[IndexSnapshot], tuple[_Changes, SyncReport]],
             snapshot: Callable[[], IndexSnapshot] | None = None) -> SyncReport:
    """Plan against a snapshot (the whole index's, unless ``snapshot`` takes another) and write; plan again
    if another run published meanwhile."""
    def attempt(number: int) -> SyncReport:
        changes, report = plan(snapshot() if snapshot is not None else store.snapshot(config.source))
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
    began = clock.datetime().isoformat()

    def plan(base: IndexSnapshot) -> tuple[_Changes, SyncReport]:
        with _embedding_ahead(store, config, checkpoint, full=True) as ahead:
            knowledge_base = read_knowledge_base(client, config.title, config.publishable_property, source_id,
                                                 _keeper(config, checkpoint, ahead), earlier=checkpoint.reads(),
                                                 shape=page_essentials, properties=config.page_properties,
                                                 on_listed=config.on_listed)
        reads, resumed = knowledge_base.pages, set(knowledge_base.resumed)
        previous = base.watermark
        watermark = max([previous or ""] + [r.edited for r in reads if r.parent_id is None]) or (previous or "")
        retired = _retired(base.pages, set(base.pages) - {r.id for r in reads})  # what the write will remove
        report = SyncReport(kind="full", watermark_before=previous, watermark=watermark,
                            ran_at=iso_minute(clock.datetime()), requests=len(client.log) - before,
                            pages_reread=[r.title for r in reads if r.id not in resumed],
                            pages_removed=[page.title for page in retired], retired=retired,
                            boundary_pages=[], chunks_new=0, chunks_updated=0, chunks_unchanged=0, chunks_deleted=0,
                            chunks_total=0, tokens_embedded=0,  # counted as the chunks are written
                            pages_resumed=len(resumed), blocks_too_deep=list(knowledge_base.walk.too_deep),
                            query_windows=knowledge_base.query_windows, reconciled=True)
        changes = _Changes(source_id=source_id, generation=base.generation, staging=checkpoint,
                           pages=[StagedRead.of(r) for r in reads], remove_pages=set(), full=True, reconciled_at=began,
                           content_stamp=base.content_stamp,
                           holds_sub_pages=any(r.parent_id is not None for r in reads),
                           embedding_failure=_failure(ahead))
        return changes, report

    return _publish(store, config, plan)


def incremental_sync(client: NotionClient, store: IndexStore, clock: Clock, config: SyncConfig | None = None,
                     force: bool = False, force_reconcile: bool = False) -> SyncReport:
    """Bring the index up to date: a reconciliation (the watermark query, the list of every publishable
    row, one read per page that changed or came back) when ``config.reconcile_every`` has passed since
    the last one, when ``force_reconcile``, or when the index was never reconciled; otherwise a quick
    sync (the watermark query and one read per page it returned that changed,
    :mod:`lab.ingest.quick_sync`). ``force`` lets a run delete past the guardrail."""
    _check_parts(client, store)
    config = config or SyncConfig()
    if store.watermark(config.source) is None or store.get_meta(f"{config.source}.data_source_id") is None:
        return full_index(client, store, clock, config)
    # before any read: a sync embeds only changed chunks, so another model would leave the index mixed
    require_dense_model(store, config.dense.name if config.dense is not None else None)
    before = len(client.log)
    staging = ReadCheckpoint.scratch(store.get_meta(f"{config.source}.data_source_id"))
    key = reconciled_key(config.source)

    def snapshot() -> IndexSnapshot:
        with store.read_transaction():
            whole = force_reconcile or reconciliation_due(config.reconcile_every, store.get_meta(key), clock)
            return store.snapshot(config.source, whole=whole, reconciled_key=key)

    def plan(base: IndexSnapshot) -> tuple[_Changes, SyncReport]:
        if base.whole:
            return _plan_sync(client, store, clock, config, force, base, before, staging)
        return _plan_quick(client, store, clock, config, force, base, before, staging)

    try:
        return _publish(store, config, plan, snapshot)
    finally:
        staging.close()


def reconciliation_due(every: datetime.timedelta | None, reconciled_at: str | None, clock: Clock) -> bool:
    """Whether a sync must list every publishable row: the index was never reconciled (``reconciled_at``
    is ``None``), or ``every`` has passed since (``None``: never on its own)."""
    if reconciled_at is None:
        return True
    if every is None:
        return False
    return clock.datetime() - datetime.datetime.fromisoformat(reconciled_at) >= every


def _keeper(config: SyncConfig, staging: ReadCheckpoint, ahead: EmbeddingAhead | None) -> Callable[[PageRead], None]:
    """What a run does with each page it reads: keep it in the staging area, tell ``on_page``, count it in the
    batch embedded ahead, drop its blocks (they wait in the staging area until they are published)."""
    def keep(read: PageRead) -> None:
        staging.keep(read)
        if config.on_page is not None:
            config.on_page(read)
        if ahead is not None:
            ahead.add(StagedRead.of(read))
        read.drop_content()

    return keep


def _failure(ahead: EmbeddingAhead | None) -> BaseException | None:
    return ahead.failure if ahead is not None else None


def _plan_sync(client: NotionClient, store: IndexStore, clock: Clock, config: SyncConfig, force: bool,
               base: IndexSnapshot, before: int, staging: ReadCheckpoint) -> tuple[_Changes, SyncReport]:
    """Read what changed since ``base`` into the staging area and work out the writes (nothing is
    written to the index here)."""
    watermark, source_id, indexed = base.watermark, base.data_source_id, base.pages
    began = clock.datetime().isoformat()
    with _embedding_ahead(store, config, staging, full=False) as ahead:
        keep = _keeper(config, staging, ahead)
        edited = query_every_row(client.data_sources.query, source_id, filter=edited_filter(watermark),
                                 shape=page_essentials)
        changed = [(page["last_edited_time"], page_title(page)) for page in edited.rows]
        edited_windows = edited.windows
        del edited  # a bulk edit returns thousands of page objects: keep only what the report needs
        documents: list[tuple[PageMetadata, PageRead | None]] = []
        walk = WalkReport()
        listing = publishable_pages(client, source_id, config.publishable_property, page_essentials)
        listed, listing_windows = listing.rows, listing.windows
        originals = SyncedOriginals.for_index(client, indexed, listed)
        for page in listed:
            if known_read_is_current(page, indexed.get(page["id"]), originals, properties=config.page_properties):
                documents.append((indexed[page["id"]].info, None))
            else:
                read = read_page(client, page, walk, properties=config.page_properties)
                keep(read)
                documents.append((read.info, read))
        sub_pages = find_sub_pages(client, documents, indexed, on_page=keep, report=walk, originals=originals)
    reads = [read for _, read in documents if read is not None] + sub_pages.reads

    removed_pages = set(indexed) - {info.id for info, _ in documents} - sub_pages.ids
    pages = [StagedRead.of(r) for r in reads]
    changes = _Changes(source_id=source_id, generation=base.generation, staging=staging, pages=pages,
                       remove_pages=removed_pages, reconciled_at=began, content_stamp=base.content_stamp,
                       holds_sub_pages=bool(sub_pages.ids), embedding_failure=_failure(ahead))
    tally = _publication(store, config, changes).survey()  # batch by batch, from the staging area

    deleting = tally.vanished + store.count_page_chunks(removed_pages)
    held = base.chunk_count
    check_deletion_share(
        deleting, held, config.max_delete_share, force=force, run="this sync", scope="in the index",
        explanation=f": {len(removed_pages)} of {len(indexed)} indexed pages are no longer publishable or visible. "
        "That usually means the integration lost access or the publishable property changed, not that the pages "
        "were retired. Nothing was written; run again with force=True if the deletion is intended.")

    report = SyncReport(kind="incremental", watermark_before=watermark,
                        watermark=max([watermark] + [edited_at for edited_at, _ in changed]),
                        ran_at=iso_minute(clock.datetime()), requests=len(client.log) - before,
                        pages_reread=[r.title for r in reads],
                        pages_removed=[indexed[p].info.title for p in sorted(removed_pages)],
                        retired=_retired(indexed, removed_pages),
                        boundary_pages=[title for edited_at, title in changed if edited_at == watermark],
                        chunks_new=tally.new, chunks_updated=tally.updated, chunks_unchanged=tally.unchanged,
                        chunks_deleted=deleting, chunks_total=held - deleting + tally.new,
                        tokens_embedded=tally.tokens, blocks_too_deep=list(walk.too_deep),
                        query_windows=edited_windows + listing_windows, reconciled=True)
    return changes, report


def _plan_quick(client: NotionClient, store: IndexStore, clock: Clock, config: SyncConfig, force: bool,
                base: IndexSnapshot, before: int, staging: ReadCheckpoint) -> tuple[_Changes, SyncReport]:
    """Read what the watermark query returned (and what its pages' edits reach) into the staging area and
    work out the writes, looking up only the pages concerned in the index (nothing is written here)."""
    watermark = base.watermark
    with _embedding_ahead(store, config, staging, full=False) as ahead:
        found = plan_quick(client, store, base.data_source_id, watermark, _keeper(config, staging, ahead),
                           publishable_property=config.publishable_property,
                           properties=config.page_properties, holds_sub_pages=base.holds_sub_pages)
    removed = set(found.removed)
    # True may outlast the last sub-page a quick sync removes: it costs a search request until a reconciliation
    sub_pages = base.holds_sub_pages or any(read.parent_id is not None for read in found.reads)
    changes = _Changes(source_id=base.data_source_id, generation=base.generation, staging=staging,
                       pages=[StagedRead.of(r) for r in found.reads], remove_pages=removed,
                       content_stamp=base.content_stamp, holds_sub_pages=sub_pages, embedding_failure=_failure(ahead))
    tally = _publication(store, config, changes).survey()
    deleting = tally.vanished + (store.count_page_chunks(removed) if removed else 0)
    held = base.chunk_count
    check_deletion_share(
        deleting, held, config.max_delete_share, force=force, run="this sync", scope="in the index",
        explanation=f": {len(removed)} indexed pages were unpublished or lost the sub-pages under them since the "
        "last sync. Nothing was written; run again with force=True if the deletion is intended.")
    report = SyncReport(kind="incremental", watermark_before=watermark,
                        watermark=max([watermark] + [edited_at for edited_at, _ in found.changed]),
                        ran_at=iso_minute(clock.datetime()), requests=len(client.log) - before,
                        pages_reread=[r.title for r in found.reads],
                        pages_removed=[found.removed[p].info.title for p in sorted(removed)],
                        retired=_retired(found.removed, removed),
                        boundary_pages=[title for edited_at, title in found.changed if edited_at == watermark],
                        chunks_new=tally.new, chunks_updated=tally.updated, chunks_unchanged=tally.unchanged,
                        chunks_deleted=deleting, chunks_total=held - deleting + tally.new,
                        tokens_embedded=tally.tokens, blocks_too_deep=list(found.walk.too_deep),
                        query_windows=found.query_windows, reconciled=False)
    return changes, report


def cost_table(runs: dict[str, tuple[int, int]], *, usd_per_million: float = 0.06, rate: float = 3.0,
               days: int = 30, days_with_changes: int = 4, changed_run: str = "today's sync",
               quiet_run: str = "a sync with no changes", runs_per_day: int = 1) -> "pd.DataFrame":
    """Table 3: requests, tokens embedded, minimum seconds at ``rate`` and embedding cost per run.

    ``runs`` maps a run's name to (requests to Notion, tokens sent for embedding). A typical
    month is ``days * runs_per_day`` syncs: ``days_with_changes`` like ``changed_run`` (the same
    edits, whatever the schedule) and the rest like ``quiet_run``.
    """
    import pandas as pd

    for name, value in (("days", days), ("runs_per_day", runs_per_day)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive whole number, got {value!r}")
    if isinstance(days_with_changes, bool) or not isinstance(days_with_changes, int) \
            or not 0 <= days_with_changes <= days:
        raise ValueError(f"days_with_changes must be a whole number from 0 to days ({days}), got {days_with_changes!r}")
    rows = [{"run": name, "requests": req, "tokens_embedded": tok} for name, (req, tok) in runs.items()]
    changed, quiet = runs[changed_run], runs[quiet_run]
    syncs = days * runs_per_day
    quiet_syncs = syncs - days_with_changes
    schedule = (f"{days} daily syncs" if runs_per_day == 1
                else f"{syncs:,} syncs, {runs_per_day} a day")
    rows.append({"run": f"a typical month ({schedule}, {days_with_changes} with changes)",
                 "requests": days_with_changes * changed[0] + quiet_syncs * quiet[0],
                 "tokens_embedded": days_with_changes * changed[1] + quiet_syncs * quiet[1]})
    table = pd.DataFrame(rows)
    table["minimum_seconds"] = (table["requests"] / rate).round(1)
    table["usd_embeddings"] = (table["tokens_embedded"] * usd_per_million / 1e6).round(5)
    return table
