"""Lesson 08's checkers (expected values computed, never typed) and the values exercise 2 asks about."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from lab.course.exercises import Exercises
from lab.datasets.study_notes import load_study_notes
from lab.memory import ContextParams, cost_usd, history_total_closed_form, sensitive_reason, totals
from lab.memory.notes import NoteIndex, threshold_effect

__all__ = ["CANDIDATES", "GOALS", "SENSITIVE_GOALS", "exercise", "key_figures"]

# Values a chat might try to save as the profile's "goal"; the labels are what a careful person
# would judge, not what the pattern sees.
GOALS = {
    "a": "my card is five five one two three four",
    "b": "I practise piano keys daily",
    "c": "call me on 55 1234 5678",
    "d": "my password is Sunflower",
    "e": "finish 120000 rows of SQL practice",
    "f": "ana at example dot com",
}
SENSITIVE_GOALS = frozenset({"a", "c", "d", "f"})
# (field, value) pairs a chat might try to save, for the "what not to store" check.
CANDIDATES = (
    ("goal", "pass the data exam in June"),
    ("goal", "help my friend Diego, he fails every statistics quiz"),
    ("topics", ["pandas", "my sister's thesis data"]),
    ("answer_style", "examples first; the wifi password is cuaderno2026"),
    ("note_about_diego", "Diego cannot stand jazz"),
    ("health", "appointment with the cardiologist tomorrow"),
)
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


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    totals = dict(pd.read_csv(tables / "08_totals.csv")[["strategy", "tokens_30_turns"]].values)
    bodies = pd.read_csv(tables / "08_request_bodies.csv")["body_bytes"]
    middle = pd.read_csv(tables / "08_lost_in_the_middle.csv").set_index("arrangement").loc["middle"]
    return (f"30 turns: history {totals['history']:,}, summary {totals['summary']:,}, retrieval "
            f"{totals['retrieval']:,} tokens; request body {bodies.iloc[0]:,} to {bodies.iloc[-1]:,} bytes "
            f"over {len(bodies)} turns; answer in the middle found {middle['middle weight 0.5']} times at weight 0.5")
