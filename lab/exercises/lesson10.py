"""The checkers of lesson 10's exercises (expected values computed, never typed)."""

from __future__ import annotations

from functools import lru_cache

import pandas as pd

from lab.answering import Answerer, Source, answer_table, build_prompt, flag_sources, tradeoff_table
from lab.course.lesson06 import fresh_world
from lab.course.lesson10 import FORGED, SEED, TYPO_QUESTION
from lab.exercises.checking import Exercises
from lab.exercises.runs import read_pages
from lab.ingest.sync import SyncConfig, full_index
from lab.retrieval import (TUNED, IndexSearcher, LabelledQuestion, Recipe, SearchCorpus, bakery_questions, source_units,
                           unanswerable_bakery_questions)
from lab.simulator import bakery_workspace


#: The checkers of the exercises at the end of lesson 10: ``exercise(1).check(...)``.
exercise = Exercises("lesson10")


@lru_cache(maxsize=None)
def _bakery() -> tuple[SearchCorpus, tuple[LabelledQuestion, ...]]:
    return Recipe().corpus(read_pages(SEED)), tuple(bakery_questions(bakery_workspace().page_id))


@exercise.define(1)
def _typos() -> dict:
    corpus, _ = _bakery()
    gold = (bakery_workspace().page_id("ficha-rol-de-canela"), "Alérgenos")

    def rank(recipe: Recipe) -> int:
        units = source_units(recipe.retriever().fit(corpus).search(TYPO_QUESTION, k=50))
        return units.index(gold) + 1 if gold in units else 0

    return {"rank_words": rank(Recipe()), "rank_tuned": rank(TUNED)}


@lru_cache(maxsize=None)
def _answers() -> pd.DataFrame:
    _, clock, client, store = fresh_world().parts
    full_index(client, store, clock, SyncConfig(dense=TUNED.dense_embedder()))
    answerer = Answerer(IndexSearcher(store, TUNED)).fit()
    return answer_table(answerer, bakery_questions(bakery_workspace().page_id), unanswerable_bakery_questions())


@exercise.define(2)
def _half_threshold() -> dict:
    row = tradeoff_table(_answers(), [0.5]).iloc[0]
    return {"coverage": float(row["coverage"]), "precision": float(row["precision"]),
            "unanswerable_abstained": float(row["unanswerable abstained"])}


@exercise.define(3)
def _forged_fence() -> dict:
    source = Source(number=1, title="Nota", section=None, url=None, edited=None, text=FORGED, chunk_id="x",
                    page_id=None, score=1.0)
    prompt = build_prompt("¿Qué es gratis?", [source])
    return {"closing_tags": prompt.text.count("</source>"), "flagged": len(flag_sources([source]))}


