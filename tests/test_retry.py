"""The retry policy every client asks: which answers are retried, how long each wait is, when to give up."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from lab.retry import Attempt, RetryPolicy, parse_retry_after, send_with_retries

POLICY = RetryPolicy(max_attempts=4, backoff_base=0.5, backoff_cap=8.0, max_wait=30.0, seed=0)


@dataclass(frozen=True)
class Backoff:
    """A jittered backoff under ``ceiling``: equal jitter waits in (ceiling/2, ceiling]."""

    ceiling: float


NETWORK = None  # no answer at all

DECISIONS = [
    # status, Retry-After, idempotent, attempt -> seconds, Backoff(ceiling) or None (give up)
    (429, 3.0, True, 1, 3.0),
    (429, 3.0, False, 1, 3.0),             # refused before doing anything: safe for any call
    (529, 2.0, False, 3, 2.0),
    (429, 0.0, True, 1, 0.0),
    (429, 3600.0, True, 1, 30.0),          # cut to max_wait
    (429, None, True, 2, Backoff(1.0)),    # missing or unparsable header: backoff
    (529, None, False, 1, Backoff(0.5)),
    (503, None, True, 1, Backoff(0.5)),
    (500, 5.0, True, 1, Backoff(0.5)),     # Retry-After is honoured on 429 and 529 only
    (502, None, True, 3, Backoff(2.0)),
    (504, None, False, 1, None),           # the first attempt may have taken effect
    (NETWORK, None, True, 3, Backoff(2.0)),
    (NETWORK, None, False, 1, None),
    (429, 3.0, True, 4, None),             # the last allowed attempt
    (503, None, True, 4, None),
    (NETWORK, None, True, 4, None),
    (400, None, True, 1, None),            # the request itself is wrong: it would fail again
    (401, None, True, 1, None),
    (404, None, True, 1, None),
    (409, None, True, 1, None),
]


@pytest.mark.parametrize("status, retry_after, idempotent, attempt, expected", DECISIONS)
def test_the_policy_decides_every_wait_and_when_to_give_up(status: int | None, retry_after: float | None,
                                                           idempotent: bool, attempt: int,
                                                           expected: float | Backoff | None) -> None:
    wait = POLICY.wait(status, retry_after, idempotent=idempotent, attempt=attempt, rng=POLICY.rng())
    if isinstance(expected, Backoff):
        assert wait is not None and expected.ceiling / 2 <= wait <= expected.ceiling
    else:
        assert wait == expected


def test_backoff_doubles_up_to_its_cap_and_no_wait_exceeds_max_wait() -> None:
    rng = POLICY.rng()
    ceilings = [min(8.0, 0.5 * 2 ** (n - 1)) for n in range(1, 10)]
    waits = [POLICY.backoff(n, rng) for n in range(1, 10)]
    assert all(c / 2 <= w <= c for w, c in zip(waits, ceilings))
    short = RetryPolicy(max_attempts=20, max_wait=3.0)
    assert max(short.wait(503, None, idempotent=True, attempt=n, rng=short.rng()) or 0 for n in range(1, 19)) <= 3.0


def test_the_same_seed_gives_the_same_waits_and_another_seed_other_waits() -> None:
    def waits(policy: RetryPolicy) -> list[float | None]:
        rng = policy.rng()
        return [policy.wait(503, None, idempotent=True, attempt=n, rng=rng) for n in range(1, 6)]

    assert waits(RetryPolicy(seed=3)) == waits(RetryPolicy(seed=3))
    assert waits(RetryPolicy(seed=3)) != waits(RetryPolicy(seed=4))


def test_jitter_is_drawn_only_for_a_backoff_that_is_waited() -> None:
    rng = POLICY.rng()
    POLICY.wait(429, 3.0, idempotent=True, attempt=1, rng=rng)
    POLICY.wait(503, None, idempotent=True, attempt=4, rng=rng)
    POLICY.wait(404, None, idempotent=True, attempt=1, rng=rng)
    assert rng.uniform() == POLICY.rng().uniform()


def test_without_respect_for_retry_after_a_429_backs_off() -> None:
    policy = RetryPolicy(respect_retry_after=False, seed=0)
    assert policy.wait(429, 30.0, idempotent=True, attempt=1, rng=policy.rng()) == \
        policy.backoff(1, policy.rng())


def test_is_retry_names_what_could_succeed_if_sent_again() -> None:
    assert POLICY.is_retry(429, idempotent=False) and POLICY.is_retry(529, idempotent=False)
    assert POLICY.is_retry(503, idempotent=True) and not POLICY.is_retry(503, idempotent=False)
    assert POLICY.is_retry(None, idempotent=True) and not POLICY.is_retry(None, idempotent=False)
    assert not POLICY.is_retry(400, idempotent=True) and not POLICY.is_retry(200, idempotent=True)


@pytest.mark.parametrize("raw, seconds", [
    ("3", 3.0), ("1.5", 1.5), (" 2 ", 2.0), (2, 2.0), ("-1", 0.0),
    (None, None), ("", None), ("soon", None), ("Wed, 21 Oct 2015 07:28:00 GMT", None), ("nan", None),
    ("inf", None), (True, None),
])
def test_retry_after_is_read_as_seconds_or_not_at_all(raw: object, seconds: float | None) -> None:
    assert parse_retry_after(raw) == seconds


def test_a_policy_needs_an_attempt_and_a_positive_cap() -> None:
    with pytest.raises(ValueError, match="max_attempts"):
        RetryPolicy(max_attempts=0)
    with pytest.raises(ValueError, match="max_wait"):
        RetryPolicy(max_wait=0)
    assert isinstance(RetryPolicy().rng(), np.random.Generator)


def test_send_with_retries_sleeps_what_the_policy_decides_until_an_attempt_succeeds() -> None:
    answers = iter([Attempt.failed("busy", 429, 2.0), Attempt.failed("down", 503), Attempt.succeeded({"ok": 1})])
    slept: list[float] = []
    policy = RetryPolicy(max_attempts=5)
    last, attempts = send_with_retries(lambda attempt: next(answers), policy, slept.append, idempotent=True,
                                       rng=policy.rng())
    assert last.ok and last.result == {"ok": 1} and attempts == 3
    assert slept[0] == 2.0 and len(slept) == 2  # Retry-After waited exactly, then a backoff


def test_send_with_retries_returns_the_last_failure_when_the_policy_gives_up() -> None:
    seen: list[int] = []

    def send(attempt: int) -> Attempt:
        seen.append(attempt)
        return Attempt.failed(f"500 on attempt {attempt}", 500)

    policy = RetryPolicy(max_attempts=4)
    last, attempts = send_with_retries(send, policy, lambda seconds: None, idempotent=False, rng=policy.rng())
    assert not last.ok and last.failure == "500 on attempt 1" and attempts == 1 and seen == [1]  # not idempotent
    last, attempts = send_with_retries(send, policy, lambda seconds: None, idempotent=True, rng=policy.rng())
    assert last.failure == "500 on attempt 4" and attempts == 4
