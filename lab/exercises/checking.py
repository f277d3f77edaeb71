"""Exercises a learner can try: a marked place to answer, and a checker that says what it expected.

A lesson's exercise cell leaves ``...`` where the learner writes, and ends with
``exercise(n).check(name=value, ...)``. Untouched, the cell reports "not answered yet" (so the
lesson still runs top to bottom); answered, it says which values match and, for those that do
not, what was expected, what it got, and a hint. The worked solution calls
``exercise(n).assert_solved(...)``, which raises :class:`ExerciseMismatch` with the same
message, so a solution that drifts from its lesson fails the tests.

Expected values are computed by the lab's own code in ``lab.exercises.lessonNN``, never typed in.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from lab.course.paths import DATA_DIR
from lab.errors import LabError

__all__ = ["Exercise", "Exercises", "Feedback", "ExerciseMismatch", "same_value", "EXERCISES_DIR"]

#: Hints and tolerances of each lesson's exercises, one TOML file per lesson.
EXERCISES_DIR = DATA_DIR / "exercises"


class ExerciseMismatch(LabError, AssertionError):
    """A worked solution no longer gives the lesson's expected values."""


@dataclass(frozen=True)
class Feedback:
    """What the checker says about one attempt; shown as plain text when a cell ends with it."""

    title: str
    status: str  # "not answered yet", "correct" or "not yet"
    lines: tuple[str, ...] = ()

    @property
    def solved(self) -> bool:
        return self.status == "correct"

    def __str__(self) -> str:
        if len(self.lines) == 1:
            return f"{self.title} · {self.status}: {self.lines[0]}"
        return "\n".join([f"{self.title} · {self.status}"] + [f"  {line}" for line in self.lines])

    def _repr_pretty_(self, printer, cycle: bool) -> None:  # IPython's plain-text display
        printer.text(str(self))

    def __repr__(self) -> str:
        return str(self)


def same_value(expected: Any, got: Any, rel: float = 0.0, abs_: float = 0.0) -> bool:
    """Equality a learner would accept: numbers within a tolerance, strings without case or
    surrounding spaces, any collection of strings compared as a set when expected is a set.

    A NumPy or pandas answer counts as its plain values; an answer no comparison applies to (a
    table where a number goes, a number too large for a float) is not the answer, never an error."""
    try:
        return _same(_plain(expected), _plain(got), rel, abs_)
    except (TypeError, ValueError, OverflowError):
        return False


def _same(expected: Any, got: Any, rel: float, abs_: float) -> bool:
    if isinstance(expected, bool) or isinstance(got, bool):
        return isinstance(got, bool) and expected == got
    if isinstance(expected, (int, float)) and isinstance(got, (int, float)):
        return expected == got or math.isclose(float(expected), float(got), rel_tol=rel, abs_tol=abs_)
    if isinstance(expected, str) and isinstance(got, str):
        return expected.strip().casefold() == got.strip().casefold()
    if isinstance(expected, (set, frozenset)) and isinstance(got, (set, frozenset, list, tuple)):
        return {_fold(x) for x in expected} == {_fold(x) for x in got}
    if isinstance(expected, pd.DataFrame) or isinstance(got, pd.DataFrame):
        return isinstance(expected, pd.DataFrame) and isinstance(got, pd.DataFrame) and expected.equals(got)
    return bool(expected == got)


