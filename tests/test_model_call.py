"""The optional model call: skipped without a key, a faithful Messages API request with one, retried, key hidden."""

from __future__ import annotations

import json
import logging
import threading
import traceback
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import requests

from lab.clock import SimulatedClock
from lab.memory import RetrievedNote, assemble_prompt, check_citations
from lab.retry import RetryPolicy
from lab.services import ModelAnswer, ModelCallError, ModelRefusal, Skipped, call_model
from tests.fake_transport import ScriptedSession, answer, policy_waits
from tests.leaks import leaks, shown

KEY = "sk-ant-test-0123456789abcdefSECRET"
ENV = "ANTHROPIC_API_KEY"

PROMPT = assemble_prompt(
    "How do I compute the mean in pandas?",
    [RetrievedNote("n05", 0.235, "Reading a CSV with pandas", "Pandas reads a CSV file into a table."),
     RetrievedNote("n01", 0.157, "The mean", "The mean is pulled by extreme values.")],
)

REPLY = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [{"type": "text", "text": "Pandas loads the CSV into a table [n05]; "},
                {"type": "text", "text": "the mean is sensitive to extremes [n01]. "}],
    "stop_reason": "end_turn",
    "usage": {"input_tokens": 248, "output_tokens": 97},
}


class FakeMessagesServer(ThreadingHTTPServer):
    """A local stand-in for the Messages API that records requests and plays a scripted reply."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: list[dict[str, Any]] = []
        self.status = 200
        self.reply: Any = REPLY

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    server: FakeMessagesServer

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        length = int(self.headers.get("content-length", 0))
        self.server.requests.append({
            "path": self.path,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "body": json.loads(self.rfile.read(length)),
        })
        body = json.dumps(self.server.reply).encode()
        self.send_response(self.server.status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output quiet


@pytest.fixture
def server() -> Iterator[FakeMessagesServer]:
    fake = FakeMessagesServer()
    thread = threading.Thread(target=fake.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    yield fake
    fake.shutdown()
    fake.server_close()
    thread.join()


class RecordingSession:
    """A session that records any attempt to use it."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def post(self, *args: Any, **kwargs: Any) -> None:
        self.calls.append(args)
        raise AssertionError("the network was used although no key is set")


def test_without_the_key_the_call_is_skipped_with_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    result = call_model(PROMPT)
    assert isinstance(result, Skipped)
    assert result.message == ("ANTHROPIC_API_KEY is not set: the model call is skipped; "
                              "the prompt above is what would be sent.")
    assert "\n" not in str(result) and str(result) == result.message


def test_without_the_key_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    session = RecordingSession()
    assert isinstance(call_model(PROMPT, session=session), Skipped)  # type: ignore[arg-type]
    assert session.calls == []

    def no_network(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the network was used although no key is set")

    monkeypatch.setattr(requests, "post", no_network)
    monkeypatch.setattr(requests.Session, "request", no_network)
    assert isinstance(call_model(PROMPT), Skipped)


def test_a_blank_key_counts_as_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "   ")
    session = RecordingSession()
    assert isinstance(call_model(PROMPT, session=session), Skipped)  # type: ignore[arg-type]
    assert session.calls == []


def test_the_skip_message_names_the_variable_that_was_looked_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LAB_OTHER_KEY", raising=False)
    assert str(call_model(PROMPT, api_key_env="LAB_OTHER_KEY")).startswith("LAB_OTHER_KEY is not set:")


def test_with_the_key_the_prompt_is_posted_to_the_messages_endpoint(server: FakeMessagesServer,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, KEY)
    call_model(PROMPT, model="claude-test", base_url=server.base_url + "/", max_tokens=300)
    [request] = server.requests
    assert request["path"] == "/v1/messages"
    assert request["headers"]["x-api-key"] == KEY
    assert request["headers"]["anthropic-version"] == "2023-06-01"
    assert request["headers"]["content-type"].startswith("application/json")
    assert request["body"] == {
        "model": "claude-test",
        "max_tokens": 300,
        "system": PROMPT.system,
        "messages": [{"role": "user", "content": PROMPT.text}],
    }


