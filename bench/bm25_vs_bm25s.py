"""BM25: index time and queries per second, the lab's ``BM25`` against bm25s at its fastest setting.

Settings. bm25s is measured with ``backend="numba"``, the fast path its documentation gives (its
indexing and retrieval compiled with numba; compiled once before timing), and, as a second row,
with its default ``backend="numpy"``. Both libraries answer the whole batch of queries in one
call (``BM25.top_k_many``, ``BM25.retrieve``) on one thread: the lab's search is single-threaded,
and bm25s's ``n_threads`` (0, its default) only splits the batch over cores, which would divide
both by the number of cores and, on a shared machine, measure the neighbours' load.

Both start from raw text and tokenise the same way (lowercase, ``\\w+`` words, the lab's
Spanish stop words, all-digit tokens dropped) and both use Lucene's idf, so their top 10s should
agree, except where documents tie on score at the cut (bm25s keeps 32-bit scores and does not
order ties). bm25s returns k documents even when fewer match; the check compares what both rank.
"""

from __future__ import annotations

from collections.abc import Sequence

import bm25s
import numpy as np

from bench.corpus import generated_corpus, generated_queries
from bench.measure import Row, format_table, paired_seconds
from lab.vectors import BM25, SPANISH_STOP_WORDS

SIZES = (20_000, 100_000)
#: A smoke run of a few seconds (``python -m bench --quick``).
QUICK = {"sizes": (600,), "repeat": 1, "n_queries": 100}
N_QUERIES = 1_000
K = 10
# bm25s tokenises with a regex: this one keeps one-letter words and drops all-digit tokens, like WordAnalyzer
_PATTERN = r"(?u)\b(?!\d+\b)\w+\b"
_STOP_WORDS = sorted(SPANISH_STOP_WORDS)
BACKENDS = ("numba", "numpy")  # the fastest first: the index time is compared with it


def _bm25s_index(texts: Sequence[str], backend: str) -> bm25s.BM25:
    index = bm25s.BM25(method="lucene", backend=backend)
    index.index(bm25s.tokenize(list(texts), token_pattern=_PATTERN, stopwords=_STOP_WORDS, show_progress=False),
                show_progress=False)
    return index


def _bm25s_search(index: bm25s.BM25, queries: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    tokens = bm25s.tokenize(list(queries), token_pattern=_PATTERN, stopwords=_STOP_WORDS, return_ids=False,
                            show_progress=False)
    return index.retrieve(tokens, k=K, show_progress=False, n_threads=0)


def _agreement(ours: list[list[tuple[int, float]]], theirs: tuple[np.ndarray, np.ndarray]) -> tuple[float, float]:
    """Share of queries with the same top-k documents, and with the same top-k scores (float32 tolerance).

    Documents can differ where scores tie at the cut: the lab breaks ties by row, bm25s does not.
    """
    documents, scores = theirs
    same_documents, same_scores = [], []
    for mine, their_documents, their_scores in zip(ours, documents, scores):
        n = len(mine)
        same_documents.append({row for row, _ in mine} == set(their_documents[:n].tolist()))
        same_scores.append(np.allclose([score for _, score in mine], their_scores[:n], rtol=1e-5, atol=1e-5))
    return float(np.mean(same_documents)), float(np.mean(same_scores))


def main(sizes: Sequence[int] = SIZES, repeat: int = 3, n_queries: int = N_QUERIES) -> list[Row]:
    """Index time and queries per second for each corpus size, lab against bm25s (numba, then numpy)."""
    rows = []
    for size in sizes:
        corpus = generated_corpus(size)
        queries = generated_queries(corpus, n_queries)
        lab_index = BM25().fit(corpus.texts)
        lab_index.top_k_many(queries[:2], K)  # compiles the lab's top-k before timing

        for backend in BACKENDS:
            their_index = _bm25s_index(corpus.texts, backend)
            _bm25s_search(their_index, queries[:2])  # compiles bm25s's numba retrieval before timing
            reference = f"bm25s {backend}"
            if backend == BACKENDS[0]:
                index_seconds = paired_seconds(lambda: BM25().fit(corpus.texts),
                                               lambda: _bm25s_index(corpus.texts, backend), repeat)
                rows.append(Row("bm25 index time", size, "s", *index_seconds, reference))
            documents, scores = _agreement(lab_index.top_k_many(queries, K), _bm25s_search(their_index, queries))
            check = f"same top-{K} scores for {scores:.1%}, same documents for {documents:.1%} of {n_queries:,} queries"
            lab_seconds, their_seconds = paired_seconds(
                lambda: lab_index.top_k_many(queries, K), lambda: _bm25s_search(their_index, queries), repeat
            )
            rows.append(Row(f"bm25 queries per second (top {K})", size, "q/s", n_queries / lab_seconds,
                            n_queries / their_seconds, reference, check))
    return rows


if __name__ == "__main__":
    print(format_table(main()))