def _plain(value: Any) -> Any:
    """A NumPy scalar, array or a pandas Series as the Python value or list it holds."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (np.ndarray, pd.Series, pd.Index)):
        return value.tolist()
    return value


def _fold(value: Any) -> Any:
    return value.strip().casefold() if isinstance(value, str) else value


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(repr(v) for v in value)) + "}"
    return repr(value)


@dataclass(frozen=True)
class Exercise:
    """One exercise: the names the learner fills in, how to compute the expected values, a hint.

    ``expected`` is called at most once, on the first check. ``tolerance`` maps a name to a
    relative tolerance for numbers (exact when absent); ``absolute`` to an absolute one.
    """

    title: str
    expected: Callable[[], Mapping[str, Any]]
    hint: str
    tolerance: Mapping[str, float] = field(default_factory=dict)
    absolute: Mapping[str, float] = field(default_factory=dict)

    @cached_property
    def _expected(self) -> Mapping[str, Any]:
        return dict(self.expected())

    def check(self, **answers: Any) -> Feedback:
        """Compare the learner's values with the expected ones; never raises for a wrong answer.

        An untouched cell (every value still ``...``) is answered at once, without computing the
        expected values.
        """
        if answers and all(value is ... for value in answers.values()):
            return self._unanswered(list(answers))
        unknown = sorted(set(answers) - set(self._expected))
        if unknown:
            raise TypeError(f"{self.title} asks for {', '.join(sorted(self._expected))}; "
                            f"it has no answer named {', '.join(unknown)}")
        blank = [name for name in self._expected if answers.get(name, ...) is ...]
        if blank:
            return self._unanswered(blank)
        wrong = [name for name in self._expected if not self._matches(name, answers[name])]
        if not wrong:
            return Feedback(self.title, "correct",
                            (", ".join(f"{name} = {_show(answers[name])}" for name in self._expected),))
        lines = [f"{name}: expected {_show(self._expected[name])}, got {_show(answers[name])}" for name in wrong]
        right = [name for name in self._expected if name not in wrong]
        if right:
            lines.append("right: " + ", ".join(right))
        return Feedback(self.title, "not yet", tuple(lines) + (f"hint: {self.hint}",))

    def _unanswered(self, blank: list[str]) -> Feedback:
        return Feedback(self.title, "not answered yet",
                        (f"replace the ... of {_join(blank)} with your answer and run the cell again",))

    def assert_solved(self, **answers: Any) -> Feedback:
        """Like :meth:`check`, but a solution that does not give the expected values raises."""
        feedback = self.check(**answers)
        if not feedback.solved:
            raise ExerciseMismatch(str(feedback))
        return feedback

    def _matches(self, name: str, got: Any) -> bool:
        return same_value(self._expected[name], got, rel=self.tolerance.get(name, 0.0),
                          abs_=self.absolute.get(name, 0.0))


class Exercises:
    """A lesson's exercises by number, so a lesson writes ``exercise(1).check(...)``.

    Each exercise is declared on the function that computes its expected values; its hint and
    tolerances are prose and numbers a teacher may edit, so they live in
    ``data/exercises/<lesson>.toml`` (one ``[n]`` table per exercise)::

        exercise = Exercises("lesson02")

        @exercise.define(1)
        def _fast_paced_pass() -> dict:
            ...
    """

    def __init__(self, lesson: str, folder: Path = EXERCISES_DIR) -> None:
        self.lesson = lesson
        self.path = folder / f"{lesson}.toml"
        with self.path.open("rb") as handle:
            self._settings = {int(number): table for number, table in tomllib.load(handle).items()}
        self._exercises: dict[int, Exercise] = {}

    def define(self, number: int) -> Callable[[Callable[[], Mapping[str, Any]]], Callable[[], Mapping[str, Any]]]:
        """Declare exercise ``number``: the decorated function computes its expected values."""
        if number not in self._settings:
            raise ValueError(f"{self.path} has no [{number}] table with the exercise's hint")
        settings = self._settings[number]

        def register(expected: Callable[[], Mapping[str, Any]]) -> Callable[[], Mapping[str, Any]]:
            if number in self._exercises:
                raise ValueError(f"{self.lesson} declares exercise {number} twice")
            self._exercises[number] = Exercise(f"Exercise {number}", expected, hint=settings["hint"],
                                               tolerance=settings.get("tolerance", {}),
                                               absolute=settings.get("absolute", {}))
            return expected
        return register

    def __call__(self, number: int) -> Exercise:
        if number not in self._exercises:
            raise ValueError(f"{self.lesson} has exercises {', '.join(map(str, sorted(self._exercises)))}, "
                             f"not {number}")
        return self._exercises[number]
