"""A stateless API is sent the whole conversation every turn: the request body grows, and only it remembers."""

from __future__ import annotations

import json

import pytest

from lab.datasets import load_study_session
from lab.memory import TUTOR_SYSTEM, Conversation, ask_with_and_without_history, request_growth
from lab.services import ModelAnswer, Skipped, call_model
from lab.services.anthropic import request_body
from tests.fake_transport import ScriptedSession, answer


def test_every_call_carries_the_system_instruction_and_all_messages_so_far() -> None:
    conversation = Conversation("Be brief.")
    first = conversation.ask("I am revising joins.")
    conversation.reply("Good.")
    second = conversation.ask("What am I revising?")
    assert first["messages"] == [{"role": "user", "content": "I am revising joins."}]
    assert [m["content"] for m in second["messages"]] == ["I am revising joins.", "Good.", "What am I revising?"]
    assert second["system"] == "Be brief." and second == request_body(conversation, conversation.model, 1024)


def test_the_body_size_is_what_requests_puts_on_the_wire() -> None:
    conversation = Conversation("Sé breve.")
    conversation.ask("¿Qué es un join?")
    assert conversation.body_bytes() == len(json.dumps(conversation.body()).encode())
    assert "\\u00e9" in json.dumps(conversation.body())  # ASCII-escaped, as requests' json= sends it


def test_messages_must_alternate_and_be_non_empty() -> None:
    conversation = Conversation("Be brief.")
    with pytest.raises(ValueError, match="the next one is the user's"):
        conversation.reply("Hello.")
    conversation.ask("Hi.")
    with pytest.raises(ValueError, match="the next one is the assistant's"):
        conversation.ask("Hello?")
    with pytest.raises(ValueError, match="non-empty"):
        conversation.reply("  ")


def test_each_turn_resends_the_previous_body_and_its_reply_then_adds_one_message() -> None:
    table = request_growth(TUTOR_SYSTEM, load_study_session())
    assert list(table["turn"]) == [1, 2, 3, 4, 5] and list(table["messages"]) == [1, 3, 5, 7, 9]
    assert (table["body_bytes"].diff().dropna() > 0).all() and (table["tokens"].diff().dropna() > 0).all()
    assert table["resent_bytes"].iloc[0] == 0
    assert (table["resent_bytes"].values[1:] > table["body_bytes"].values[:-1]).all()
    assert (table["body_bytes"] > table["resent_bytes"]).all()


def test_the_session_turn_that_asks_for_turn_1_travels_with_turn_1() -> None:
    turns = load_study_session()
    conversation = Conversation(TUTOR_SYSTEM)
    for turn in turns[:3]:
        conversation.ask(turn["user"])
        conversation.reply(turn["assistant"])
    body = conversation.ask(turns[3]["user"])
    assert "revising" in turns[3]["user"] and turns[0]["user"] in json.dumps(body, ensure_ascii=False)


def test_without_the_key_the_check_is_skipped_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    outcome = ask_with_and_without_history("Be brief.", "I revise joins.", "What do I revise?")
    assert isinstance(outcome, Skipped) and "\n" not in str(outcome) and "ANTHROPIC_API_KEY" in str(outcome)


def test_with_the_key_the_question_is_asked_after_the_history_and_in_a_fresh_call(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-key-0123456789")
    replies = [answer(200, {"content": [{"type": "text", "text": text}], "model": "m",
                            "usage": {"input_tokens": tokens, "output_tokens": 5}, "stop_reason": "end_turn"})
               for text, tokens in (("Noted.", 20), ("Joins.", 40), ("I cannot know.", 15))]
    session = ScriptedSession(*replies)

    def call(prompt: object, max_tokens: int) -> ModelAnswer | Skipped:
        return call_model(prompt, session=session, max_tokens=max_tokens)  # type: ignore[arg-type]

    recalls = ask_with_and_without_history("Be brief.", "I revise joins.", "What do I revise?", call=call)
    assert [r.messages for r in recalls] == [1, 3, 1]  # type: ignore[union-attr]
    assert [m["content"] for m in session.sent[1]["json"]["messages"]] == ["I revise joins.", "Noted.",
                                                                           "What do I revise?"]
    assert session.sent[2]["json"]["messages"] == [{"role": "user", "content": "What do I revise?"}]
    assert [r.answer.text for r in recalls] == ["Noted.", "Joins.", "I cannot know."]  # type: ignore[union-attr]
