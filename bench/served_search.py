"""The served search against the same recipe fitted in memory: what asking an index costs.

For the bakery (40 pages) and the bakery cloned to 2,000 pages (:mod:`bench.scale`'s workspace),
a full index is built into a file, then measured in this process. The bakery is searched with
TUNED, whose dense list reads multilingual-e5-small's vectors (the lab keeps those of the
bakery's chunks, so indexing it embeds nothing; each question is embedded, about 30 ms); the
2,000 pages with LEXICAL (the ladder's best before e5), since embedding 15,750 chunks would take
two hours on one core (a dense list over stored vectors adds a query's embedding and one matrix
product):

- opening: the first :class:`~lab.retrieval.IndexSearcher` fits the recipe the index records
  (TUNED) and keeps its state in the file; a second one, as another process would, loads it;
- per question: the served search answers lesson 10's public and held-out questions one at a
  time (p50 and p95 over several rounds), beside TUNED fitted in memory on the same chunks in
  the same row order, asked the same questions (the reference: what the served search adds to
  the recipe's own cost is reading the index's content stamp before each question).

Nothing here is checked against a time: the numbers are reported; equal rankings are checked.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

SIZES = {"bakery": (40, "tuned"), "bakery x50": (2_000, "lexical")}
QUICK_SIZES = {"bakery": (40, "tuned")}
ROUNDS = 5


def _questions() -> list[str]:
    from lab.retrieval import bakery_questions, heldout_bakery_questions
    from lab.simulator import bakery_workspace

    page_id = bakery_workspace().page_id
    return [q.question for q in (*bakery_questions(page_id), *heldout_bakery_questions(page_id))]


def _latencies_ms(search: Any, questions: list[str], rounds: int) -> np.ndarray:
    search(questions[0])  # the first call loads compiled code; it is the process's cost, not a question's
    found = []
    for _ in range(rounds):
        for question in questions:
            began = time.perf_counter()
            search(question)
            found.append(1000 * (time.perf_counter() - began))
    return np.array(found)


def measure(name: str, n_pages: int, recipe_name: str, rounds: int = ROUNDS,
            directory: str | Path | None = None) -> dict[str, Any]:
    """Index ``n_pages`` of the cloned bakery into a file and time opening and asking it with a recipe."""
    from bench.scale import _scaled_workspace
    from lab.index import IndexStore
    from lab.ingest.sync import SyncConfig, full_index
    from lab.retrieval import RECIPES, IndexSearcher, SearchCorpus

    recipe = RECIPES[recipe_name]

    sim, client = _scaled_workspace(n_pages, 0)
    questions = _questions()
    with tempfile.TemporaryDirectory(dir=directory) as scratch:
        path = Path(scratch) / "index.sqlite"
        with IndexStore(path) as store:
            full_index(client, store, sim.clock, SyncConfig(dense=recipe.dense_embedder(), search_recipe=recipe_name))
        began = time.perf_counter()
        with IndexStore(path) as store:
            first = IndexSearcher(store)
        fit_s = time.perf_counter() - began
        began = time.perf_counter()
        store = IndexStore(path)
        served = IndexSearcher(store)
        open_s = time.perf_counter() - began
        state_mb = store._db.execute("SELECT SUM(LENGTH(state)) FROM searcher_states").fetchone()[0] / 1e6
        in_memory = recipe.retriever().fit(SearchCorpus.from_chunks(store.chunks(), pages=store.pages()))
        same = served.search_many(questions, k=8) == in_memory.search_many(questions, k=8)
        served_ms = _latencies_ms(lambda q: served.search(q, k=8), questions, rounds)
        memory_ms = _latencies_ms(lambda q: in_memory.search(q, k=8), questions, rounds)
        chunks = len(served.corpus_)
        store.close()
    assert first.loaded_ is False and served.loaded_ is True
    return {"workspace": name, "pages": n_pages, "chunks": chunks, "recipe": recipe_name, "first open (fit) s": round(fit_s, 2),
            "open with kept state s": round(open_s, 3), "kept state MB": round(state_mb, 1),
            "served p50 ms": round(float(np.percentile(served_ms, 50)), 2),
            "served p95 ms": round(float(np.percentile(served_ms, 95)), 2),
            "in memory p50 ms": round(float(np.percentile(memory_ms, 50)), 2),
            "in memory p95 ms": round(float(np.percentile(memory_ms, 95)), 2),
            "ratio p50 served/in memory": round(float(np.percentile(served_ms, 50) / np.percentile(memory_ms, 50)), 2),
            "same rankings": same}


def main(quick: bool = False) -> pd.DataFrame:
    """Measure every workspace size and print one table."""
    sizes = QUICK_SIZES if quick else SIZES
    rounds = 1 if quick else ROUNDS
    table = pd.DataFrame([measure(name, pages, recipe, rounds) for name, (pages, recipe) in sizes.items()])
    print(f"served search (IndexSearcher) vs its recipe in memory, {len(_questions())} questions x {rounds} "
          "round(s), one at a time, top 8")
    print(table.to_string(index=False))
    return table
