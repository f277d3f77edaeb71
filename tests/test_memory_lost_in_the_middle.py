"""Lost in the middle, offline: a reader that weighs the middle of a long context least, and what it costs."""

from __future__ import annotations

import pytest

from lab.datasets import load_study_notes
from lab.memory import ARRANGEMENTS, NoteIndex, PositionalReader, RetrievedNote, attention, place, placement_effect

NOTES = [RetrievedNote(f"n{i:02d}", 0.0, f"Note {i}", text) for i, text in enumerate([
    "git branches and merges", "pandas groupby computes summary statistics per group", "sql left join keeps unmatched rows",
    "regular expressions capture groups", "pandas describe summary statistics"], start=1)]


def test_attention_is_one_at_both_ends_and_one_minus_depth_in_the_middle() -> None:
    assert attention(0, 11) == attention(10, 11) == 1.0
    assert attention(5, 11, depth=0.5) == pytest.approx(0.5)
    weights = [attention(i, 11, depth=0.3) for i in range(11)]
    assert weights == weights[::-1] and min(weights) == pytest.approx(0.7)
    assert attention(0, 1) == 1.0 and all(attention(i, 11, depth=0.0) == 1.0 for i in range(11))
    with pytest.raises(ValueError, match="position"):
        attention(11, 11)


def test_place_moves_one_passage_and_keeps_the_others_in_order() -> None:
    ids = lambda passages: [p.id for p in passages]  # noqa: E731
    assert ids(place(NOTES, "n03", "start")) == ["n03", "n01", "n02", "n04", "n05"]
    assert ids(place(NOTES, "n03", "middle")) == ["n01", "n02", "n03", "n04", "n05"]
    assert ids(place(NOTES, "n01", "end")) == ["n02", "n03", "n04", "n05", "n01"]
    with pytest.raises(ValueError, match="start"):
        place(NOTES, "n01", "top")
    with pytest.raises(ValueError, match="once"):
        place(NOTES, "n99", "start")


def test_a_flat_reader_answers_from_the_most_similar_passage_wherever_it_sits() -> None:
    question = "which join keeps unmatched rows"
    for where in ("start", "middle", "end"):
        assert PositionalReader(depth=0.0).read(question, place(NOTES, "n03", where)).answer_id == "n03"


def test_a_close_competitor_at_an_edge_beats_the_right_passage_in_the_middle_but_not_at_the_start() -> None:
    question = "summary statistics in pandas"
    reader = PositionalReader(depth=0.5)
    rivals = [NOTES[1], NOTES[0], NOTES[4], NOTES[2], NOTES[3]]  # the pandas rival first, the answer in the middle
    reading = reader.read(question, rivals)
    assert reading.answer_id == "n02" and reading.ids.index("n05") == 2
    assert reader.read(question, place(rivals, "n05", "start")).answer_id == "n05"
    assert reading.relevance[2] > reading.relevance[0] and reading.weights[2] == pytest.approx(0.5)


def test_the_reader_refuses_an_empty_context_and_a_depth_that_silences_the_middle() -> None:
    with pytest.raises(ValueError, match="empty"):
        PositionalReader().read("q", [])
    with pytest.raises(ValueError, match="depth"):
        PositionalReader(depth=1.0)


def test_on_the_study_notes_the_middle_loses_answers_that_the_start_the_end_and_retrieval_order_keep() -> None:
    corpus = load_study_notes()
    table = placement_effect(NoteIndex(corpus["notes"]), corpus["queries"]).set_index("arrangement")
    assert list(table.index) == list(ARRANGEMENTS)
    answerable = sum(bool(q["relevant"]) for q in corpus["queries"])
    assert (table["middle weight 1.0"] == answerable).all()  # without the U, position does not matter
    for arrangement in ("start", "end", "retrieval order"):
        assert table.loc[arrangement, "middle weight 0.5"] == answerable
    assert table.loc["middle", "middle weight 0.5"] < table.loc["middle", "middle weight 0.7"] < answerable
    assert table.loc["retrieval order", "position"] == "1"
