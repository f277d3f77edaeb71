"""Exercise checkers: untouched cells report 'not answered yet', wrong answers name expected and got."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lab.exercises import Exercise, ExerciseMismatch, same_value

calls: list[int] = []


def _expected() -> dict:
    calls.append(1)
    return {"requests": 180, "seconds": 60.0, "pages": {"Política de cancelaciones"}}


def _exercise() -> Exercise:
    return Exercise("Exercise 3", _expected, hint="the window budget is 180", tolerance={"seconds": 0.01})


def test_an_untouched_cell_reports_not_answered_and_names_the_blanks() -> None:
    feedback = _exercise().check(requests=..., seconds=..., pages=...)
    assert feedback.status == "not answered yet" and not feedback.solved
    assert "requests, seconds and pages" in str(feedback)
    assert "180" not in str(feedback)  # the answer is not given away before an attempt


def test_a_wrong_answer_says_what_was_expected_what_it_got_and_gives_the_hint() -> None:
    feedback = _exercise().check(requests=126, seconds=60.3, pages=["política de cancelaciones "])
    text = str(feedback)
    assert feedback.status == "not yet"
    assert "requests: expected 180, got 126" in text
    assert "hint: the window budget is 180" in text
    assert "right: seconds, pages" in text


def test_a_right_answer_is_correct_within_the_stated_tolerance() -> None:
    assert _exercise().check(requests=180, seconds=60.5, pages={"Política de cancelaciones"}).solved


def test_expected_values_are_computed_once_on_the_first_check() -> None:
    exercise = _exercise()
    before = len(calls)
    exercise.check(requests=1, seconds=1, pages=set())
    exercise.check(requests=1, seconds=1, pages=set())
    assert len(calls) == before + 1


def test_a_solution_that_drifts_from_its_lesson_raises_with_the_message() -> None:
    with pytest.raises(ExerciseMismatch, match="expected 180, got 179"):
        _exercise().assert_solved(requests=179, seconds=60.0, pages={"Política de cancelaciones"})
    assert _exercise().assert_solved(requests=180, seconds=60.0, pages={"Política de cancelaciones"}).solved


def test_an_answer_under_a_name_the_exercise_does_not_ask_for_is_refused() -> None:
    with pytest.raises(TypeError, match="no answer named request"):
        _exercise().check(request=180)


@pytest.mark.parametrize("expected, got, same", [
    (3, 3.0, True), (True, 1, False), ("Sí", " sí ", True), ({"a", "B"}, ["b", "A"], True), (0.5, 0.51, False),
])
def test_values_compare_as_a_learner_would_expect(expected, got, same) -> None:
    assert same_value(expected, got) is same


@pytest.mark.parametrize("expected, got, same", [
    (3, np.int64(3), True), (True, np.bool_(True), True), ([1, 2], np.array([1, 2]), True),
    ({"a", "b"}, pd.Series(["B", "a"]), True), (3, np.array([1, 2]), False), (3, pd.Series([3, 3]), False),
    (3, pd.DataFrame({"n": [3]}), False), (3, 10 ** 400, False), (10 ** 400, 10 ** 400, True),
    ({"a"}, [["a"]], False),
])
def test_a_numpy_or_pandas_answer_or_one_no_comparison_applies_to_is_judged_never_raised(expected, got, same) -> None:
    assert same_value(expected, got) is same


def test_an_untouched_cell_answers_at_once_without_computing_the_expected_values() -> None:
    before = len(calls)
    assert _exercise().check(requests=..., seconds=..., pages=...).status == "not answered yet"
    assert len(calls) == before


def test_a_lesson_declares_each_exercise_on_the_function_computing_its_answer(tmp_path) -> None:
    from lab.exercises import Exercises

    (tmp_path / "lesson99.toml").write_text('[1]\nhint = "count them"\nabsolute = { n = 0.5 }\n')
    exercise = Exercises("lesson99", folder=tmp_path)

    @exercise.define(1)
    def _count() -> dict:
        return {"n": 3}

    assert exercise(1).title == "Exercise 1" and exercise(1).check(n=3.4).solved
    assert "hint: count them" in str(exercise(1).check(n=5))
    with pytest.raises(ValueError, match="lesson99 has exercises 1, not 2"):
        exercise(2)
    with pytest.raises(ValueError, match="declares exercise 1 twice"):
        exercise.define(1)(_count)
    with pytest.raises(ValueError, match=r"no \[2\] table"):
        exercise.define(2)


def test_every_lesson_has_a_hint_for_each_of_its_exercises() -> None:
    import importlib

    from lab.course.pipeline import lesson_paths

    for path in lesson_paths():
        module = importlib.import_module(f"lab.exercises.lesson{path.name[:2]}")
        numbers = sorted(module.exercise._exercises)
        assert numbers in ([1, 2], [1, 2, 3]) and all(module.exercise(n).hint for n in numbers), path.name
