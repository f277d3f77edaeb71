"""Embedding a batch of pages while the next batch is read: a paced first index costs the longer of the two.

Against Notion a run reads at about 3 requests per second, and a local model embeds a batch of pages
in seconds; one after the other, a first index costs the read time plus the embed time. While a run
reads, each page goes to the staging area as soon as it is read (:mod:`lab.ingest.checkpoint`). Every
``batch_pages`` pages, the reading thread cuts the batch, and hands the texts the staging area lacks to
one background thread, which calls the dense model while the next batch is read. When that next batch
is complete, the reading thread waits for the one in flight, if it is still running, and commits its
vectors to the staging area. One batch is embedded while one is read, so memory stays bounded.

Nothing else moves. Every request and every SQLite access stays in the reading thread, in the order it
has without overlap (a model touches neither the client nor the clock); each text is embedded on its
own, so a vector does not depend on the batch that carried it. The publication's embedding pass
(:meth:`~lab.ingest.publishing.Publication.embed`) still runs after the reads and sends only what the
staging area lacks (the last, partial batch; pages resumed from an interrupted run; a text whose
breadcrumb changed meanwhile), and the vectors reach the index inside the run's one transaction as
before. When the model fails (an error, a paid API's network error, a NaN), the run stops embedding
ahead, goes on reading, and raises that exception where the embedding pass would have raised it: after
every read and before any write, so nothing is half-written, and a first index resumes without reading
or embedding again. The thread never outlives the run: leaving the ``with`` block, however, joins it.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from types import TracebackType

import numpy as np

from lab.chunking import Chunk, InputTooLongError
from lab.embedders import check_embedder_limit
from lab.ingest.checkpoint import StagedRead
from lab.ingest.publishing import Publication, checked_vectors

__all__ = ["EmbeddingAhead"]


class EmbeddingAhead:
    """The batches of a run's reads, each embedded in a background thread while the next is read.

    ``publication_of(pages)``: the :class:`~lab.ingest.publishing.Publication` of a batch of staged
    reads, which says what to embed and where the vectors go; ``on_embedded(n)``: told, in the reading
    thread, each time ``n`` vectors are committed. Use it as a context manager, and call :meth:`add`
    after each page is kept in the staging area.
    """

    def __init__(self, publication_of: Callable[[list[StagedRead]], Publication], batch_pages: int,
                 on_embedded: Callable[[int], None] | None = None) -> None:
        self.publication_of, self.batch_pages, self.on_embedded = publication_of, batch_pages, on_embedded
        self.failure: BaseException | None = None  # what the model raised: the run raises it before writing
        self._pending: list[StagedRead] = []
        self._executor: ThreadPoolExecutor | None = None
        self._in_flight: tuple[Publication, list[tuple[str, Chunk]], Future[np.ndarray]] | None = None
        self._stopped = False  # the model failed, or a chunk is too long for it: the embedding pass decides

    def __enter__(self) -> EmbeddingAhead:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        try:
            if kind is None:
                self._collect()  # the last batch's vectors are kept; a failed run's are not waited for
        finally:
            if self._executor is not None:
                self._executor.shutdown(wait=True, cancel_futures=True)
                self._executor = None

    def add(self, page: StagedRead) -> None:
        """Count in one page, already kept in the staging area; a complete batch goes to the model."""
        if self._stopped:
            return
        self._pending.append(page)
        if len(self._pending) == self.batch_pages:
            pages, self._pending = self._pending, []
            self._submit(pages)

    def _submit(self, pages: list[StagedRead]) -> None:
        publication = self.publication_of(pages)
        [batch] = publication.batches()  # cut while the batch before is still embedded
        try:
            check_embedder_limit(publication.dense, publication.to_embed(batch))
        except InputTooLongError:  # the survey raises it before any write; nothing more is sent until then
            self._stopped = True
        self._collect()
        if self._stopped:
            return
        missing = publication.missing(batch)
        del batch
        if not missing:
            return
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="embedding-ahead")
        dense = publication.dense
        texts, chunks = [chunk.text for _, chunk in missing], [chunk for _, chunk in missing]
        future = self._executor.submit(lambda: checked_vectors(dense.name, dense.embed_documents(texts), chunks))
        self._in_flight = (publication, missing, future)

    def _collect(self) -> None:
        """Wait for the batch in flight, if any, and commit its vectors; keep what the model raised."""
        if self._in_flight is None:
            return
        publication, missing, future = self._in_flight
        self._in_flight = None
        wait([future])  # a Ctrl-C here interrupts the reading thread, as it would the model's call
        failure = future.exception()
        if failure is not None:  # raised again by the run, after its reads and before any write
            self.failure, self._stopped = failure, True
            return
        publication.stage(missing, future.result())
        if self.on_embedded is not None:
            self.on_embedded(len(missing))
