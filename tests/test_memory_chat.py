"""The memory tool's loop: sessions share only the folder, refusals reach the model as errors, the live path is keyed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lab.memory import (MEMORY_BETA, MEMORY_TOOL, ChatError, MemoryDirectory, ScriptedReplies, chat_with_memory,
                        model_responder)
from lab.services import ModelAnswer, Skipped

FACTS = "# Learner\n- exam: Thursday 12 March\n- answers: short, example first\n"
SESSIONS = [["My exam is on Thursday 12 March. Keep answers short."], ["When is my exam?", "It moved to Friday 13 March."]]
SCRIPT = [
    [{"command": "view", "path": "/memories"}],
    [{"command": "create", "path": "/memories/learner.md", "file_text": FACTS}],
    ["Noted: Thursday 12 March, short answers."],
    [{"command": "view", "path": "/memories"}],
    [{"command": "view", "path": "/memories/learner.md"}],
    ["Thursday 12 March."],
    [{"command": "str_replace", "path": "/memories/learner.md", "old_str": "Thursday 12 March",
      "new_str": "Friday 13 March"}],
    ["Updated: Friday 13 March."],
]


def test_a_later_session_knows_only_what_the_folder_holds(tmp_path: Path) -> None:
    memory = MemoryDirectory(tmp_path / "ana")
    seen: list[list[dict[str, Any]]] = []
    script = ScriptedReplies(SCRIPT)

    def respond(messages):  # records what each call was sent
        seen.append([dict(message) for message in messages])
        return script(messages)

    transcript = chat_with_memory(memory, SESSIONS, respond)
    assert script.remaining == 0
    assert transcript["event"].tolist() == ["user", "memory", "memory", "assistant",
                                            "user", "memory", "memory", "assistant", "user", "memory", "assistant"]
    memory_rows = transcript[transcript["event"] == "memory"]
    assert memory_rows["text"].tolist()[:2] == ["view /memories", f"create /memories/learner.md ({len(FACTS)} chars)"]
    assert not memory_rows["error"].any()
    assert (memory.root / "learner.md").read_text(encoding="utf-8") == FACTS.replace("Thursday 12", "Friday 13")
    # session 2 starts from nothing: its first call carries one message, the question
    first_of_session_two = seen[3]
    assert first_of_session_two == [{"role": "user", "content": "When is my exam?"}]
    # and what it learns comes from the tool result, sent back as a tool_result block
    result_message = seen[5][-1]
    assert result_message["role"] == "user"
    [block] = result_message["content"]
    assert block["type"] == "tool_result" and block["tool_use_id"] == "toolu_script_04"
    assert "Thursday 12 March" in block["content"]


def test_a_refused_command_reaches_the_model_as_an_error_it_can_correct(tmp_path: Path) -> None:
    memory = MemoryDirectory(tmp_path / "m")
    script = ScriptedReplies([
        [{"command": "create", "path": "/memories/../escape.md", "file_text": "x"}],
        [{"command": "create", "path": "/memories/notes.md", "file_text": "wifi password: cuaderno"}],
        [{"command": "create", "path": "/memories/notes.md", "file_text": "prefers examples"}],
        ["Saved."],
    ])
    transcript = chat_with_memory(memory, [["remember this"]], script)
    assert transcript.loc[transcript["event"] == "memory", "error"].tolist() == [True, True, False]
    assert transcript["result"].iloc[1].startswith("Error: the path '/memories/../escape.md' has an empty")
    assert not (tmp_path / "escape.md").exists()
    assert (memory.root / "notes.md").read_text(encoding="utf-8") == "prefers examples"


def test_a_model_that_never_stops_calling_tools_is_stopped(tmp_path: Path) -> None:
    memory = MemoryDirectory(tmp_path / "m")

    def forever(messages):
        return [{"type": "tool_use", "id": f"t{len(messages)}", "name": "memory",
                 "input": {"command": "view", "path": "/memories"}}]

    with pytest.raises(ChatError, match="more than 3 tool calls"):
        chat_with_memory(memory, [["hi"]], forever, max_tool_calls=3)
    with pytest.raises(ChatError, match="no content"):
        chat_with_memory(memory, [["hi"]], lambda messages: [])
    with pytest.raises(ChatError, match="the script has 0 replies"):
        chat_with_memory(memory, [["hi"]], ScriptedReplies([]))


def test_without_a_key_the_live_responder_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    skipped = model_responder()
    assert isinstance(skipped, Skipped) and "ANTHROPIC_API_KEY is not set" in str(skipped)


def test_with_a_key_the_live_responder_declares_the_tool_and_sends_the_whole_conversation(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-key-for-the-fake-call")
    calls: list[dict[str, Any]] = []
    replies = iter([({"type": "tool_use", "id": "toolu_A", "name": "memory",
                      "input": {"command": "view", "path": "/memories"}},), ({"type": "text", "text": "Nothing yet."},)])

    def fake_call(conversation, **options):
        calls.append({"system": conversation.system, "messages": list(conversation.messages), **options})
        content = next(replies)
        return ModelAnswer("", "m", 1, 1, "end_turn", content=content)

    respond = model_responder(system="be brief", call=fake_call)
    transcript = chat_with_memory(MemoryDirectory(tmp_path / "m"), [["hello"]], respond)
    assert transcript["event"].tolist() == ["user", "memory", "assistant"]
    assert calls[0]["tools"] == [MEMORY_TOOL] and calls[0]["betas"] == [MEMORY_BETA]
    assert calls[1]["system"] == "be brief" and len(calls[1]["messages"]) == 3
    assert calls[1]["messages"][2]["content"][0]["tool_use_id"] == "toolu_A"
