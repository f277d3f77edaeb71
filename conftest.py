"""The lessons' test wiring (``tests/lesson_run.py``), registered here at the root so that its hooks reach
the lessons in ``notebooks/`` as well as the tests in ``tests/``."""

pytest_plugins = ["tests.lesson_run"]
