"""Which model answers searches: a question embedded by one model, and the check that it is the serving one.

An index serves one dense model at a time (``IndexStore.serving_model``). A query carries the
name of the model that made it (:class:`QueryVector`): a vector of one model is never scored
against another model's rows, even when their dimensions happen to agree. The switch from one
model to another is the indexer's (:mod:`lab.ingest.serving`); searching the serving model is
retrieval's (:func:`lab.retrieval.search_serving`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lab.index.errors import ModelMismatchError, StoreError
from lab.embedders.protocol import DenseEmbedder
from lab.index.store import IndexStore

__all__ = ["QueryVector", "ModelNotServingError", "SwitchPendingError", "NoSwitchError", "require_serving"]


class ModelNotServingError(ModelMismatchError):
    """A search or a run named a model other than the one the index serves."""


class SwitchPendingError(StoreError):
    """A model switch is prepared but not committed: finish it (or abort it) first."""


class NoSwitchError(StoreError):
    """Commit or abort was called with no switch prepared, or prepare with nothing to switch from."""


@dataclass(frozen=True)
class QueryVector:
    """A question embedded by one model: the vector and the name of the model that made it."""

    model: str
    vector: np.ndarray

    @classmethod
    def embed(cls, embedder: DenseEmbedder, question: str) -> QueryVector:
        """``question`` embedded as a query by ``embedder`` (its ``embed_query``)."""
        return cls(model=embedder.name, vector=np.asarray(embedder.embed_query(question), dtype=np.float32))


def require_serving(store: IndexStore, model: str, purpose: str = "embed the question") -> None:
    """Refuse, naming the fix, unless ``model`` is the one ``store`` serves (``purpose`` says what
    the caller must do with the serving model instead)."""
    serving = store.serving_model()
    if model == serving:
        return
    pending = store.pending_switch()
    if pending and pending[0] == model:
        raise ModelNotServingError(f"model {model!r} is being switched in but does not serve yet; {serving!r} "
                                   "serves until ModelSwitch.commit()")
    raise ModelNotServingError(f"the index serves model {serving!r}, not {model!r}: {purpose} with "
                               f"{serving!r}, or switch models with ModelSwitch first")
