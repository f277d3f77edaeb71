"""What every command shares: argparse with one-line usage errors, checked option types, the token
read from the environment, and the retry policy that says what it waits for."""

from __future__ import annotations

import argparse
import math
import os
import signal
import threading
from dataclasses import dataclass
from typing import Callable

import numpy as np

from lab.cli.exits import CommandFailure, ExitCode, WaitTooLong
from lab.redaction import check_secret
from lab.retry import RETRY_AFTER_STATUSES, RetryPolicy

__all__ = ["Parser", "in_range", "PORT", "SEED", "PROBABILITY", "SECONDS", "RATE", "not_blank", "base_url",
           "check_token", "token_from_env", "interruptible", "AnnouncedRetry"]


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line (the usage itself is one ``--help`` away)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(ExitCode.USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

def in_range(kind: type, low: float, high: float, *, above: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite ``kind`` number in ``[low, high]`` (``(low, high]`` if ``above``)."""
    noun = "a whole number" if kind is int else "a number"

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {noun}, got {ascii(text)}") from None
        if not math.isfinite(value) or value > high or value < low or (above and value == low):
            bound = "above" if above else "at least"
            raise argparse.ArgumentTypeError(f"must be {noun} {bound} {low:g} and at most {high:g}, got {ascii(text)}")
        return value

    parse.__name__ = noun  # argparse names the type in some messages
    return parse

PORT = in_range(int, 0, 65_535)

SEED = in_range(int, 0, 2 ** 63 - 1)

PROBABILITY = in_range(float, 0.0, 1.0)

SECONDS = in_range(float, 0.0, 86_400.0, above=True)

RATE = in_range(float, 0.0, 1_000.0, above=True)

def not_blank(text: str) -> str:
    """An argparse type: a value that is not empty (an empty --data-source fell back to --title)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty; leave the option out to use the default")
    return text


def base_url(text: str) -> str:
    """An argparse type: the API's address, ``http(s)://host[:port]`` with at most a path. A password in it would
    be printed with every progress line and error that names the address, and Notion reads its token from a
    header anyway, so an address with credentials is refused without being echoed."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(text.strip())
        parts.port  # noqa: B018 (raises on a port that is not a number from 0 to 65535)
    except ValueError:
        parts = None
    if parts is not None and (parts.username is not None or parts.password is not None):
        raise argparse.ArgumentTypeError("must not hold a user name or password (user:secret@host); the token comes "
                                         "from the environment (--token-env), so give http(s)://host[:port] alone")
    if parts is not None and (parts.query or parts.fragment):  # a key pasted as ?token=... is not echoed either
        raise argparse.ArgumentTypeError("must not hold a query (?...) or a fragment (#...), which is not shown here; "
                                         "the token comes from the environment (--token-env), so give "
                                         "http(s)://host[:port] alone")
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(f"expected an address such as https://api.notion.com or "
                                         f"http://127.0.0.1:8787 (http or https, a host, an optional port), got "
                                         f"{ascii(text)}")
    return text.strip()


def check_token(token: str, name: str) -> str:
    """The token, or a one-line refusal that does not echo it. Notion's tokens are printable
    ASCII without spaces; anything else is a copying mistake, caught before it reaches a header."""
    if not token:
        raise CommandFailure(ExitCode.TOKEN, f"{name} is empty: give the integration's secret")
    try:
        check_secret(token, name)
    except ValueError as exc:
        raise CommandFailure(ExitCode.TOKEN, str(exc)) from None
    if not (token.isascii() and token.isprintable()) or any(ch.isspace() for ch in token):
        raise CommandFailure(ExitCode.TOKEN, f"{name} contains a space or a character that is not printable ASCII: "
                                       "set it to the secret alone, as Notion shows it")
    return token

def token_from_env(name: str) -> str:
    token = os.environ.get(name, "").strip()
    if not token:
        raise CommandFailure(ExitCode.TOKEN, f"the environment variable {name} is not set; export the integration's "
                                       "token there (the token is never passed on the command line)")
    return check_token(token, f"the token in {name}")

def interruptible() -> None:
    """Make SIGINT raise KeyboardInterrupt even if the parent ignored it.

    A shell starts background jobs with SIGINT ignored, and a child inherits that; a scheduler
    or a test that sends SIGINT to stop a run must still get the clean "interrupted" exit.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)

@dataclass(frozen=True)
class AnnouncedRetry(RetryPolicy):
    """The lab's retry policy, saying before each wait of a second or more what it waits for, and
    giving up at once when the server asks for more than ``--max-wait``."""

    say: Callable[[str], None] = print

    def wait(self, status: int | None, retry_after: float | None, *, idempotent: bool, attempt: int,
             rng: np.random.Generator) -> float | None:
        asked = retry_after if status in RETRY_AFTER_STATUSES and self.respect_retry_after else None
        if asked is not None and asked > self.max_wait and self.is_retry(status, idempotent=idempotent):
            raise WaitTooLong(f"the server answered {_answer(status)} and asked to wait {asked:g} s before trying "
                               f"again, more than --max-wait {self.max_wait:g} s; run again later or raise --max-wait")
        seconds = super().wait(status, retry_after, idempotent=idempotent, attempt=attempt, rng=rng)
        if seconds is not None and seconds >= 1.0:
            why = f"it asked for Retry-After {asked:g} s" if asked is not None else "backing off"
            self.say(f"  waiting {seconds:.0f} s: the server answered {_answer(status)}; {why} "
                     f"(attempt {attempt + 1} of {self.max_attempts} next)")
        return seconds

def _answer(status: int | None) -> str:
    return {None: "nothing (network error)", 429: "429 (rate limited)", 529: "529 (overloaded)"}.get(
        status, str(status))