def test_the_reply_text_usage_and_stop_reason_are_read_back(server: FakeMessagesServer,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, KEY)
    answer = call_model(PROMPT, base_url=server.base_url)
    assert isinstance(answer, ModelAnswer)
    assert answer.text == "Pandas loads the CSV into a table [n05]; the mean is sensitive to extremes [n01]."
    assert (answer.model, answer.input_tokens, answer.output_tokens, answer.stop_reason) == \
        ("claude-sonnet-4-5", 248, 97, "end_turn")
    assert check_citations(answer.text, PROMPT.included_ids).ok


def test_a_given_session_is_the_one_used(server: FakeMessagesServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, KEY)
    with requests.Session() as session:
        sent: list[str] = []
        session.hooks["response"].append(lambda response, **kwargs: sent.append(response.url))
        call_model(PROMPT, base_url=server.base_url, session=session)
    assert sent == [server.base_url + "/v1/messages"]


def test_an_api_error_raises_with_status_and_message_but_never_the_key(server: FakeMessagesServer,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, KEY)
    server.status = 401
    server.reply = {"type": "error", "error": {"type": "authentication_error",
                                              "message": f"invalid x-api-key {KEY}"}}  # a server that echoes it
    with pytest.raises(ModelCallError) as caught:
        call_model(PROMPT, base_url=server.base_url)
    assert caught.value.status_code == 401
    assert "401 authentication_error: invalid x-api-key [redacted]" in str(caught.value)
    rendered = "".join(traceback.format_exception(caught.value))
    assert KEY not in rendered and KEY not in repr(caught.value)


def test_an_unreachable_server_raises_without_the_key_or_the_request_attached(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, KEY)
    probe = FakeMessagesServer()
    closed_url = probe.base_url
    probe.server_close()  # nothing listens on this port any more
    with pytest.raises(ModelCallError, match="could not reach") as caught:
        call_model(PROMPT, base_url=closed_url, timeout=5)
    # The original exception holds the request and its headers: it must not travel along.
    assert caught.value.__cause__ is None and caught.value.__context__ is None
    assert KEY not in "".join(traceback.format_exception(caught.value))


def test_a_reply_without_content_is_an_error(server: FakeMessagesServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, KEY)
    server.reply = {"type": "message"}
    with pytest.raises(ModelCallError, match="without a 'content' list"):
        call_model(PROMPT, base_url=server.base_url)


def test_the_key_appears_in_no_repr_str_log_or_output(server: FakeMessagesServer, monkeypatch: pytest.MonkeyPatch,
                                                       caplog: pytest.LogCaptureFixture,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(ENV, KEY)
    with caplog.at_level(logging.DEBUG):
        answer = call_model(PROMPT, base_url=server.base_url)
        server.status = 500
        server.reply = {"type": "error", "error": {"type": "api_error", "message": "overloaded"}}
        with pytest.raises(ModelCallError) as caught:
            call_model(PROMPT, base_url=server.base_url)
    objects = [answer, caught.value, PROMPT, call_model, Skipped("x")]
    shown = [repr(o) for o in objects] + [str(o) for o in objects] + [repr(vars(answer)), repr(vars(caught.value))]
    out = capsys.readouterr()
    assert all(KEY not in text for text in shown)
    assert KEY not in caplog.text and KEY not in out.out and KEY not in out.err


def _error(status: int, kind: str, message: str, headers: dict[str, str] | None = None) -> requests.Response:
    return answer(status, {"type": "error", "error": {"type": kind, "message": message}}, headers)


def test_a_refusal_is_tried_again_as_the_retry_policy_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, KEY)
    script = [_error(429, "rate_limit_error", "slow down", {"retry-after": "4"}),
              _error(529, "overloaded_error", "overloaded"),  # no retry-after: backoff
              answer(200, REPLY)]
    policy, clock = RetryPolicy(max_attempts=3, seed=5), SimulatedClock()
    session = ScriptedSession(*script)
    result = call_model(PROMPT, session=session, retry=policy, clock=clock)  # type: ignore[arg-type]
    assert isinstance(result, ModelAnswer) and len(session.sent) == 3
    assert clock.now() == pytest.approx(sum(policy_waits(policy, script, idempotent=False)))


