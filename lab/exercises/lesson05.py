"""The checkers of lesson 05's exercises (expected values computed, never typed)."""

from __future__ import annotations

import json
import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from lab.chunking import Chunk
from lab.chunking.corpus import chunk_pages
from lab.client import FixedRate
from lab.course.lesson05 import NOT_SOLD, QUESTIONS, SEED
from lab.exercises.checking import Exercises
from lab.exercises.runs import run_indexer
from lab.index import TFIDF_MODEL, IndexStore
from lab.retrieval import OfflineIndex
from lab.vectors import WordAnalyzer

__all__ = ["exercise"]

MIN_SCORE = 0.2


#: The checkers of the exercises at the end of lesson 05: ``exercise(1).check(...)``.
exercise = Exercises("lesson05")


@lru_cache(maxsize=None)
def _lesson_index() -> tuple[list[Chunk], OfflineIndex]:
    """The lesson's chunks and index, built as its first cells build them."""
    chunks = chunk_pages(run_indexer("paced", FixedRate(3.0), seed=SEED).read.pages).chunks
    return chunks, OfflineIndex(chunks, analyzer=WordAnalyzer(stop_words="es", keep_digits=False),
                                lsa_components=128)


@exercise.define(1)
def _by_hand() -> dict:
    chunks, index = _lesson_index()
    allergens = next(c for c in chunks if c.title == "Ficha: Rol de canela" and c.section == "Alérgenos")
    return {"nuez_idf": float(index.tfidf.idf_[index.tfidf.vocabulary_["nuez"]]),
            "allergen_score": index.explain(QUESTIONS[0], allergens).score}


@exercise.define(2)
def _threshold() -> dict:
    _, index = _lesson_index()
    store = IndexStore(":memory:")
    index.save(store)
    kept = [len(index.ask(store, q, TFIDF_MODEL, k=3, min_score=MIN_SCORE)) for q in QUESTIONS]
    return {"kept_chunks": sum(kept), "answered_questions": sum(n > 0 for n in kept),
            "bicycles_best_score": float(index.ask(store, NOT_SOLD, TFIDF_MODEL, k=1)["score"].iloc[0])}


def _json_bytes(vectors: np.ndarray) -> int:
    return sum(len(json.dumps(vector.tolist())) for vector in vectors)


@exercise.define(3)
def _read_back() -> dict:
    chunks, index = _lesson_index()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "index.sqlite"
        index.save(IndexStore(path))
        again = IndexStore(path)
        _, lsa = again.vectors(index.lsa_name)
        _, tfidf = again.vectors(TFIDF_MODEL)
        lsa_blob, tfidf_blob = again.vector_bytes(index.lsa_name), again.vector_bytes(TFIDF_MODEL)
    order = np.argsort([c.id for c in chunks], kind="stable")  # the store returns rows in id order
    return {"same_vectors": bool(np.array_equal(lsa, index.lsa_matrix[order].astype(np.float32))),
            "lsa_json_ratio": _json_bytes(lsa) / lsa_blob, "tfidf_json_ratio": _json_bytes(tfidf) / tfidf_blob}
