"""BM25: queries per second and index time, the lab's ``BM25`` against bm25s, on corpora and queries of several shapes.

Settings. bm25s is measured with ``backend="numba"``, the fast path its documentation gives (its
indexing and retrieval compiled with numba; compiled once before timing), and with its default
``backend="numpy"``, in the same process and the same run. Each library answers the whole batch
of queries in one call (``BM25.top_k_many``, ``BM25.retrieve``) on one thread: the lab's search
is single-threaded, and bm25s's ``n_threads`` (0, its default) only splits the batch over cores,
which would divide both by the number of cores and, on a shared machine, measure the neighbours'
load. The three are timed in turn, best of ``repeat`` runs each.

Both start from raw text and tokenise the same way (lowercase, ``\\w+`` words, the lab's
Spanish stop words, all-digit tokens dropped) and both use Lucene's idf, so both rank the same
tokens and their top-10 scores agree on every query (to bm25s's 32-bit precision); the documents
may differ where documents tie on score at the cut (the lab breaks ties by row, bm25s does not).
bm25s returns k documents even when fewer match; the check compares what both rank.

Shapes (:mod:`bench.corpus`, all generated with fixed seeds):

- topical: chunks of 200-300 tokens over 20 topics with Spanish function words, and help-desk
  questions of 2-5 topical words (the lab's own kind of corpus), at 20,000 and 100,000 chunks;
- Zipf: documents of 40-260 words drawn from one Zipf law (exponent 1.07) over 40,000 words, so
  that most queries hold a word found in most documents. At 100,000 documents, five kinds of
  queries: 2-5 words drawn by the same law, short (1-2 words) and long (10-20 words) ones drawn
  the same way, 2-5 words drawn by the law among the 100 most frequent (each in 13-100 % of the
  documents), 2-5 words drawn uniformly among the ranks 10-99 (mid-frequency words, each in 13-85 %:
  bounds too alike for MaxScore to skip much, so the lab sums their levels for every document) and
  2-5 words drawn by the law from the rank 1,000 on (each in under 1 %); and the 2-5-word queries at 20,000 documents and, with
  ``--large``, 1,000,000 (minutes, and some 15 GB: bm25s's tokeniser holds a Python int per word).

A second table gives each corpus's index time (lab ``fit`` against bm25s numba ``index``) and,
for the largest corpus, the memory each index holds and the lab's peak while fitting.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import bm25s
import numpy as np

from bench.corpus import (ZIPF_LAW_EXPONENT, ZIPF_VOCABULARY_SIZE, generated_corpus, generated_queries,
                          zipf_corpus, zipf_queries)
from bench.measure import alternating_seconds, peak_bytes
from lab.vectors import BM25, SPANISH_STOP_WORDS

K = 10
N_QUERIES = 1_000
TOPICAL_SIZES = (20_000, 100_000)
ZIPF_SIZES = (20_000, 100_000)
LARGE_SIZES = (1_000_000,)
SHAPES_AT = 100_000  # where every kind of query is measured
#: Kinds of queries on the Zipf corpus: words per query, the frequency ranks drawn from, the law's exponent.
QUERY_KINDS: dict[str, tuple[tuple[int, int], tuple[int, int], float]] = {
    "2-5 words": ((2, 5), (0, ZIPF_VOCABULARY_SIZE - 1), ZIPF_LAW_EXPONENT),
    "short, 1-2 words": ((1, 2), (0, ZIPF_VOCABULARY_SIZE - 1), ZIPF_LAW_EXPONENT),
    "long, 10-20 words": ((10, 20), (0, ZIPF_VOCABULARY_SIZE - 1), ZIPF_LAW_EXPONENT),
    "frequent words": ((2, 5), (0, 99), ZIPF_LAW_EXPONENT),
    "mid-frequency words": ((2, 5), (10, 99), 0.0),
    "rare words": ((2, 5), (1_000, ZIPF_VOCABULARY_SIZE - 1), ZIPF_LAW_EXPONENT),
}
#: A smoke run of a few seconds (``python -m bench --quick``).
QUICK = {"topical_sizes": (600,), "zipf_sizes": (600,), "shapes_at": 600, "repeat": 1, "n_queries": 100}
# bm25s tokenises with a regex: this one keeps one-letter words and drops all-digit tokens, like WordAnalyzer
_PATTERN = r"(?u)\b(?!\d+\b)\w+\b"
_STOP_WORDS = sorted(SPANISH_STOP_WORDS)
BACKENDS = ("numba", "numpy")  # the fastest first: the index time is compared with it


@dataclass(frozen=True)
class QueryRow:
    """Queries per second of one corpus and kind of query, for the lab and each bm25s backend."""

    corpus: str
    size: int
    queries: str
    lab: float
    numba: float
    numpy: float
    check: str


@dataclass(frozen=True)
class IndexRow:
    """Index time of one corpus, and what the indexes hold (measured for the largest corpus only)."""

    corpus: str
    size: int
    lab_seconds: float
    numba_seconds: float
    lab_bytes: int | None = None
    numba_bytes: int | None = None
    lab_peak_bytes: int | None = None


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


def _index_bytes(lab: BM25, theirs: bm25s.BM25) -> tuple[int, int]:
    ours = sum(array.nbytes for array in (lab.weights_.data, lab.weights_.indices, lab.weights_.indptr,
                                          lab.max_weights_, lab.weight_levels_, lab.level_slots_, lab.level_rows_,
                                          lab.idf_, lab.doc_lengths_))
    return ours, sum(theirs.scores[name].nbytes for name in ("data", "indices", "indptr"))


class _Indexes:
    """One corpus indexed by the lab and by bm25s's backends, with the index time of the lab and bm25s numba."""

    def __init__(self, texts: Sequence[str], repeat: int) -> None:
        built: dict[str, object] = {}

        def keep(name: str, build: Callable[[], object]) -> Callable[[], None]:
            return lambda: built.__setitem__(name, build())

        self.lab_seconds, self.numba_seconds = alternating_seconds(
            [keep("lab", lambda: BM25().fit(texts)), keep("numba", lambda: _bm25s_index(texts, "numba"))], repeat)
        self.lab: BM25 = built["lab"]  # type: ignore[assignment]
        self.bm25s = {"numba": built["numba"], "numpy": _bm25s_index(texts, "numpy")}

    def row(self, queries: list[str], corpus: str, size: int, label: str, repeat: int) -> QueryRow:
        """Queries per second of the three on ``queries``, with their top-k agreement."""
        self.lab.top_k_many(queries[:2], K)  # compiles the lab's search before timing
        same_scores, same_documents = [], []
        for index in self.bm25s.values():
            _bm25s_search(index, queries[:2])  # compiles bm25s's numba retrieval before timing
            documents, scores = _agreement(self.lab.top_k_many(queries, K), _bm25s_search(index, queries))
            same_scores.append(f"{scores:.1%}")
            same_documents.append(f"{documents:.1%}")
        seconds = alternating_seconds([lambda: self.lab.top_k_many(queries, K),
                                       *(lambda index=index: _bm25s_search(index, queries)
                                         for index in self.bm25s.values())], repeat)
        lab, numba, numpy = (len(queries) / taken for taken in seconds)
        check = f"scores {' / '.join(same_scores)}, documents {' / '.join(same_documents)}"
        return QueryRow(corpus, size, label, lab, numba, numpy, check)


