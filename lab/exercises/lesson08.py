"""The checkers of lesson 08's exercises (expected values computed, never typed)."""

from __future__ import annotations

from lab.course.lesson08 import GOALS
from lab.datasets.study_notes import load_study_notes
from lab.exercises.checking import Exercises
from lab.memory import ContextParams, cost_usd, history_total_closed_form, sensitive_reason, totals
from lab.memory.notes import NoteIndex, threshold_effect

__all__ = ["exercise"]

SENSITIVE_GOALS = frozenset({"a", "c", "d", "f"})  # the goals a careful person would refuse
TURNS = 30


#: The checkers of the exercises at the end of lesson 08: ``exercise(1).check(...)``.
exercise = Exercises("lesson08")


@exercise.define(1)
def _rarer_summary() -> dict:
    other = ContextParams(n=10, summary_cap=400)
    sums = totals(TURNS, other)
    return {"summary_tokens": sums["summary"], "summary_usd": cost_usd(sums["summary"], other),
            "history_tokens": history_total_closed_form(TURNS, other)}


@exercise.define(2)
def _pattern() -> dict:
    refused = {label for label, value in GOALS.items() if sensitive_reason(value) is not None}
    return {"refused": frozenset(refused), "slipped_through": frozenset(SENSITIVE_GOALS - refused)}


@exercise.define(3)
def _highest_threshold() -> dict:
    corpus = load_study_notes()
    notes = NoteIndex(corpus["notes"])
    relevant_scores = [note.score for query in corpus["queries"] for note in notes.retrieve(query["query"], k=3)
                       if note.id in query["relevant"]]
    highest = min(relevant_scores)
    return {"highest_threshold": highest,
            "unrelated_kept": threshold_effect(notes, corpus["queries"], highest).unrelated_kept}
