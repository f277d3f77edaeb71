"""The Anthropic Messages API, called only when ``ANTHROPIC_API_KEY`` is set.

Without the key nothing is sent and a one-line :class:`Skipped` result explains why. With it,
one prompt (a system instruction and a user message, as :func:`lab.memory.assemble_prompt`
builds them, or a system instruction and a whole conversation's messages) is posted and the
reply's text and usage are read back; a 429 or 529 is tried
again as :class:`lab.retry.RetryPolicy` decides. The key travels only in the request header; it
is never stored on any object this module returns or raises.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import requests

from lab.clock import Clock, WallClock
from lab.errors import LabError
from lab.redaction import check_secret, redact
from lab.retry import Attempt, RetryPolicy, parse_retry_after, send_with_retries

__all__ = ["ANTHROPIC_API_URL", "ANTHROPIC_VERSION", "DEFAULT_MODEL", "MessagesPrompt", "MessagesConversation",
           "ModelAnswer", "ModelCallError", "ModelRefusal", "Skipped", "call_model", "request_body"]

ANTHROPIC_API_URL = "https://api.anthropic.com"
ANTHROPIC_VERSION = "2023-06-01"
DEFAULT_MODEL = "claude-sonnet-5-5"


class MessagesPrompt(Protocol):
    """What one call sends: a system instruction and one user message (``lab.memory.Prompt`` is one)."""

    @property
    def system(self) -> str: ...

    @property
    def text(self) -> str: ...


class MessagesConversation(Protocol):
    """What a multi-turn call sends: a system instruction and every message so far, oldest first."""

    @property
    def system(self) -> str: ...

    @property
    def messages(self) -> Sequence[Mapping[str, str]]: ...


def request_body(prompt: MessagesPrompt | MessagesConversation, model: str = DEFAULT_MODEL,
                 max_tokens: int = 1024, tools: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The JSON body :func:`call_model` posts: the model, the system instruction and the messages.

    The API keeps nothing between calls, so a conversation's body holds all of its messages;
    a single prompt is one user message (its ``text``). ``tools`` (such as the memory tool,
    :data:`lab.memory.MEMORY_TOOL`) are declared only when given.
    """
    messages = getattr(prompt, "messages", None)
    if messages is None:
        messages = [{"role": "user", "content": prompt.text}]  # type: ignore[union-attr]
    body: dict[str, Any] = {"model": model, "max_tokens": max_tokens, "system": prompt.system,
                            "messages": [dict(message) for message in messages]}
    if tools:
        body["tools"] = [dict(tool) for tool in tools]
    return body


@dataclass(frozen=True)
class Skipped:
    """The model was not called; ``message`` says why in one line."""

    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class ModelAnswer:
    """The model's reply: its text, the model that wrote it, token usage and why it stopped.

    ``content`` holds the reply's blocks as the API sent them (text and ``tool_use`` blocks), what
    a tool loop sends back as the assistant's message.
    """

    text: str
    model: str
    input_tokens: int
    output_tokens: int
    stop_reason: str | None
    content: tuple[dict[str, Any], ...] = ()

    def __str__(self) -> str:
        return self.text

    def tool_uses(self, name: str | None = None) -> list[dict[str, Any]]:
        """The ``tool_use`` blocks of the reply (of the tool ``name`` only, if given), in order."""
        return [block for block in self.content
                if block.get("type") == "tool_use" and (name is None or block.get("name") == name)]


