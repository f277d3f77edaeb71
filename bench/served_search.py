"""The served search against the same recipe fitted in memory: what asking an index costs.

For the bakery (40 pages) and the bakery cloned to 2,000 pages (:mod:`bench.scale`'s workspace),
a full index is built into a file, then measured in this process. The bakery is searched with
TUNED, whose dense list reads multilingual-e5-small's vectors (the lab keeps those of the
bakery's chunks, so indexing it embeds nothing; each question is embedded, about 30 ms); the
2,000 pages with LEXICAL (the ladder's best before e5), and the bakery cloned to 10,000 pages
(78,750 chunks) with TUNED again. Embedding 78,750 chunks would take about an hour here, so each
copy's chunk is given its original's kept vector (a copy differs from its original only by
"(copia N)" in its title, which the heading line of each chunk carries): the matrix the dense list
multiplies has the full size, and each question is embedded by the model as a served query is.
The rankings are real rankings of that index; they are not lesson 10's figures.

- opening: the first :class:`~lab.retrieval.IndexSearcher` fits the recipe the index records
  (TUNED) and keeps its state in the file; a second one, as another process would, loads it;
- per question: the served search answers lesson 10's public and held-out questions one at a
  time (p50 and p95 over several rounds), beside TUNED fitted in memory on the same chunks in
  the same row order, asked the same questions (the reference: what the served search adds to
  the recipe's own cost is reading the index's content stamp before each question).

Nothing here is checked against a time: the numbers are reported; equal rankings are checked.
"""

from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

SIZES = {"bakery": (40, "tuned"), "bakery x50": (2_000, "lexical"), "bakery x250": (10_000, "tuned")}
QUICK_SIZES = {"bakery": (40, "tuned")}
ROUNDS = 5


def _questions() -> list[str]:
    from lab.retrieval import bakery_questions, heldout_bakery_questions
    from lab.simulator import bakery_workspace

    page_id = bakery_workspace().page_id
    return [q.question for q in (*bakery_questions(page_id), *heldout_bakery_questions(page_id))]


_COPY_MARK = re.compile(r" \(copia [0-9]+\)")


class _OriginalVectors:
    """Passages get the kept vector of the original they were copied from ("(copia N)" taken out of the
    text); questions go to the model. Everything else is the wrapped embedder's."""

    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder
        self.name, self.max_input_tokens = embedder.name, embedder.max_input_tokens

    def embed_documents(self, texts: Any) -> Any:
        return self.embedder.embed_documents([_COPY_MARK.sub("", text) for text in texts])

    def embed_query(self, text: str) -> Any:
        return self.embedder.embed_query(text)


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
            dense = recipe.dense_embedder()
            if dense is not None and n_pages > 40:
                dense = _OriginalVectors(dense)
            full_index(client, store, sim.clock, SyncConfig(dense=dense, search_recipe=recipe_name))
        began = time.perf_counter()
        with IndexStore(path) as store:
            first = IndexSearcher(store)
        fit_s = time.perf_counter() - began
        began = time.perf_counter()
        store = IndexStore(path)
        served = IndexSearcher(store)
        open_s = time.perf_counter() - began
        state_mb = store._db.execute("SELECT SUM(LENGTH(state)) FROM searcher_states").fetchone()[0] / 1e6
        # the copies' texts are not in the kept vectors: the reference reads the index's, as the served search does
        rows = (SearchCorpus.from_index(store) if n_pages > 40 and recipe.dense is not None
                else SearchCorpus.from_chunks(store.chunks(), pages=store.pages()))
        in_memory = recipe.retriever().fit(rows)
        same = served.search_many(questions, k=8) == in_memory.search_many(questions, k=8)
        # the lab keeps the vectors of these questions; a served question is new, so the model embeds it in
        # each timed call (the search then reads the same vector from the kept ones)
        model = recipe.dense_embedder().model() if recipe.dense is not None else None
        embed = (lambda q: model.embed_query(q)) if model is not None else (lambda q: None)
        served_ms = _latencies_ms(lambda q: (embed(q), served.search(q, k=8)), questions, rounds)
        memory_ms = _latencies_ms(lambda q: (embed(q), in_memory.search(q, k=8)), questions, rounds)
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
          "round(s), one at a time, top 8; with TUNED each timed question is embedded by the model")
    print(table.to_string(index=False))
    return table
