"""Publishing a run a batch of pages at a time, so that its memory does not grow with the workspace.

Every page a run publishes waits in the staging area (:mod:`lab.ingest.checkpoint`). Up to three
passes go over those reads, ``batch_pages`` pages at a time; each cuts its batch into chunks and
compares them with what the index holds of those pages (new, changed, unchanged, vanished):

1. survey, no write: what the run will change (a sync weighs its deletions against the guardrail
   and reports them before writing), and the input limit of the dense model, checked for every
   chunk before the first call.
2. embed, a dense model only, before the write transaction (a paid model is a network call): the
   texts to embed that the staging area lacks, each batch committed at once under its model and
   text (:func:`~lab.embedders.text_key`), so a run started again embeds nothing twice. Most
   batches are embedded already, while the run read the next (:mod:`lab.ingest.embedding_ahead`):
   this pass sends only what the staging area still lacks.
3. write, inside the run's one transaction: delete the batch's vanished chunks, rewrite the
   unchanged ones, write the term counts of the new and changed (document frequencies move with
   them, :meth:`~lab.index.IndexStore.put_term_counts`) and their vectors from the staging area,
   and the pages. A full index counts every chunk again, from an empty vocabulary.

A run holds one batch of pages, chunks and vectors at a time, whatever the size of the workspace;
what it keeps for every page is its metadata (a few hundred bytes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from lab.chunking import MARKERS_ES, Chunk, Chunker, InputLimitReport, InputTooLongError, Markers
from lab.chunking.corpus import chunk_pages
from lab.chunking.model_fit import FittedChunker
from lab.embedders import DenseEmbedder, check_embedder_limit, model_token_count, text_key
from lab.index import TFIDF_MODEL, IndexStore
from lab.ingest.checkpoint import ReadCheckpoint, StagedRead
from lab.ingest.page_reads import PageRead
from lab.vectors.counting import learn_counts

__all__ = ["DEFAULT_BATCH_PAGES", "Tally", "BatchChanges", "compare_batch", "checked_vectors", "Publication",
           "PageTextTooLongError"]


class PageTextTooLongError(InputTooLongError):
    """A page gives a chunk longer than the dense model reads even cut as small as it can be, named by the
    page's title and section: every chunk the model reads begins with its "Title > Section" line, and a
    line the model reads as more tokens than it takes (a title or heading of a pasted code or blob) leaves
    no room. Any other chunk too long is cut again before this check (:class:`~lab.chunking.FittedChunker`).
    The run writes nothing; it fails the same way until the page changes, so the message says what to change."""

    def __init__(self, report: InputLimitReport, chunks: Sequence[Chunk]) -> None:
        by_id = {chunk.id: chunk for chunk in chunks}
        chunk_id, tokens = report.over[0]
        first = by_id.get(chunk_id)
        where = (f"the page {first.title!r}" + (f", section {first.section!r}," if first.section else "")
                 if first is not None else f"the chunk {chunk_id}")
        others = f" (and {report.count - 1} more chunk(s))" if report.count > 1 else ""
        super().__init__(report, f"{where} gives a chunk the model reads as {tokens:,} tokens{others}, more than "
                                 f"the {report.max_tokens:,} it reads even cut as small as it can be: the page's title "
                                 "and section heading, which begin every chunk, leave no room. Shorten them in "
                                 f"Notion, or leave the page unpublished, then run again (chunk {chunk_id})")


#: Pages a run cuts, counts, embeds and writes at a time: a few thousand chunks, a few megabytes.
DEFAULT_BATCH_PAGES = 100


@dataclass
class Tally:
    """A run's chunks against the index, summed over its batches."""

    fresh: int = 0  # chunks of the pages read
    new: int = 0  # of those, ids the index lacks
    updated: int = 0  # ids it holds with another text
    unchanged: int = 0  # ids it holds with the same text
    vanished: int = 0  # chunks the index holds of those pages that they no longer have
    tokens: int = 0  # tokens of the new and changed chunks
    tokens_fresh: int = 0  # tokens of every chunk read

    def add(self, batch: BatchChanges) -> None:
        """Count one batch in."""
        self.fresh += len(batch.fresh)
        self.new += len(batch.new)
        self.updated += len(batch.updated)
        self.unchanged += len(batch.unchanged)
        self.vanished += len(batch.vanished)
        self.tokens += sum(c.tokens for c in batch.new + batch.updated)
        self.tokens_fresh += sum(c.tokens for c in batch.fresh)


