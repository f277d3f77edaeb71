"""The exercises at the end of each lesson: a checker per exercise, ``exercise(n).check(...)``.

Each ``lab.exercises.lessonNN`` declares its lesson's exercises on the functions that compute the
values it expects, with the lab's own code: a checker fits, searches or syncs as the exercise
asks, so that a change to the lab moves the expected value with it, and the learner, who has not
answered yet, does not read it in the lesson. The worked solutions are in the lessons, folded
under each exercise where running a notebook never executes them; the tests extract each one
(:mod:`lab.course.solutions`) and run it against its checker.

>>> from lab.exercises.lesson02 import exercise
"""

from lab.exercises.checking import EXERCISES_DIR, Exercise, ExerciseMismatch, Exercises, Feedback, same_value

__all__ = ["Exercise", "Exercises", "Feedback", "ExerciseMismatch", "same_value", "EXERCISES_DIR"]
