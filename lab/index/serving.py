"""Which model answers searches: a question embedded by one model, and the check that it is the serving one.

An index serves one dense model at a time (``IndexStore.serving_model``). A query carries the
name of the model that made it (:class:`QueryVector`): a vector of one model is never scored
against another model's rows, even when their dimensions happen to agree. The switch from one
model to another is the indexer's (:mod:`lab.ingest.serving`); searching the serving model is
retrieval's (:func:`lab.retrieval.search_serving`).

An index a sync keeps (:mod:`lab.ingest.sync`) holds the vectors of the one dense model its runs
embed with. A sync configured with another model is refused (:func:`require_dense_model`): it
would embed only the chunks that changed, leaving the others under the old model, and vectors of
two models cannot be compared. Changing the model means embedding every chunk again.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lab.index.errors import ModelMismatchError, StoreError
from lab.embedders.protocol import DenseEmbedder
from lab.index.store import IndexStore

__all__ = ["QueryVector", "ModelNotServingError", "SwitchPendingError", "NoSwitchError", "require_serving",
           "dense_models", "require_dense_model"]


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


def dense_models(store: IndexStore) -> list[str]:
    """The models whose vectors ``store`` holds as dense rows (term count models, such as TF-IDF, left out)."""
    return store.dense_model_names()  # named without counting: a sync asks before every run


def require_dense_model(store: IndexStore, model: str | None) -> None:
    """Refuse, naming both models, a run that would embed new chunks with ``model`` into an index whose
    vectors another dense model made (an index without dense vectors, or without chunks, takes any)."""
    held = dense_models(store)
    if model is None or not held or model in held or store.count_chunks() == 0:
        return
    stored = " and ".join(map(repr, held))
    raise ModelNotServingError(f"the index holds vectors of {stored}, not of {model!r}: vectors of two models cannot "
                               f"be compared, so a sync that embeds only the changed chunks with {model!r} would "
                               f"leave the index mixed; sync with {held[0]!r}, or embed every chunk again with "
                               f"{model!r} (full_index)")
