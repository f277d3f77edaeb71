"""The answer cache: kept while the index version stands, forgotten when it moves."""

from __future__ import annotations

import pytest

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


def test_a_question_that_is_not_text_or_a_version_that_is_not_a_generation_is_refused() -> None:
    cache: AnswerCache[str] = AnswerCache()
    with pytest.raises(TypeError, match="question is the question's text"):
        cache.answer(None, 1, str)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"version is the index's generation \(an int, store.generation\(\)\)"):
        cache.answer("¿Abren el domingo?", "3", str)  # type: ignore[arg-type]
    assert len(cache) == 0 and cache.misses == 0


def test_an_answer_computed_for_one_audience_is_never_served_to_another() -> None:
    cache, calls = AnswerCache(), []
    hr = cache.answer("When is payroll?", 3, lambda q: calls.append("hr") or "Friday, from the pay page", audience="hr")
    support = cache.answer("When is payroll?", 3, lambda q: calls.append("support") or "not answered",
                           audience="support")
    owner = cache.answer("When is payroll?", 3, lambda q: calls.append("owner") or "Friday")
    assert (hr.hit, support.hit, owner.hit, support.answer, calls) == (False, False, False, "not answered",
                                                                       ["hr", "support", "owner"])
    again = cache.answer("when is payroll?", 3, lambda q: "recomputed", audience="hr")
    assert (again.hit, again.answer, again.audience, len(cache)) == (True, "Friday, from the pay page", "hr", 3)
    with pytest.raises(TypeError, match="audience is an audience's name"):
        cache.answer("When is payroll?", 3, str, audience=5)  # type: ignore[arg-type]