def main(quick: bool = False, large: bool = False) -> tuple[list[QueryRow], list[IndexRow]]:
    """The command line's run: every shape (``quick``: tiny sizes; ``large``: 1,000,000 documents too)."""
    return measure(**QUICK) if quick else measure(large=large)


def measure(topical_sizes: Sequence[int] = TOPICAL_SIZES, zipf_sizes: Sequence[int] = ZIPF_SIZES,
            shapes_at: int = SHAPES_AT, repeat: int = 3, n_queries: int = N_QUERIES,
            large: bool = False) -> tuple[list[QueryRow], list[IndexRow]]:
    """Measure every corpus and kind of query, print the two tables and return their rows."""
    query_rows, index_rows = [], []
    corpora = [("topical", size) for size in topical_sizes]
    corpora += [("Zipf", size) for size in sorted({*zipf_sizes, shapes_at, *(LARGE_SIZES if large else ())})]
    largest = corpora[-1]
    for corpus, size in corpora:
        if corpus == "topical":
            topical = generated_corpus(size)
            texts, kinds = topical.texts, {"2-5 topical words": generated_queries(topical, n_queries)}
        else:
            texts = zipf_corpus(size)
            measured = QUERY_KINDS if size == shapes_at else {"2-5 words": QUERY_KINDS["2-5 words"]}
            kinds = {label: zipf_queries(n_queries, words, ranks=ranks, exponent=exponent, seed=seed)
                     for seed, (label, (words, ranks, exponent)) in enumerate(measured.items(), start=1)}
        indexes = _Indexes(texts, 1 if size >= 1_000_000 else repeat)
        memory: tuple[int | None, ...] = (None, None, None)
        if (corpus, size) == largest:
            memory = (*_index_bytes(indexes.lab, indexes.bm25s["numba"]), peak_bytes(lambda: BM25().fit(texts)))
        index_rows.append(IndexRow(corpus, size, indexes.lab_seconds, indexes.numba_seconds, *memory))
        for label, queries in kinds.items():
            query_rows.append(indexes.row(queries, corpus, size, label, repeat))
        del indexes, texts
    print(format_tables(query_rows, index_rows, n_queries))
    return query_rows, index_rows