class ModelCallError(LabError, RuntimeError):
    """The Messages API could not be reached or answered with an error; the message never holds the key."""

    def __init__(self, message: str, status_code: int | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code


class ModelRefusal(ModelCallError):
    """The model declined the request (``stop_reason`` ``"refusal"``): nothing it wrote may be used as an answer."""


def call_model(prompt: MessagesPrompt | MessagesConversation, model: str = DEFAULT_MODEL, api_key_env: str = "ANTHROPIC_API_KEY",
               session: requests.Session | None = None, base_url: str = ANTHROPIC_API_URL,
               max_tokens: int = 1024, timeout: float = 60.0, retry: RetryPolicy | None = None,
               clock: Clock | None = None, tools: Sequence[Mapping[str, Any]] = (),
               betas: Sequence[str] = ()) -> ModelAnswer | Skipped:
    """Send ``prompt`` to the Anthropic Messages API if ``$api_key_env`` is set; otherwise skip with one line.

    POSTs :func:`request_body` to ``{base_url}/v1/messages`` with the ``x-api-key`` and ``anthropic-version`` headers.
    ``base_url`` and ``session`` exist so the call can be pointed at a local server in tests.
    ``retry`` (3 attempts by default) decides the waits, slept on ``clock`` (the wall clock).
    ``tools`` are declared in the body; ``betas`` go in the ``anthropic-beta`` header. A reply
    that stops on ``"refusal"`` raises :class:`ModelRefusal`, so no caller uses it as an answer.
    """
    key = os.environ.get(api_key_env, "").strip()
    if not key:
        return Skipped(f"{api_key_env} is not set: the model call is skipped; the prompt above is what would be sent.")
    check_secret(key, api_key_env)
    url = f"{base_url.rstrip('/')}/v1/messages"
    payload = request_body(prompt, model, max_tokens, tools)
    headers = {"x-api-key": key, "anthropic-version": ANTHROPIC_VERSION, "content-type": "application/json"}
    if betas:
        headers["anthropic-beta"] = ",".join(betas)
    poster = session if session is not None else requests
    retry = retry or RetryPolicy(max_attempts=3)
    clock = clock or WallClock()

    def send(attempt: int) -> Attempt:
        try:
            response = poster.post(url, json=payload, headers=headers, timeout=timeout)
        except requests.RequestException as exc:
            return Attempt.failed(f"could not reach {url}: {type(exc).__name__}: {exc}")
        if response.status_code < 400:
            return Attempt.succeeded(response)
        return Attempt.failed(_api_error(response), response.status_code,
                              parse_retry_after(response.headers.get("retry-after")))

    # A 500 may come after the model wrote (and billed) its answer: only a refusal is sent again.
    last, _ = send_with_retries(send, retry, clock.sleep, idempotent=False, rng=retry.rng())
    if not last.ok:
        # Raised here, not in a handler, so that no exception whose request carries the key header is
        # attached as context.
        raise ModelCallError(redact(last.failure, key), status_code=last.status)
    return _read_answer(last.result)


def _json_body(response: requests.Response) -> object:
    try:
        return response.json()
    except ValueError:
        return None


def _api_error(response: requests.Response) -> str:
    """The error's status, type and message as the Messages API reports them."""
    body = _json_body(response)
    detail = body.get("error", {}) if isinstance(body, dict) else {}
    kind = detail.get("type", "error") if isinstance(detail, dict) else "error"
    message = detail.get("message", response.reason or "") if isinstance(detail, dict) else ""
    return f"the Messages API answered {response.status_code} {kind}: {message}"


def _read_answer(response: requests.Response) -> ModelAnswer:
    body = _json_body(response)
    if not isinstance(body, dict) or not isinstance(body.get("content"), list):
        raise ModelCallError(f"the Messages API answered {response.status_code} without a 'content' list",
                             status_code=response.status_code)
    if body.get("stop_reason") == "refusal":
        raise ModelRefusal("the model declined the request (stop_reason 'refusal'); nothing it wrote is used as "
                           "an answer: rephrase the request, or send the question to a person",
                           status_code=response.status_code)
    blocks = tuple(dict(block) for block in body["content"] if isinstance(block, dict))
    text = "".join(str(block.get("text", "")) for block in blocks if block.get("type") == "text")
    usage = body.get("usage") or {}
    return ModelAnswer(text=text.strip(), model=str(body.get("model", "")),
                       input_tokens=int(usage.get("input_tokens", 0)),
                       output_tokens=int(usage.get("output_tokens", 0)),
                       stop_reason=body.get("stop_reason"), content=blocks)
