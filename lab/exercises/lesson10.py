"""The checkers of lesson 10's exercises (expected values computed, never typed)."""

from __future__ import annotations

from functools import lru_cache

from lab.course.lesson10 import SEED, TYPO_QUESTION
from lab.exercises.checking import Exercises
from lab.exercises.runs import read_pages
from lab.retrieval import TUNED, LabelledQuestion, Recipe, SearchCorpus, Step, bakery_questions, climb, source_units
from lab.simulator import bakery_workspace
from lab.vectors import CharNgramAnalyzer

__all__ = ["exercise"]

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


@exercise.define(2)
def _four_grams_alone() -> dict:
    _, questions = _bakery()
    step = Step("character 4-grams", {"analyzer": CharNgramAnalyzer(n=4)})
    row = climb(Recipe(), [step], read_pages(SEED), questions, seed=SEED).table.iloc[1]
    up, down = (int(n) for n in row["recall@8 up/down"].split("/"))
    return {"questions_up": up, "questions_down": down, "low": float(row["low recall@8"]), "kept": bool(row["kept"])}
