"""What a retriever searches: chunk texts with the metadata hits carry and the filters read.

:class:`SearchCorpus` keeps, row by row, each chunk's id, page, title, section, text, the
audience allowed to see it, and its document's version and last edit. The audience filter, and a
:class:`~lab.retrieval.filters.ChunkFilter` on version and date, are boolean masks over those rows,
combined in one place (:meth:`SearchCorpus.visible`) and applied before anything is ranked: a row
the caller may not see, or did not ask for, gets no score at all.

What ``audience`` means, everywhere a search takes one (a retriever, the searcher of an index,
``python -m lab search --audience``):

- a name: only the rows of pages meant for that audience. A page that names no audience is
  not shown to any named audience (nobody said who may see it: closed, not open), and a name
  no row has is refused (:class:`UnknownAudienceError`) rather than answered with nothing.
- ``None``: no filter, every row. That is the view of whoever owns the index (an operator, a
  lesson comparing with and without the filter); an agent that serves one audience must pass
  it, and the command line says so when it searches an index with audiences unfiltered.

An index built with an audience property (``SyncConfig.audience_property``) stores each page's
audience, and :meth:`SearchCorpus.from_index` reads them: the served search filters on what the
index holds, not on a mapping handed in at load time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import scipy.sparse as sp

from lab.errors import LabError
from lab.index import IndexStore, ModelMismatchError, TermCounts
from lab.retrieval.filters import ChunkFilter, date_of
from lab.notion.pages import PageMetadata
from lab.vectors.counting import learn_counts
from lab.vectors.search import Hit

__all__ = ["SearchCorpus", "UnknownAudienceError", "chunk_body"]

class UnknownAudienceError(LabError, ValueError):
    """A search asked for an audience that no row of the corpus has (a typo would otherwise return nothing)."""


def chunk_body(text: str, title: str) -> str:
    """A chunk's text without the "Title > Section" line it starts with (the text itself if it has none)."""
    first, _, rest = text.partition("\n")
    return rest if first.startswith(title) and rest else text


def _field(chunk: Any, name: str) -> Any:
    return chunk[name] if isinstance(chunk, Mapping) else getattr(chunk, name)


def _optional_field(chunk: Any, name: str) -> Any:
    return chunk.get(name) if isinstance(chunk, Mapping) else getattr(chunk, name, None)


