"""Which model answers searches, and switching to another one without a gap or a mix.

An index serves one dense model at a time (``IndexStore.serving_model``). Switching models means
re-embedding every chunk, which takes a while and may fail half way, so it happens in two
steps, as a blue-green deployment does:

- :meth:`ModelSwitch.prepare` embeds every chunk with the new model (all calls before any
  write), then writes the new model's rows in one transaction, beside the old ones. The old
  model keeps serving; searching the new one is refused, and so is an ingestion run.
- :meth:`ModelSwitch.commit` makes the new model serve and drops the old model's rows, in one
  transaction. :meth:`ModelSwitch.abort` drops the new rows instead.

A failure anywhere leaves the index exactly as it was before the step. Which model serves, and
the check that a query was made by it, are the index's (:mod:`lab.index.serving`).
"""

from __future__ import annotations

from dataclasses import dataclass

from lab.embedders import DenseEmbedder, check_embedder_limit
from lab.index import IndexStore, ModelMismatchError
from lab.index.serving import NoSwitchError, SwitchPendingError
from lab.embedders.batches import DEFAULT_BATCH_SIZE, embed_in_batches

__all__ = ["SwitchReport", "ModelSwitch"]


@dataclass(frozen=True, kw_only=True)
class SwitchReport:
    """A prepared switch: from which model to which, how many chunks, what embedding them took."""

    old: str
    new: str
    chunks: int
    texts_embedded: int
    batches: int
    tokens_embedded: int


class ModelSwitch:
    """Re-embed an index into another model, then switch to it at once (see the module docstring)."""

    def __init__(self, store: IndexStore, batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        self.store = store
        self.batch_size = batch_size

    def prepare(self, embedder: DenseEmbedder) -> SwitchReport:
        """Write ``embedder``'s rows for every chunk of the serving model, which keeps serving."""
        if not (hasattr(embedder, "embed_documents") and isinstance(getattr(embedder, "name", None), str)):
            raise TypeError(f"prepare takes a dense embedder (with a name and embed_documents, e.g. a "
                            f"VoyageEmbedder), not {type(embedder).__name__}")
        store, new = self.store, embedder.name
        old = store.serving_model()
        if old is None:
            raise NoSwitchError("the index serves no model yet: ingest with the new model instead of switching")
        if store.pending_switch():
            raise SwitchPendingError(f"a switch to {store.pending_switch()[0]!r} is already prepared: commit or "
                                     "abort it before preparing another")
        if new == old or new in store.models():
            raise ModelMismatchError(f"the index already holds vectors of {new!r}: a switch fills a model the "
                                     "index does not have yet")
        rows = store.chunks(old)
        check_embedder_limit(embedder, rows)  # the new model may read less than the old one did
        embedded = embed_in_batches(embedder, [row["text"] for row in rows], self.batch_size)  # before any write
        with store.transaction():
            store.begin_switch(new, old)
            store.put_chunks(rows, embedded.vectors, new)
        return SwitchReport(old=old, new=new, chunks=len(rows), texts_embedded=embedded.texts,
                            batches=embedded.batches, tokens_embedded=embedded.tokens)

    def commit(self) -> str:
        """Make the prepared model serve and drop the old model's rows; the model now serving."""
        new, old = self._pending()
        with self.store.transaction():
            self.store.set_serving_model(new)
            self.store.drop_model(old)
            self.store.end_switch()
        return new

    def abort(self) -> str:
        """Drop the prepared model's rows; the old model, which never stopped serving, stays."""
        new, old = self._pending()
        with self.store.transaction():
            self.store.drop_model(new)
            self.store.end_switch()
        return old

    def _pending(self) -> tuple[str, str]:
        pending = self.store.pending_switch()
        if pending is None:
            raise NoSwitchError("no model switch is prepared: call ModelSwitch.prepare(embedder) first")
        return pending
