"""The checkers of lesson 11's exercises (expected values computed, never typed)."""

from __future__ import annotations

from functools import lru_cache

import pandas as pd

from lab.answering import ALLERGY_RULE, Answerer, Source, answer_table, build_prompt, flag_sources, tradeoff_table
from lab.course.lesson06 import fresh_world
from lab.course.lesson11 import FORGED
from lab.exercises.checking import Exercises
from lab.ingest.sync import SyncConfig, full_index
from lab.retrieval import TUNED, IndexSearcher, bakery_questions, unanswerable_bakery_questions
from lab.simulator import bakery_workspace

__all__ = ["exercise"]

#: The checkers of the exercises at the end of lesson 11: ``exercise(1).check(...)``.
exercise = Exercises("lesson11")


@lru_cache(maxsize=None)
def _answers() -> pd.DataFrame:
    _, clock, client, store = fresh_world().parts
    full_index(client, store, clock, SyncConfig(dense=TUNED.dense_embedder()))
    answerer = Answerer(IndexSearcher(store, TUNED), escalate=(ALLERGY_RULE,)).fit()
    return answer_table(answerer, bakery_questions(bakery_workspace().page_id), unanswerable_bakery_questions())


@exercise.define(1)
def _half_threshold() -> dict:
    row = tradeoff_table(_answers(), [0.5]).iloc[0]
    return {"coverage": float(row["coverage"]), "precision": float(row["precision"]),
            "unanswerable_abstained": float(row["unanswerable abstained"])}


@exercise.define(2)
def _forged_fence() -> dict:
    source = Source(number=1, title="Nota", section=None, url=None, edited=None, text=FORGED, chunk_id="x",
                    page_id=None, score=1.0)
    prompt = build_prompt("¿Qué es gratis?", [source])
    return {"closing_tags": prompt.text.count("</source>"), "flagged": len(flag_sources([source]))}