def _table(header: Sequence[str], lines: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(cells[i]) for cells in [tuple(header), *lines]) for i in range(len(header))]
    out = ["  ".join(cell.ljust(width) for cell, width in zip(header, widths)).rstrip(),
           "  ".join("-" * width for width in widths)]
    return out + ["  ".join(cell.ljust(width) for cell, width in zip(cells, widths)).rstrip() for cells in lines]


def _megabytes(value: int | None) -> str:
    return "" if value is None else f"{value / 1e6:,.0f} MB"


def format_tables(query_rows: Sequence[QueryRow], index_rows: Sequence[IndexRow], n_queries: int) -> str:
    """The queries-per-second table (ratios to both bm25s backends) and the index table, as text."""
    queries = _table(
        ("corpus", "docs", f"queries ({n_queries:,} each)", "lab q/s", "bm25s numba q/s", "lab/numba",
         "bm25s numpy q/s", "lab/numpy", f"same top {K} (numba / numpy)"),
        [(row.corpus, f"{row.size:,}", row.queries, f"{row.lab:,.0f}", f"{row.numba:,.0f}", f"{row.lab / row.numba:.2f}",
          f"{row.numpy:,.0f}", f"{row.lab / row.numpy:.2f}", row.check) for row in query_rows])
    index = _table(
        ("corpus", "docs", "lab fit", "bm25s numba index", "lab/numba", "lab index", "bm25s index", "lab fit peak"),
        [(row.corpus, f"{row.size:,}", f"{row.lab_seconds:.2f} s", f"{row.numba_seconds:.2f} s",
          f"{row.lab_seconds / row.numba_seconds:.2f}", _megabytes(row.lab_bytes), _megabytes(row.numba_bytes),
          _megabytes(row.lab_peak_bytes)) for row in index_rows])
    notes = [f"BM25 top {K}, one thread, best of the runs; lab/numba above 1: the lab answers more queries per second; "
             "index time below 1: the lab indexes faster",
             "memory: the arrays each index keeps (lab: float64 weights, their one-byte levels and the frequent terms' "
             "level rows; bm25s: float32 scores) and the lab's peak while fitting, for the largest corpus"]
    return "\n".join(["bm25: queries per second", *queries, "", "bm25: index time and memory", *index, *notes])


if __name__ == "__main__":
    main()
