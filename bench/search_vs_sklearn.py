"""Cosine search of many queries at once: TF-IDF and stored dense vectors against scikit-learn.

What the retrievers run, timed without building ``Hit`` records: ``TfidfRetriever`` turns the
queries into TF-IDF rows and calls :func:`lab.vectors.top_k_sparse_product` on the matrix by
column; ``StoredVectorRetriever`` and ``LsaRetriever`` call :func:`lab.vectors.top_k_dense_product`
on float32 rows. Both answer 1,000 queries in one call, top 10.

Settings. The reference is scikit-learn's ``NearestNeighbors(algorithm="brute")``, the only
algorithm it offers for sparse input and the exact search it documents for high-dimensional
dense vectors. TF-IDF uses ``metric="cosine"`` (the distances are computed from the sparse
product in chunks). Dense vectors use ``metric="sqeuclidean"``: on unit rows it ranks exactly
like the cosine (``|a - b|^2 = 2 - 2 cos``) and is the metric its compiled top-k reduction
(``ArgKmin``) computes from a matrix product, several times faster than ``metric="cosine"``. On
TF-IDF both run on one thread (the lab's sparse search and scikit-learn's default
``n_jobs=None``); on dense vectors both use every core through BLAS (and OpenMP for
scikit-learn), as they do by default.

The stored vectors are seeded random unit vectors of 128 dimensions (LSA's default): throughput
does not depend on what the vectors mean, and an SVD of 100,000 chunks would take longer than
the whole benchmark.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.neighbors import NearestNeighbors

from bench.corpus import generated_corpus, generated_queries
from bench.measure import Row, format_table, paired_seconds
from lab.vectors import TfidfVectorizer, top_k_dense_product, top_k_sparse_product

SIZES = (20_000, 100_000)
#: A smoke run of a few seconds (``python -m bench --quick``).
QUICK = {"sizes": (600,), "repeat": 1, "n_queries": 100}
N_QUERIES = 1_000
K = 10
DIMENSION = 128


def _same_rankings(ours: list[list[tuple[int, float]]], rows: np.ndarray, scores: np.ndarray) -> float:
    """Share of queries whose top-k scores agree (float32 tolerance) with the reference's."""
    return float(np.mean([np.allclose([score for _, score in mine], their_scores[: len(mine)], atol=1e-5)
                          for mine, their_scores in zip(ours, scores)]))


def _tfidf_rows(size: int, n_queries: int, repeat: int) -> Row:
    corpus = generated_corpus(size)
    queries = generated_queries(corpus, n_queries)
    vectorizer = TfidfVectorizer()
    by_term = vectorizer.fit_transform(corpus.texts).tocsc()
    reference = NearestNeighbors(n_neighbors=K, algorithm="brute", metric="cosine").fit(by_term.tocsr())

    def lab() -> list[list[tuple[int, float]]]:
        return top_k_sparse_product(vectorizer.transform(queries), by_term, K, unmatched_score=0.0)

    def sklearn() -> tuple[np.ndarray, np.ndarray]:
        return reference.kneighbors(vectorizer.transform(queries))

    distances, rows = sklearn()
    check = f"same top-{K} scores for {_same_rankings(lab(), rows, 1 - distances):.1%} of {n_queries:,} queries"
    lab_seconds, their_seconds = paired_seconds(lab, sklearn, repeat)
    return Row(f"tfidf search, queries per second (top {K})", size, "q/s", n_queries / lab_seconds,
               n_queries / their_seconds, "NearestNeighbors cosine", check)


def _unit_rows(rng: np.random.Generator, n: int) -> np.ndarray:
    rows = rng.standard_normal((n, DIMENSION)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _dense_rows(size: int, n_queries: int, repeat: int) -> Row:
    rng = np.random.default_rng(size)
    matrix, queries = _unit_rows(rng, size), _unit_rows(rng, n_queries)
    reference = NearestNeighbors(n_neighbors=K, algorithm="brute", metric="sqeuclidean").fit(matrix)

    def lab() -> list[list[tuple[int, float]]]:
        return top_k_dense_product(queries, matrix, K)

    def sklearn() -> tuple[np.ndarray, np.ndarray]:
        return reference.kneighbors(queries)

    distances, rows = sklearn()
    check = f"same top-{K} scores for {_same_rankings(lab(), rows, 1 - distances / 2):.1%} of {n_queries:,} queries"
    lab_seconds, their_seconds = paired_seconds(lab, sklearn, repeat)
    return Row(f"stored {DIMENSION}-d vectors search, queries per second (top {K})", size, "q/s",
               n_queries / lab_seconds, n_queries / their_seconds, "NearestNeighbors sqeuclidean", check)


def main(sizes: Sequence[int] = SIZES, repeat: int = 3, n_queries: int = N_QUERIES) -> list[Row]:
    """Queries per second of TF-IDF and dense-vector search for each corpus size, lab against scikit-learn."""
    rows = []
    for size in sizes:
        rows.append(_tfidf_rows(size, n_queries, repeat))
        rows.append(_dense_rows(size, n_queries, repeat))
    return rows


if __name__ == "__main__":
    print(format_table(main()))
