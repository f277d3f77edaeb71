"""Numbered sources: what an answer may cite, each with its page's title, section, url and last edit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lab.retrieval.corpus import SearchCorpus, chunk_body
from lab.vectors.search import Hit, section_label

__all__ = ["Source", "numbered_sources", "check_sources"]


@dataclass(frozen=True)
class Source:
    """A retrieved chunk as the prompt numbers it: ``[number]`` cites it.

    ``text`` is the chunk's body, without the "Title > Section" line the chunk text starts with
    (the source's own header says it); ``edited`` is the page's ``last_edited_time``.
    """

    number: int
    title: str
    section: str | None
    url: str | None
    edited: str | None
    text: str
    chunk_id: str
    page_id: str | None
    score: float

    @property
    def unit(self) -> tuple[str | None, str | None]:
        """``(page_id, section)``: the unit relevance is judged at."""
        return (self.page_id, self.section)

    def label(self) -> str:
        """One line naming the source: "[2] Title > Section (edited ..., url)"."""
        return (f"[{self.number}] {section_label(self.title, self.section)} "
                f"(edited {self.edited or 'unknown'}, {self.url or 'no url'})")


def numbered_sources(hits: Sequence[Hit], corpus: SearchCorpus) -> list[Source]:
    """The hits, best first, as sources numbered from 1, their texts read from ``corpus``."""
    text_of = dict(zip(corpus.ids, corpus.texts))
    unknown = [hit.id for hit in hits if hit.id not in text_of]
    if unknown:
        raise ValueError(f"hits {unknown[:3]!r} are not chunks of this corpus: number the hits of a search of the "
                         "corpus passed here (the retriever's corpus_)")
    return [Source(number=number, title=hit.title, section=hit.section, url=hit.url, edited=hit.edited,
                   text=chunk_body(text_of[hit.id], hit.title), chunk_id=hit.id, page_id=hit.page_id, score=hit.score)
            for number, hit in enumerate(hits, start=1)]


def check_sources(sources: Sequence[Source]) -> None:
    """Refuse anything but a list of :class:`Source` records (``numbered_sources(hits, corpus)`` makes them)."""
    if isinstance(sources, (str, bytes)) or not all(isinstance(source, Source) for source in sources):
        raise TypeError("sources must be a list of Source records (numbered_sources(hits, corpus) makes them), "
                        f"not {type(sources).__name__}")
