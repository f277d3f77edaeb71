"""The checkers of lesson 07's exercises (expected values computed, never typed)."""

from __future__ import annotations

from functools import lru_cache

import pandas as pd

from lab.chunking.corpus import chunk_pages
from lab.client import FixedRate
from lab.course.lesson07 import SEED
from lab.exercises.checking import Exercises
from lab.exercises.runs import run_indexer
from lab.retrieval import BM25Retriever, SearchCorpus
from lab.retrieval.evaluation import (LabelledQuestion, RecallAt, evaluate_search, ndcg_at_k, recall_at_k,
                                      reciprocal_rank, source_units)
from lab.retrieval.labelled_sets import bakery_questions
from lab.simulator.workspaces import bakery_workspace
from lab.vectors import WordAnalyzer


#: The checkers of the exercises at the end of lesson 07: ``exercise(1).check(...)``.
exercise = Exercises("lesson07")


@lru_cache(maxsize=None)
def _bakery() -> tuple[SearchCorpus, tuple[LabelledQuestion, ...]]:
    read = run_indexer("paced", FixedRate(3.0), seed=SEED).read
    corpus = SearchCorpus.from_chunks(chunk_pages(read.pages).chunks)
    return corpus, tuple(bakery_questions(bakery_workspace().page_id))


def _bm25_recall_at_8(analyzer: WordAnalyzer) -> pd.Series:
    corpus, questions = _bakery()
    bm25 = BM25Retriever(analyzer=analyzer).fit(corpus)
    table = evaluate_search(lambda q: bm25.search(q.question, k=50), questions, [RecallAt(8)])
    return table.set_index("question")["recall@8"]


@exercise.define(1)
def _one_ranking_by_hand() -> dict:
    corpus, questions = _bakery()
    question = questions[1]
    ranked = source_units(BM25Retriever().fit(corpus).search(question.question, k=50))
    measures = {"recall@8": lambda units: recall_at_k(units, question.relevant, 8),
                "MRR": lambda units: reciprocal_rank(units, question.relevant),
                "nDCG@10": lambda units: ndcg_at_k(units, question.relevant, 10)}
    gold_first = sorted(ranked, key=lambda unit: unit not in question.relevant)  # the same sections, gold first
    unmoved = [name for name, measure in measures.items() if measure(gold_first) == measure(ranked)]
    return {"recall_at_8": measures["recall@8"](ranked), "reciprocal_rank": measures["MRR"](ranked),
            "ndcg_at_10": measures["nDCG@10"](ranked),
            "unmoved_by_order": unmoved[0] if len(unmoved) == 1 else set(unmoved)}


@exercise.define(2)
def _digits_kept() -> dict:
    _, questions = _bakery()
    dropped, kept = _bm25_recall_at_8(WordAnalyzer()), _bm25_recall_at_8(WordAnalyzer(keep_digits=True))
    moved = set(kept.index[kept != dropped])
    text_of = {q.id: q.question for q in questions}
    return {"recall_at_8": float(kept.mean()), "questions_moved": moved,
            "moved_with_a_digit": sum(any(c.isdigit() for c in text_of[qid]) for qid in moved)}


@exercise.define(3)
def _page_level() -> dict:
    corpus, questions = _bakery()
    bm25 = BM25Retriever().fit(corpus)
    section = evaluate_search(lambda q: bm25.search(q.question, k=50), questions, [RecallAt(8)])
    pages = bakery_questions(bakery_workspace().page_id, level="page")
    page = evaluate_search(lambda q: bm25.search(q.question, k=50), pages, [RecallAt(8)], level="page")
    return {"section_hit_rate": float((section["recall@8"] > 0).mean()),
            "page_hit_rate": float((page["recall@8"] > 0).mean())}


