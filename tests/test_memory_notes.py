"""Note retrieval for prompts, and what a prompt threshold does over labelled queries."""

from __future__ import annotations

from lab.memory import assemble_prompt
from lab.memory.notes import NoteIndex, threshold_effect

NOTES = [
    {"id": "n01", "title": "Mean in pandas", "text": "Call mean() on a column to average it; NaN is skipped."},
    {"id": "n02", "title": "Median in pandas", "text": "median() is robust to extreme values in a column."},
    {"id": "n03", "title": "Git branches", "text": "git switch -c creates a branch and moves onto it."},
]
QUERIES = [
    {"id": "q1", "query": "average of a pandas column", "relevant": ["n01"]},
    {"id": "q2", "query": "create a git branch", "relevant": ["n03"]},
    {"id": "q3", "query": "violin tuning", "relevant": []},
]


def test_the_title_is_indexed_with_the_text() -> None:
    index = NoteIndex(NOTES)
    assert index.retrieve("Median", k=1)[0].id == "n02"  # "Median" is in n02's title and text only


def test_threshold_zero_keeps_every_retrieved_note_and_counts_the_unrelated_ones() -> None:
    effect = threshold_effect(NoteIndex(NOTES), QUERIES, 0.0, k=2)
    assert effect.relevant_dropped == 0
    assert effect.unrelated_kept == 2 * len(QUERIES) - 2  # everything retrieved except the two relevant notes


def test_a_threshold_above_every_score_drops_the_relevant_notes_and_keeps_nothing_unrelated() -> None:
    effect = threshold_effect(NoteIndex(NOTES), QUERIES, 1.01, k=2)
    assert (effect.relevant_dropped, effect.unrelated_kept) == (2, 0)


def test_prompt_tokens_are_the_tokens_of_the_prompts_that_would_be_sent() -> None:
    index = NoteIndex(NOTES)
    expected = sum(assemble_prompt(q["query"], index.retrieve(q["query"], k=3), min_score=0.1).tokens
                   for q in QUERIES)
    assert threshold_effect(index, QUERIES, 0.1).prompt_tokens == expected
