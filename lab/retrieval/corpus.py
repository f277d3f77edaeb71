"""What a retriever searches: chunk texts with the metadata hits carry and the filter reads.

:class:`SearchCorpus` keeps, row by row, each chunk's id, page, title, section, text and the
audience allowed to see it. The audience filter is a boolean mask over those rows, applied
before anything is ranked: a row the caller may not see gets no score at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import scipy.sparse as sp

from lab.errors import LabError
from lab.ingest.store import IndexStore, TermCounts
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
    ``edited[i]`` are the page's url and ``last_edited_time``, which hits carry so that an answer
    can cite them; left out, they are ``None`` for every row. ``term_counts`` are the rows' texts'
    term counts as an index stores them (:meth:`from_store`), which TF-IDF and BM25 retrievers
    with the same analyzer fit on instead of analysing every text again.
    """

    ids: tuple[str, ...]
    page_ids: tuple[str, ...]
    titles: tuple[str, ...]
    sections: tuple[str | None, ...]
    texts: tuple[str, ...]
    audiences: tuple[str | None, ...]
    urls: tuple[str | None, ...] = ()
    edited: tuple[str | None, ...] = ()
    term_counts: TermCounts | None = field(default=None, repr=False, compare=False)
    _audience_array: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.ids)
        for name in ("urls", "edited"):
            if not getattr(self, name):
                object.__setattr__(self, name, (None,) * n)
        lengths = {name: len(getattr(self, name))
                   for name in ("page_ids", "titles", "sections", "texts", "audiences", "urls", "edited")}
        wrong = {name: length for name, length in lengths.items() if length != n}
        if wrong:
            raise ValueError(f"every column needs one entry per chunk ({n} ids), but got {wrong}")
        if len(set(self.ids)) != n:
            repeated = sorted({i for i in self.ids if self.ids.count(i) > 1})[:5]
            raise ValueError(f"chunk ids must be unique; repeated: {repeated}")
        object.__setattr__(self, "_audience_array", np.array(self.audiences, dtype=object))

    @classmethod
    def from_chunks(cls, chunks: Iterable[Any], audiences: Mapping[str, str] | None = None,
                    pages: Mapping[str, PageMetadata] | None = None) -> SearchCorpus:
        """Rows from chunks (``lab.chunking.Chunk``, stored rows or dicts), audiences looked up by page id.

        Each row's ``edited`` is its chunk's; its url is looked up in ``pages`` (page id ->
        :class:`~lab.notion.PageMetadata`, as ``IndexStore.pages()`` returns them).
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
        )

    @classmethod
    def from_store(cls, store: IndexStore, model: str, audiences: Mapping[str, str] | None = None) -> SearchCorpus:
        """Rows from the chunks an index holds for ``model``, in id order (the order of ``store.vectors``),
        with each page's url and last edit as the index recorded them, and the chunks' term counts
        when ``model`` is stored as counts (TF-IDF)."""
        corpus = cls.from_chunks(store.chunks(model), audiences, store.pages())
        if store.counts_analyzer(model) is None:
            return corpus
        return replace(corpus, term_counts=store.term_counts(model))

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
        return replace(self, texts=tuple(texts), term_counts=None)  # counts of the old texts no longer hold

    def __len__(self) -> int:
        return len(self.ids)

    def known_audiences(self) -> list[str]:
        """The distinct audiences of the rows, sorted."""
        return sorted({a for a in self.audiences if a is not None})

    def allowed(self, audience: str | None) -> np.ndarray:
        """Boolean mask of the rows ``audience`` may see; every row when ``audience`` is ``None``."""
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
                   page_id=self.page_ids[row], url=self.urls[row], edited=self.edited[row])