@dataclass(frozen=True)
class BatchChanges:
    """A batch of reads cut into chunks, each compared with what the index holds of its page."""

    reads: list[PageRead]
    fresh: list[Chunk]
    new: list[Chunk] = field(default_factory=list)
    updated: list[Chunk] = field(default_factory=list)
    unchanged: list[Chunk] = field(default_factory=list)
    vanished: set[str] = field(default_factory=set)


def compare_batch(store: IndexStore, reads: Iterable[PageRead], chunker: Chunker,
                  markers: Markers = MARKERS_ES) -> BatchChanges:
    """Cut ``reads`` into chunks (a line's role labelled with ``markers``) and sort them by what the index
    holds: new ids, changed text, same text, and the stored chunks of these pages that no longer exist
    (looked up through the page index).

    Each read's blocks are dropped as soon as it is cut (:meth:`PageRead.drop_content`): a batch holds
    its chunks and one page's blocks at a time."""
    kept: list[PageRead] = []
    fresh: list[Chunk] = []
    for read in reads:
        fresh += chunk_pages([read], chunker, markers).chunks
        read.drop_content()
        kept.append(read)
    reads = kept
    stored = store.page_chunks([read.id for read in reads], [c.id for c in fresh])
    pages, ids = {read.id for read in reads}, {c.id for c in fresh}
    return BatchChanges(reads=reads, fresh=fresh,
                        new=[c for c in fresh if c.id not in stored],
                        updated=[c for c in fresh if c.id in stored and stored[c.id][1] != c.fingerprint],
                        unchanged=[c for c in fresh if c.id in stored and stored[c.id][1] == c.fingerprint],
                        vanished={cid for cid, (page_id, _) in stored.items() if page_id in pages and cid not in ids})


def _passage_key(model: str, text: str) -> str:
    return text_key(model, "passage", text)


def checked_vectors(model: str, vectors: object, chunks: Sequence[Chunk]) -> np.ndarray:
    """What a dense model answered for ``chunks``, if it is one finite float32 row each."""
    matrix = np.asarray(getattr(vectors, "vectors", vectors), dtype=np.float32)
    if matrix.ndim != 2 or matrix.shape[0] != len(chunks):
        raise ValueError(f"{model} returned vectors of shape {matrix.shape} for {len(chunks)} texts; expected one "
                         "row per text. Nothing was written")
    bad = np.flatnonzero(~np.isfinite(matrix).all(axis=1))
    if bad.size:  # a stored NaN makes every cosine with it NaN: a chunk no search ever finds
        raise ValueError(f"the vector of chunk {chunks[int(bad[0])].id!r} ({bad.size} in all) holds NaN or "
                         f"infinity; check the {model!r} model and its input. Nothing was written")
    return matrix


