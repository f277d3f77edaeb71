"""Answering with a model: the same prompt and escalation rules; a refusal is never shown, it goes to a person."""

from __future__ import annotations

import math
from functools import partial

import pytest

from lab.answering import (ABSTAIN_ANSWER, ALLERGY_RULE, MODEL_REFUSAL, REFUSAL_REPLY, Answerer)
from lab.retrieval import BM25Retriever
from lab.services import RecordedSession, RecordingExhausted, Skipped, call_model
from tests.test_answering import CORPUS

ENV = "LAB_TEST_MESSAGES_KEY"
KEY = "sk-ant-test-recorded-0123456789"


def _reply(text: str, stop_reason: str = "end_turn") -> dict:
    content = [{"type": "text", "text": text}] if text else []
    return {"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-5-5",
            "content": content, "stop_reason": stop_reason, "usage": {"input_tokens": 310, "output_tokens": 4}}


def _ask(question: str, *replies: dict, monkeypatch: pytest.MonkeyPatch, escalate=()):
    monkeypatch.setenv(ENV, KEY)
    session = RecordedSession(*replies)
    answerer = Answerer(BM25Retriever(), k=2, escalate=escalate).fit(CORPUS)
    return answerer.ask_model(question, call=partial(call_model, session=session, api_key_env=ENV)), session


def test_a_refusal_is_escalated_to_a_person_and_nothing_the_model_wrote_is_shown(monkeypatch) -> None:
    answer, session = _ask("¿Hay envío gratis?", _reply("Sure, here is", "refusal"), monkeypatch=monkeypatch)
    assert answer.escalated == MODEL_REFUSAL and answer.text == REFUSAL_REPLY and "Sure" not in str(answer)
    assert answer.cited == () and len(answer.sources) == 2  # the passages go with it to the person
    assert len(session.sent) == 1 and session.sent[0]["url"].endswith("/v1/messages")  # sent once, not retried
    assert KEY not in repr(session.sent)  # headers are not kept


def test_a_model_answer_cites_the_numbers_it_writes_and_no_answer_abstains(monkeypatch) -> None:
    answer, session = _ask("¿Hay envío gratis?", _reply("Sí, sólo en la zona 1. [1] [7]"), monkeypatch=monkeypatch)
    assert answer.text == "Sí, sólo en la zona 1. [1] [7]" and answer.cited == (1,)  # 7 is not a source
    assert math.isnan(answer.confidence) and not answer.abstained and answer.escalated is None
    assert session.sent[0]["json"]["messages"][0]["content"].rstrip().endswith("¿Hay envío gratis?")
    abstained, _ = _ask("¿Venden pizza?", _reply("NO_ANSWER"), monkeypatch=monkeypatch)
    assert abstained.abstained and abstained.text == ABSTAIN_ANSWER


def test_an_escalation_rule_still_comes_before_any_model_call(monkeypatch) -> None:
    answer, session = _ask("¿El pan lleva nuez?", monkeypatch=monkeypatch, escalate=(ALLERGY_RULE,))
    assert answer.escalated == ALLERGY_RULE.name and session.sent == []


def test_without_a_key_the_model_answer_is_skipped(monkeypatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    answerer = Answerer(BM25Retriever(), k=2).fit(CORPUS)
    outcome = answerer.ask_model("¿Hay envío gratis?", call=partial(call_model, api_key_env=ENV))
    assert isinstance(outcome, Skipped) and str(outcome).startswith(f"{ENV} is not set")


def test_a_recording_refuses_a_request_it_has_no_reply_for() -> None:
    session = RecordedSession((529, {"type": "error"}))
    assert session.post("https://api.example/v1/messages", json={}).status_code == 529 and session.remaining == 0
    with pytest.raises(RecordingExhausted, match="1 replies were recorded and request 2"):
        session.post("https://api.example/v1/messages", json={})
