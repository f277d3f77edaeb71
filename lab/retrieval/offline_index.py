"""Chunks to vectors to the SQLite index, and questions back: the offline half of lesson 05.

:class:`OfflineIndex` fits TF-IDF and LSA over a set of chunks (with
:class:`~lab.index.CorpusModels`, as the sync does), writes both models' vectors to an
:class:`~lab.index.IndexStore`, and answers questions by cosine similarity against what
is stored, so a lesson can show every step with one object. Its questions go the way every
search of an index goes (:class:`~lab.retrieval.IndexSearcher`): TF-IDF fitted on the stored
term counts, LSA scored against the stored vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sp

from lab.chunking import Chunk
from lab.index import TFIDF_MODEL, CorpusModels, IndexStore
from lab.retrieval.filters import ChunkFilter
from lab.retrieval.index_search import IndexSearcher
from lab.retrieval.retrievers import StoredVectorRetriever, TfidfRetriever
from lab.vectors import LEAD, Hit, LsaVectorizer, TfidfVectorizer, WordAnalyzer
from lab.vectors.search import section_label

__all__ = ["OfflineIndex", "ScoreBreakdown", "hits_frame", "ask_index"]


def hits_frame(question: str, hits: Sequence[Hit], model: str) -> pd.DataFrame:
    """A ranking as rows: question, model, rank, score, title, section, chunk id."""
    return pd.DataFrame([{"question": question, "model": model, "rank": i + 1, "score": round(h.score, 3),
                          "title": h.title, "section": h.section or LEAD, "id": h.id} for i, h in enumerate(hits)],
                        columns=["question", "model", "rank", "score", "title", "section", "id"])


@dataclass(frozen=True)
class ScoreBreakdown:
    """Why one chunk scores what it does for a question under TF-IDF.

    Both vectors have unit length, so the cosine is a sum over the words the question shares
    with the chunk: each word's weight in the question times its weight in the chunk. A word
    missing from either side adds nothing, however much it means.
    """

    chunk: Chunk
    rank: int  # 1 + the number of chunks that score strictly higher
    score: float
    distinct_terms: int  # words with a non-zero weight in the chunk's vector
    shared: tuple[tuple[str, float, float], ...]  # (word, weight in the question, weight in the chunk)

    def __str__(self) -> str:
        where = section_label(self.chunk.title, self.chunk.section)
        products = " + ".join(f"{term} {q:.3f}×{d:.3f}" for term, q, d in self.shared)
        return (f"  #{self.rank} {self.score:.3f}  {where}: {self.chunk.tokens} tokens, "
                f"{self.distinct_terms} distinct words\n         = {products or 'no shared word'}")


@dataclass
class OfflineIndex:
    """TF-IDF and LSA vectors for a list of chunks, fitted once, stored and queried together.

    Parameters
    ----------
    chunks : the chunks to index (their ``text``, header line included, is what is vectorised).
    analyzer : how texts become terms (Spanish stop words, digits dropped by default).
    lsa_components : dimension of the dense LSA vectors (clamped to what the corpus allows).
    """

    chunks: Sequence[Chunk]
    analyzer: Callable[[str], list[str]] = WordAnalyzer()
    lsa_components: int = 128
    random_state: int = 0
    _searchers: dict[tuple[IndexStore, str], IndexSearcher] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.models = CorpusModels(analyzer=self.analyzer, lsa_components=self.lsa_components,
                                   random_state=self.random_state).fit([c.text for c in self.chunks])
        self.tfidf: TfidfVectorizer = self.models.tfidf_
        self.matrix: sp.csr_matrix = self.models.matrix_
        self.lsa: LsaVectorizer = self.models.lsa_
        self.lsa_matrix: np.ndarray = self.models.lsa_matrix_
        self.lsa_name: str = self.models.names_[1]

    def metadata(self) -> pd.DataFrame:
        """One row per chunk, in matrix row order: id, title, type, section."""
        return pd.DataFrame([{"id": c.id, "title": c.title, "type": c.type, "section": c.section}
                             for c in self.chunks])

    def save(self, store: IndexStore) -> None:
        """Write both models' vectors (float32) for every chunk, replacing what the models held."""
        self.models.save(store, self.chunks)

    def query_vector(self, question: str, model: str = TFIDF_MODEL) -> np.ndarray:
        """The question as a vector of ``model`` (rows are L2-normalised, so dot = cosine)."""
        return self.models.query_vector(question, model)

    def term_chunks(self, question: str) -> dict[str, int]:
        """How many chunks contain each word of ``question`` the vocabulary knows, in question order.

        The fewer chunks contain a word, the higher its idf and its weight in the question.
        """
        in_chunks = np.bincount(self.matrix.indices, minlength=self.matrix.shape[1])
        vocabulary = self.tfidf.vocabulary_
        return {term: int(in_chunks[vocabulary[term]]) for term in dict.fromkeys(self.tfidf.analyzer(question))
                if term in vocabulary}

    def explain(self, question: str, chunk: Chunk) -> ScoreBreakdown:
        """The TF-IDF score of ``chunk`` for ``question``, its rank, and what each shared word adds."""
        rows = {c.id: row for row, c in enumerate(self.chunks)}
        if chunk.id not in rows:
            raise ValueError(f"chunk {chunk.id!r} is not in this index; explain a chunk it was fitted on")
        query = self.tfidf.transform([question]).toarray()[0]
        scores = self.matrix @ query
        row = self.matrix.getrow(rows[chunk.id])
        weights = dict(zip(row.indices.tolist(), row.data.tolist()))
        vocabulary = self.tfidf.vocabulary_
        shared = tuple((term, float(query[vocabulary[term]]), weights[vocabulary[term]])
                       for term in self.term_chunks(question) if vocabulary[term] in weights)
        score = float(scores[rows[chunk.id]])
        return ScoreBreakdown(chunk=chunk, rank=1 + int((scores > score).sum()), score=score,
                              distinct_terms=row.nnz, shared=shared)

    def ask(self, store: IndexStore, question: str, model: str = TFIDF_MODEL, k: int = 3,
            min_score: float | None = None, audience: str | None = None,
            where: ChunkFilter | None = None) -> pd.DataFrame:
        """Top-k chunks for a question, searched among what ``store`` holds of ``model`` that ``audience``
        may see (by the audiences the index stores; ``None``: every chunk) and ``where`` keeps (a version
        or a window of edit dates; ``None``: every chunk)."""
        hits = self.searcher(store, model).search(question, k, audience=audience, min_score=min_score, where=where)
        return hits_frame(question, hits, model)

    def searcher(self, store: IndexStore, model: str = TFIDF_MODEL) -> IndexSearcher:
        """The search of ``store`` by ``model``: TF-IDF fitted on its stored counts, or cosine against
        its stored vectors of ``model`` with this index's query vectors (made once per store and model)."""
        key = (store, model)  # the store itself: two stores in memory share a path
        if key not in self._searchers:
            retriever = (TfidfRetriever(self.analyzer) if model == TFIDF_MODEL
                         else StoredVectorRetriever(model, encode=lambda question: self.query_vector(question, model)))
            self._searchers[key] = IndexSearcher(store, retriever)
        return self._searchers[key]


def ask_index(store: IndexStore, question: str, k: int = 3,
              analyzer: Callable[[str], list[str]] = WordAnalyzer(), audience: str | None = None,
              where: ChunkFilter | None = None) -> pd.DataFrame:
    """Top-k chunks of a synced index for a question (TF-IDF fitted on the index's stored term counts), among
    those ``audience`` may see by the audiences the index stores and ``where`` keeps (``None``: every chunk)."""
    hits = IndexSearcher(store, TfidfRetriever(analyzer)).search(question, k, audience=audience, where=where)
    return hits_frame(question, hits, TFIDF_MODEL)
