"""Lesson 05's seed, its questions, what an exhaustive search costs as an index grows, and the
figures its run summary reports."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["SEED", "QUESTIONS", "NOT_SOLD", "PGVECTOR_HEADER_BYTES", "exhaustive_search_costs", "key_figures"]

SEED = 5  # seeds the simulated read (latency, faults) and the SVD map's solver
QUESTIONS = ("¿El rol de canela lleva nuez?", "¿Hasta cuándo puedo cancelar un pastel?", "¿Abren el 1 de mayo?")
NOT_SOLD = "¿Venden bicicletas eléctricas?"


#: What a ``vector`` value takes in PostgreSQL with pgvector besides its 4 bytes per dimension (its README:
#: "each vector takes 4 * dimensions + 8 bytes of storage"), before any index.
PGVECTOR_HEADER_BYTES = 8

_ROWS_PER_BLOCK = 10_000  # random rows drawn at a time, so that drawing never holds a float64 copy


def _unit_rows(rng: np.random.Generator, rows: int, dimension: int) -> np.ndarray:
    matrix = np.empty((rows, dimension), dtype=np.float32)
    for start in range(0, rows, _ROWS_PER_BLOCK):
        block = matrix[start:start + _ROWS_PER_BLOCK]
        rng.standard_normal(out=block, dtype=np.float32)
        block /= np.linalg.norm(block, axis=1, keepdims=True)
    return matrix


def exhaustive_search_costs(sizes: Sequence[int], dimension: int, *, built_up_to: int = 100_000,
                            seed: int = SEED) -> pd.DataFrame:
    """What one exact search costs over ``size`` stored unit vectors of ``dimension`` floats, for each
    size: the megabytes the rows take in memory (float32) and in PostgreSQL with pgvector, and the
    multiply-adds one question needs (every row, every dimension). Up to ``built_up_to`` rows the
    matrix is built from seeded random unit vectors and searched as the lab's dense searches run
    (:func:`lab.vectors.top_k_dense_product`), with one of its rows as the question, which must come
    first; past it the figures are computed from the same formulas and nothing is allocated. Every
    figure is a count, the same on every run and machine (no clock is read)."""
    from lab.vectors import top_k_dense_product

    rows = []
    for size in sizes:
        searched = "computed"
        if size <= built_up_to:
            matrix = _unit_rows(np.random.default_rng(seed), size, dimension)
            question = size // 2  # one of the stored rows, which an exact search must return first
            (first, _score), = top_k_dense_product(matrix[question], matrix, k=1)[0]
            if first != question:
                raise AssertionError(f"the exact search over {size:,} rows returned row {first}, not {question}")
            searched, nbytes = "built, searched: exact", matrix.nbytes
            del matrix
        else:
            nbytes = size * dimension * np.dtype(np.float32).itemsize
        rows.append({"chunks": size, "float32_mb": round(nbytes / 1e6, 1),
                     "pgvector_mb": round(size * (4 * dimension + PGVECTOR_HEADER_BYTES) / 1e6, 1),
                     "multiply_adds_per_question": size * dimension, "here": searched})
    return pd.DataFrame(rows)


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    matrix = pd.read_csv(tables / "05_tfidf_matrix.csv").iloc[0]
    answers = pd.read_csv(tables / "05_counter_questions.csv")
    top = answers[answers["rank"] == 1]
    mapped = pd.read_csv(tables / "05_map_stats.csv").iloc[0]
    return (f"TF-IDF {int(matrix['chunks'])} x {int(matrix['vocabulary'])} ({matrix['non_zero_pct']} % non-zero); "
            f"top-1 scores {', '.join(f'{s:.3f}' for s in top['score'])}; map variance "
            f"{mapped['explained_variance_pct']} %, purity {mapped['nearest_neighbour_purity_pct']} %")