class Publication:
    """One run's pages, waiting in the staging area, and the passes that publish them a batch at a time.

    ``full``: the run replaces the whole index (a full index: every chunk's term counts and dense
    vectors are written again); otherwise only the new and changed chunks' are (a sync). ``on_embedded(n)``
    is told each time the embedding pass commits ``n`` vectors to the staging area.
    """

    def __init__(self, store: IndexStore, staging: ReadCheckpoint, pages: Sequence[StagedRead], *, chunker: Chunker,
                 analyzer: Callable[[str], list[str]], dense: DenseEmbedder | None, full: bool,
                 batch_pages: int = DEFAULT_BATCH_PAGES, on_embedded: Callable[[int], None] | None = None,
                 markers: Markers = MARKERS_ES) -> None:
        if batch_pages < 1:
            raise ValueError(f"batch_pages must be at least 1, not {batch_pages}")
        self.store, self.staging, self.pages = store, staging, list(pages)
        limit = getattr(dense, "max_input_tokens", None)
        if limit is not None:  # a chunk the model's tokenizer finds too long is cut again, not refused
            chunker = FittedChunker(chunker, model_token_count(dense), limit)
        self.chunker, self.analyzer, self.dense, self.full = chunker, analyzer, dense, full
        self.batch_pages, self.on_embedded, self.markers = batch_pages, on_embedded, markers

    def batches(self) -> Iterator[BatchChanges]:
        """Each batch of pages, cut and compared; the previous one is let go before the next is read."""
        for start in range(0, len(self.pages), self.batch_pages):
            batch = compare_batch(self.store, self.staging.each_read(self.pages[start:start + self.batch_pages]),
                                  self.chunker, self.markers)
            yield batch
            del batch

    def to_embed(self, batch: BatchChanges) -> list[Chunk]:
        """The chunks of ``batch`` the dense model gets: every chunk for a full index, the new and changed otherwise."""
        return batch.fresh if self.full else batch.new + batch.updated

    def survey(self) -> Tally:
        """What publishing would change, batch by batch, writing nothing; every chunk the dense model
        would get is checked against its input limit here, before any call."""
        tally = Tally()
        for batch in self.batches():
            if self.dense is not None:
                chunks = self.to_embed(batch)
                try:
                    check_embedder_limit(self.dense, chunks)
                except InputTooLongError as error:
                    raise PageTextTooLongError(error.report, chunks) from None
            tally.add(batch)
            del batch
        return tally

    def embed(self) -> int:
        """Embed, batch by batch, the texts the dense model has not embedded for this run yet and keep their
        vectors in the staging area (committed per batch); how many texts it sent. Call before writing."""
        if self.dense is None:
            return 0
        sent = 0
        for batch in self.batches():
            missing = self.missing(batch)
            if missing:
                answer = self.dense.embed_documents([c.text for _, c in missing])
                self.stage(missing, checked_vectors(self.dense.name, answer, [c for _, c in missing]))
                sent += len(missing)
                if self.on_embedded is not None:
                    self.on_embedded(len(missing))
            del batch, missing
        return sent

    def missing(self, batch: BatchChanges) -> list[tuple[str, Chunk]]:
        """The chunks of ``batch`` to embed whose text the staging area lacks a vector for, under their keys
        (a text repeated in the batch once)."""
        chunks = self.to_embed(batch)
        keys = [_passage_key(self.dense.name, c.text) for c in chunks]
        kept = self.staging.store.staged_vectors(keys)
        return list({key: c for key, c in zip(keys, chunks) if key not in kept}.items())

    def stage(self, missing: list[tuple[str, Chunk]], vectors: np.ndarray) -> None:
        """Commit the vectors of ``missing`` (checked: :func:`checked_vectors`) to the staging area."""
        self.staging.store.stage_vectors([key for key, _ in missing], vectors)

    def write(self) -> Tally:
        """Write every batch into the index (call inside the run's transaction, after :meth:`embed`)."""
        store, analyzer = self.store, repr(self.analyzer)
        if self.full or store.counts_analyzer(TFIDF_MODEL) not in (None, analyzer):
            store.clear_term_counts(TFIDF_MODEL, analyzer)
            if not self.full:  # counts of another analyzer: every chunk the index keeps is counted again
                for rows in store.chunk_batches():
                    store.put_term_counts(rows, *learn_counts([row["text"] for row in rows], self.analyzer),
                                          TFIDF_MODEL, analyzer)
        tally = Tally()
        for batch in self.batches():
            store.delete_chunks(batch.vanished)
            if not self.full:
                store.update_chunks(batch.unchanged)  # same text, but the page's last edit, title or order moved
            written = self.to_embed(batch)
            if written:
                counts, terms = learn_counts([c.text for c in written], self.analyzer)
                store.put_term_counts(written, counts, terms, TFIDF_MODEL, analyzer)
                if self.dense is not None:
                    self._write_vectors(written)
            store.put_pages([read.indexed() for read in batch.reads])
            tally.add(batch)
            del batch, written
        if store.holds_model(TFIDF_MODEL) and not store.holds_rows(TFIDF_MODEL):
            store.drop_model(TFIDF_MODEL)  # the model goes with its last chunk
        return tally

    def _write_vectors(self, chunks: list[Chunk]) -> None:
        keys = [_passage_key(self.dense.name, c.text) for c in chunks]
        kept = self.staging.store.staged_vectors(keys)
        missing = [c.id for c, key in zip(chunks, keys) if key not in kept]
        if missing:
            raise RuntimeError(f"the {self.dense.name} vectors of {len(missing)} chunks (first: {missing[0]}) are not "
                               "in the staging area: embed() before write()")
        self.store.put_chunks(chunks, np.stack([kept[key] for key in keys]), self.dense.name)
