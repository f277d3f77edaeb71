"""Searching an index: the recipe it serves, fitted once on its chunks, then asked any number of questions.

:class:`IndexSearcher` is the one way the lab searches an index. It reads every chunk the index
holds (:meth:`SearchCorpus.from_index`, with each page's url and last edit), builds the recipe's
retriever (the one lesson 10 tunes, :data:`~lab.retrieval.recipe.TUNED`, unless the index
records another), and fits it once. Questions are then answered from memory: nothing is fitted
again per question, and no stored chunk is embedded again (a dense model's vectors come from the
index).

Fitting the recipe costs seconds on tens of thousands of chunks (LSA's SVD most of all), so the
fitted state is kept in the index file beside the chunks (:mod:`lab.index.searcher_states`) and
the next process loads it in milliseconds. Any write to the chunks deletes it in the same
transaction; before each search the searcher reads the index's content stamp (one small read)
and, if the chunks changed since (a sync, another process), loads or fits again.

Searching the model an index serves with a vector a caller embedded (:func:`search_serving`)
goes the same way: a corpus read from the index, a retriever over the stored vectors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from lab.index import IndexStore, StoreError
from lab.index.serving import QueryVector, require_serving
from lab.retrieval.corpus import SearchCorpus
from lab.retrieval.filters import ChunkFilter
from lab.retrieval.fitted_state import (FITTED_STATE_VERSION, FittedStateError, fitted_state, restore_fitted,
                                        state_from_bytes, state_to_bytes)
from lab.retrieval.recipe import RECIPES, Recipe
from lab.retrieval.retrievers import Retriever, StoredVectorRetriever
from lab.vectors.search import Hit

__all__ = ["IndexSearcher", "IndexNotSearchableError", "DEFAULT_RECIPE", "recorded_recipe", "search_serving"]

#: The recipe an index that records none is searched with.
DEFAULT_RECIPE = "tuned"


class IndexNotSearchableError(StoreError):
    """The index cannot be searched as it is (no chunks, an unknown recipe, a dense model's vectors
    missing); the message says which command builds one that can."""


def recorded_recipe(store: IndexStore) -> tuple[str, Recipe]:
    """The name and recipe the index records (:data:`DEFAULT_RECIPE` if it records none)."""
    name = store.search_recipe() or DEFAULT_RECIPE
    if name not in RECIPES:
        raise IndexNotSearchableError(f"the index {store.path} is searched with recipe {name!r}, which this lab does "
                                      f"not know (it knows {', '.join(sorted(RECIPES))}); rebuild it with "
                                      f"python -m lab index --db {store.path}")
    return name, RECIPES[name]


class IndexSearcher:
    """The search an index serves: a recipe (or any retriever) fitted on every chunk of ``store``.

    Parameters
    ----------
    store : the index to search.
    recipe : a :class:`~lab.retrieval.Recipe` (its fitted state is kept in the index), a
        retriever (fitted in place, in memory only), or ``None`` for the recipe the index records.
    audiences : page id -> audience, replacing the audiences the index stores (``None``: the stored
        ones, which an index built with ``SyncConfig.audience_property`` holds).

    Attributes
    ----------
    retriever_ : the fitted retriever; corpus_ : the chunks it searches, as read from the index;
    content_stamp_ : the index's content stamp when they were read; loaded_ : whether the fitted
    state came from the index (``False``: fitted in this process).
    """

    def __init__(self, store: IndexStore, recipe: Recipe | Retriever | None = None,
                 audiences: Mapping[str, str] | None = None) -> None:
        if not isinstance(store, IndexStore):
            raise TypeError(f"an IndexSearcher searches an IndexStore (IndexStore('kb.sqlite')), "
                            f"not {type(store).__name__}")
        if recipe is not None and not isinstance(recipe, (Recipe, Retriever)):
            raise TypeError(f"recipe takes a Recipe (such as TUNED) or a retriever, not {type(recipe).__name__}")
        self.store = store
        self.recipe = recorded_recipe(store)[1] if recipe is None else recipe
        self.audiences = audiences
        self._load()

    def __repr__(self) -> str:
        return f"IndexSearcher({self.store!r}, {self.recipe!r})"

    def _state_key(self) -> str | None:
        """The recipe as the index keeps its state under it; ``None`` (fitted in memory only) for a retriever
        given directly, or a recipe holding a part whose repr is not the same in every process."""
        if not isinstance(self.recipe, Recipe) or " at 0x" in repr(self.recipe):
            return None
        return f"{FITTED_STATE_VERSION}:{self.recipe!r}"

    def _build(self) -> Retriever:
        return self.recipe.retriever() if isinstance(self.recipe, Recipe) else self.recipe

    def _load(self) -> None:
        key = self._state_key()
        with self.store.read_transaction():  # the chunks and the state of one content stamp
            stamp = self.store.content_stamp()
            corpus = SearchCorpus.from_index(self.store, self.audiences)
            blob = self.store.searcher_state(key) if key is not None else None
        self._check_searchable(corpus)
        retriever, loaded = self._build(), False
        if blob is not None:
            try:
                restore_fitted(retriever, state_from_bytes(blob), corpus)
                loaded = True
            except (FittedStateError, ValueError, KeyError):  # a state this lab cannot read: fit instead
                retriever = self._build()
        if not loaded:
            retriever.fit(corpus)
            if key is not None:
                self.store.keep_searcher_state(key, state_to_bytes(fitted_state(retriever)), stamp)
        self.retriever_, self.corpus_, self.content_stamp_, self.loaded_ = retriever, corpus, stamp, loaded

    def _check_searchable(self, corpus: SearchCorpus) -> None:
        if len(corpus) == 0:
            raise IndexNotSearchableError(f"the index {self.store.path} holds no chunks yet; build it first with "
                                          f"python -m lab index --db {self.store.path}")
        dense = self.recipe.dense_name if isinstance(self.recipe, Recipe) else None
        if dense is not None and dense not in corpus.stored_models:
            raise IndexNotSearchableError(f"the index {self.store.path} has no vectors of {dense!r}, which its "
                                          f"recipe fuses; rebuild it with python -m lab index --db {self.store.path}")

    def refresh(self) -> bool:
        """Load or fit again if the index's chunks changed since the last load; whether they had."""
        if self.store.content_stamp() == self.content_stamp_:
            return False
        self._load()
        return True

    def search(self, question: str, k: int = 8, audience: str | None = None,
               min_score: float | None = None, where: ChunkFilter | None = None) -> list[Hit]:
        """The ``k`` best chunks for ``question`` that ``audience`` may see and ``where`` keeps (a version, a
        window of dates: :mod:`lab.retrieval.filters`), both filtered before ranking (``None``: every chunk;
        :mod:`lab.retrieval.corpus` says why), with title, section, url, last edit and version in each hit."""
        self.refresh()
        return self.retriever_.search(question, k, audience=audience, min_score=min_score, where=where)

    def search_many(self, questions: Sequence[str], k: int = 8, audience: str | None = None,
                    min_score: float | None = None, where: ChunkFilter | None = None) -> list[list[Hit]]:
        """:meth:`search` for every question of a list, one list of hits per question, in order."""
        self.refresh()
        return self.retriever_.search_many(questions, k, audience=audience, min_score=min_score, where=where)


def search_serving(store: IndexStore, query: QueryVector, k: int = 3, where: ChunkFilter | None = None) -> list[Hit]:
    """Cosine top-k among the serving model's stored vectors that ``where`` keeps (``None``: every chunk); refused
    if ``query`` was made by another model."""
    require_serving(store, query.model)
    retriever = StoredVectorRetriever(query.model, encode=lambda _: query.vector)  # the query is embedded already
    return retriever.fit(SearchCorpus.from_index(store)).search("", k=k, where=where)
