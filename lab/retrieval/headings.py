"""Title and section weighting: a chunk's headings count more than a word of its body.

A page title ("Ficha: Rol de canela") and a section heading ("Alérgenos") name what the text
below is about in the few words a question is likely to use. Every chunk's text already starts
with its "Title > Section" line, so headings count once, like any body word. Repeating the
headings ``weight - 1`` more times before a retriever counts the text is the simplest form of
field weighting (BM25F, Robertson, Zaragoza and Taylor 2004, weighs fields the same way: a
field's term frequencies are multiplied by its weight before saturation).
"""

from __future__ import annotations

from lab.arguments import check_positive_int
from lab.retrieval.corpus import SearchCorpus
from lab.retrieval.filters import ChunkFilter
from lab.retrieval.retrievers import Retriever
from lab.vectors.search import Hit

__all__ = ["HeadingWeighted", "heading_weighted_texts"]


def heading_weighted_texts(corpus: SearchCorpus, weight: int) -> list[str]:
    """Each row's text preceded by its title and section ``weight - 1`` times (one line each)."""
    check_positive_int("weight", weight, " (1 leaves the texts as they are)")
    return [f"{title} {section or ''}\n" * (weight - 1) + text
            for title, section, text in zip(corpus.titles, corpus.sections, corpus.texts)]


class HeadingWeighted(Retriever):
    """Fit ``retriever`` on texts whose headings count ``weight`` times; search it as it is.

    The hits are the inner retriever's: same rows, ids, titles and sections as the corpus given
    to :meth:`fit`, only the texts it scored were weighted.

    Parameters
    ----------
    retriever : the retriever to fit on the weighted texts.
    weight : how many times a chunk's title and section count (1: as the chunk text has them).

    Attributes
    ----------
    corpus_ : the corpus as given (not weighted).
    """

    def __init__(self, retriever: Retriever, weight: int = 2) -> None:
        self.retriever = retriever
        self.weight = weight

    def fit(self, corpus: SearchCorpus) -> HeadingWeighted:
        """Fit the inner retriever on ``corpus`` with weighted texts; returns self."""
        self.retriever.fit(corpus.with_texts(heading_weighted_texts(corpus, self.weight)))
        self.corpus_ = corpus
        return self

    def search(self, query: str, k: int = 10, audience: str | None = None,
               min_score: float | None = None, where: ChunkFilter | None = None) -> list[Hit]:
        """The inner retriever's ``k`` best hits (see :meth:`Retriever.search`)."""
        self._check_fitted("corpus_")
        return self.retriever.search(query, k, audience=audience, min_score=min_score, where=where)
