"""The answer cache: kept while the index version stands, forgotten when it moves."""

from __future__ import annotations

from lab.answering import AnswerCache


def test_the_same_question_at_the_same_index_version_is_a_hit() -> None:
    cache, calls = AnswerCache(), []
    first = cache.answer("When is payroll?", 3, lambda q: calls.append(q) or "Friday")
    again = cache.answer("  when is   PAYROLL? ", 3, lambda q: calls.append(q) or "changed")
    assert (first.hit, again.hit, again.answer, len(calls)) == (False, True, "Friday", 1)
    assert (cache.hits, cache.misses) == (1, 1)


def test_a_newer_index_version_is_a_miss_and_drops_the_older_answers() -> None:
    cache = AnswerCache()
    cache.answer("When is payroll?", 3, lambda q: "Friday")
    later = cache.answer("When is payroll?", 4, lambda q: "Thursday")
    assert (later.hit, later.answer, len(cache)) == (False, "Thursday", 1)