@dataclass(frozen=True)
class SearchCorpus:
    """Chunks as parallel rows: ``ids[i]``, ``page_ids[i]``, ... describe row ``i`` of every retriever.

    ``audiences[i]`` is who may see row ``i`` (``None``: the corpus has no audiences, or the
    page has none, in which case no audience-filtered search returns it). ``urls[i]`` and
    ``edited[i]`` are the page's url and ``last_edited_time``, and ``versions[i]`` the version of
    the documentation the chunk belongs to, which hits carry so that an answer can cite them and a
    :class:`~lab.retrieval.filters.ChunkFilter` reads; left out, they are ``None`` for every row.
    A corpus read from an index (:meth:`from_index`) also reaches what the index stored of its
    rows: ``term_counts``, which TF-IDF and BM25 retrievers with the same analyzer fit on instead
    of analysing every text again, and each dense model's vectors (:meth:`stored_vectors`), which dense retrievers use
    instead of embedding the texts again.
    """

    ids: tuple[str, ...]
    page_ids: tuple[str, ...]
    titles: tuple[str, ...]
    sections: tuple[str | None, ...]
    texts: tuple[str, ...]
    audiences: tuple[str | None, ...]
    urls: tuple[str | None, ...] = ()
    edited: tuple[str | None, ...] = ()
    versions: tuple[str | None, ...] = ()
    term_counts: TermCounts | None = field(default=None, repr=False, compare=False)
    vector_source: Callable[[str], tuple[list[str], np.ndarray]] | None = field(default=None, repr=False,
                                                                                 compare=False)
    stored_models: tuple[str, ...] = field(default=(), repr=False, compare=False)
    _audience_array: np.ndarray = field(init=False, repr=False, compare=False)
    version_array: np.ndarray = field(init=False, repr=False, compare=False)
    date_array: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.ids)
        for name in ("urls", "edited", "versions"):
            if not getattr(self, name):
                object.__setattr__(self, name, (None,) * n)
        lengths = {name: len(getattr(self, name))
                   for name in ("page_ids", "titles", "sections", "texts", "audiences", "urls", "edited", "versions")}
        wrong = {name: length for name, length in lengths.items() if length != n}
        if wrong:
            raise ValueError(f"every column needs one entry per chunk ({n} ids), but got {wrong}")
        if len(set(self.ids)) != n:
            repeated = sorted({i for i in self.ids if self.ids.count(i) > 1})[:5]
            raise ValueError(f"chunk ids must be unique; repeated: {repeated}")
        object.__setattr__(self, "_audience_array", np.array(self.audiences, dtype=object))
        # what a ChunkFilter compares: each row's version, and the day of its last edit ("" for none)
        object.__setattr__(self, "version_array", np.array(self.versions, dtype=object))
        object.__setattr__(self, "date_array", np.array([date_of(e) for e in self.edited], dtype="U10"))

    @classmethod
    def from_chunks(cls, chunks: Iterable[Any], audiences: Mapping[str, str] | None = None,
                    pages: Mapping[str, PageMetadata] | None = None) -> SearchCorpus:
        """Rows from chunks (``lab.chunking.Chunk``, stored rows or dicts), audiences looked up by page id.

        Each row's ``edited`` and ``version`` are its chunk's (a chunk without a ``version`` has none);
        its url is looked up in ``pages`` (page id -> :class:`~lab.notion.PageMetadata`, as
        ``IndexStore.pages()`` returns them).
        """
        chunks = list(chunks)
        audiences, pages = audiences or {}, pages or {}
        page_ids = tuple(str(_field(c, "page_id")) for c in chunks)
        return cls(
            ids=tuple(str(_field(c, "id")) for c in chunks),
            page_ids=page_ids,
            titles=tuple(str(_field(c, "title")) for c in chunks),
            sections=tuple(_field(c, "section") for c in chunks),
            texts=tuple(str(_field(c, "text")) for c in chunks),
            audiences=tuple(audiences.get(page_id) for page_id in page_ids),
            urls=tuple(pages[page_id].url if page_id in pages else None for page_id in page_ids),
            edited=tuple(_optional_field(c, "edited") for c in chunks),
            versions=tuple(_optional_field(c, "version") for c in chunks),
        )

    @classmethod
    def from_index(cls, store: IndexStore, audiences: Mapping[str, str] | None = None) -> SearchCorpus:
        """Every chunk an index holds, in id order, with each page's url, last edit, version and audience as
        the index recorded them (``audiences``, page id -> audience, replaces the stored ones if given), the
        stored TF-IDF term counts when they cover every chunk, and the stored vectors of each dense
        model (read when a retriever asks for them: :meth:`stored_vectors`)."""
        with store.read_transaction():
            audiences = store.audiences() if audiences is None else audiences
            corpus = cls.from_chunks(store.chunks(), audiences, store.pages())
            counted = [model for model in store.models() if store.counts_analyzer(model) is not None]
            dense = tuple(model for model in store.models() if model not in counted)
            counts = store.term_counts(counted[0]) if counted else None  # an index keeps one model's counts
        if counts is not None and tuple(counts.ids) != corpus.ids:
            counts = None  # some chunks have no counts (a files run's dense rows): retrievers count the texts
        return replace(corpus, term_counts=counts, vector_source=store.vectors, stored_models=dense)

    def stored_vectors(self, model: str) -> np.ndarray | None:
        """The float32 vectors the index stored for ``model``, one row per row of this corpus (``None``
        if the corpus was not read from an index, or the index holds no vectors of ``model``)."""
        if self.vector_source is None or model not in self.stored_models:
            return None
        ids, vectors = self.vector_source(model)
        row_of = {chunk_id: row for row, chunk_id in enumerate(ids)}
        missing = [chunk_id for chunk_id in self.ids if chunk_id not in row_of]
        if missing:
            raise ModelMismatchError(f"{len(missing)} chunks of the index have no {model!r} vector (first: "
                                     f"{missing[0]!r}); store vectors of {model!r} for every chunk")
        return vectors[[row_of[chunk_id] for chunk_id in self.ids]]

    def stored_counts(self, analyzer: object) -> tuple[sp.csr_matrix, list[str]] | None:
        """The rows' term counts and terms if the index made them with ``analyzer`` (else ``None``)."""
        stored = self.term_counts
        if stored is None or stored.analyzer != repr(analyzer) or tuple(stored.ids) != self.ids:
            return None
        return stored.counts, stored.terms

    def counts_for(self, analyzer: Any) -> tuple[sp.csr_matrix, list[str]]:
        """The rows' term counts and terms under ``analyzer``: the stored ones when the index made
        them with it, else counted from the texts now (what every count-based retriever fits on)."""
        return self.stored_counts(analyzer) or learn_counts(self.texts, analyzer)

    def with_texts(self, texts: Iterable[str]) -> SearchCorpus:
        """The same rows with other texts (one per row): what a retriever scores changes, what hits say does not."""
        # counts and vectors of the old texts no longer hold
        return replace(self, texts=tuple(texts), term_counts=None, vector_source=None, stored_models=())

    def __len__(self) -> int:
        return len(self.ids)

    def known_audiences(self) -> list[str]:
        """The distinct audiences of the rows, sorted."""
        return sorted({a for a in self.audiences if a is not None})

    def known_versions(self) -> list[str]:
        """The distinct versions of the rows, sorted (rows without one left out)."""
        return sorted({v for v in self.versions if v is not None})

    def visible(self, audience: str | None = None, where: ChunkFilter | None = None) -> np.ndarray:
        """Boolean mask of the rows a search may rank: those ``audience`` may see (:meth:`allowed`) that
        ``where`` keeps (:meth:`ChunkFilter.mask <lab.retrieval.filters.ChunkFilter.mask>`; ``None``: every row).
        Every retriever applies it before ranking."""
        if where is not None and not isinstance(where, ChunkFilter):
            raise TypeError(f"where takes a ChunkFilter (ChunkFilter(version='3.2')), not {type(where).__name__}")
        mask = self.allowed(audience)
        return mask if where is None else mask & where.mask(self)

    def allowed(self, audience: str | None) -> np.ndarray:
        """Boolean mask of the rows ``audience`` may see; every row when ``audience`` is ``None`` (no filter:
        the module's docstring says why), never a row of a page without an audience otherwise."""
        if audience is None:
            return np.ones(len(self), dtype=bool)
        known = self.known_audiences()
        if audience not in known:
            have = ", ".join(repr(a) for a in known) if known else "none (build it with audiences=...)"
            raise UnknownAudienceError(f"no row of this corpus is for audience {audience!r}; its audiences are {have}")
        return self._audience_array == audience

    def hit(self, row: int, score: float) -> Hit:
        """Row ``row`` as a :class:`Hit` with ``score``."""
        return Hit(score=float(score), id=self.ids[row], title=self.titles[row], section=self.sections[row],
                   page_id=self.page_ids[row], url=self.urls[row], edited=self.edited[row], version=self.versions[row])