def test_a_server_error_or_the_last_refusal_raises_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, KEY)
    session = ScriptedSession(_error(500, "api_error", "internal"))
    with pytest.raises(ModelCallError, match="500 api_error") as caught:  # the answer may have been written
        call_model(PROMPT, session=session, clock=SimulatedClock())  # type: ignore[arg-type]
    assert caught.value.status_code == 500 and len(session.sent) == 1
    refusals = ScriptedSession(*[_error(529, "overloaded_error", "overloaded")] * 2)
    with pytest.raises(ModelCallError, match="529 overloaded_error"):
        call_model(PROMPT, session=refusals, retry=RetryPolicy(max_attempts=2),  # type: ignore[arg-type]
                   clock=SimulatedClock())
    assert len(refusals.sent) == 2


def test_the_key_never_appears_in_the_calls_errors_or_results(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, KEY)
    echoed = ScriptedSession(_error(401, "authentication_error", f"invalid x-api-key {KEY}"))
    quoted = ScriptedSession(requests.ConnectionError(f"reset while sending x-api-key: {KEY}"))
    errors = []
    for session in (echoed, quoted):
        with pytest.raises(ModelCallError) as caught:
            call_model(PROMPT, session=session, clock=SimulatedClock())  # type: ignore[arg-type]
        errors.append(caught.value)
    answered = call_model(PROMPT, session=ScriptedSession(answer(200, REPLY)))  # type: ignore[arg-type]
    assert all("[redacted]" in str(error) for error in errors)
    assert leaks(KEY, shown(answered, *errors)) == []


def test_a_key_with_a_line_break_is_refused_without_being_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    key = "sk-ant-first-line-of-it\nsecond-line-of-it"
    monkeypatch.setenv(ENV, key)
    session = ScriptedSession()
    with pytest.raises(ValueError, match="ANTHROPIC_API_KEY contains a line break") as caught:
        call_model(PROMPT, session=session)  # type: ignore[arg-type]
    assert session.sent == [] and leaks(key, shown(caught.value)) == []


def test_a_refusal_raises_so_no_caller_uses_it_as_an_answer(server: FakeMessagesServer,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, KEY)
    server.reply = dict(REPLY, stop_reason="refusal", content=[{"type": "text", "text": "Sure, here is"}])
    with pytest.raises(ModelRefusal, match="declined the request") as raised:
        call_model(PROMPT, base_url=server.base_url)
    assert isinstance(raised.value, ModelCallError) and KEY not in shown(raised.value)
    assert len(server.requests) == 1  # a refusal is an answer, not a failure to retry


def test_tools_and_betas_are_declared_and_tool_use_blocks_read_back(server: FakeMessagesServer,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, KEY)
    tool_use = {"type": "tool_use", "id": "toolu_01", "name": "memory", "input": {"command": "view", "path": "/memories"}}
    server.reply = dict(REPLY, stop_reason="tool_use", content=[{"type": "text", "text": "Let me check."}, tool_use])
    answer = call_model(PROMPT, base_url=server.base_url, tools=[{"type": "memory_20250818", "name": "memory"}],
                        betas=["context-management-2025-06-27"])
    [request] = server.requests
    assert request["body"]["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    assert request["headers"]["anthropic-beta"] == "context-management-2025-06-27"
    assert isinstance(answer, ModelAnswer) and answer.stop_reason == "tool_use"
    assert answer.tool_uses("memory") == [tool_use] and answer.tool_uses("other") == []
    assert answer.content[0] == {"type": "text", "text": "Let me check."}


def test_without_tools_the_body_declares_none(server: FakeMessagesServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, KEY)
    call_model(PROMPT, base_url=server.base_url)
    [request] = server.requests
    assert "tools" not in request["body"] and "anthropic-beta" not in request["headers"]
