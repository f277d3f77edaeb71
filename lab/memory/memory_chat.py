"""A conversation in which the model keeps its own notes through the memory tool, session after session.

Each session starts with no messages at all: whatever the model knows of earlier sessions is
what it wrote into ``/memories`` and reads back. A turn is a loop: the user's message is sent,
and while the reply asks for memory commands (``tool_use`` blocks), the application runs them
(:class:`lab.memory.MemoryDirectory`) and sends the results back (``tool_result`` blocks), until
the model answers in text. :func:`chat_with_memory` runs that loop with any responder:

- :class:`ScriptedReplies` plays written replies, the tool calls a model would make, so the loop
  and the folder's behaviour can be shown and tested offline;
- :func:`model_responder` asks the real model when ``ANTHROPIC_API_KEY`` is set.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from lab.errors import LabError
from lab.memory.memory_tool import MEMORY_TOOL, MemoryDirectory
from lab.services.anthropic import DEFAULT_MODEL, Skipped, call_model

__all__ = ["MEMORY_BETA", "MEMORY_SYSTEM", "ChatError", "Responder", "ScriptedReplies", "chat_with_memory", "model_responder",
           "text_block", "tool_use_block"]

#: The beta flag the memory tool was released under, sent in the ``anthropic-beta`` header.
MEMORY_BETA = "context-management-2025-06-27"
MEMORY_SYSTEM = ("You are a study assistant with a memory folder. At the start of every conversation, view "
                 "/memories before answering. Keep there only durable facts about the learner (exam dates, "
                 "preferences, weak topics), one short file, updated when a fact changes; never secrets. "
                 "Answer in at most two sentences.")

#: Takes the messages so far and returns the assistant's reply as content blocks.
Responder = Callable[[Sequence[Mapping[str, Any]]], Sequence[Mapping[str, Any]]]


class ChatError(LabError, RuntimeError):
    """The tool loop could not finish a turn: too many tool calls in a row, or a reply with no content."""


def text_block(text: str) -> dict[str, Any]:
    """A reply's text block."""
    return {"type": "text", "text": text}


def tool_use_block(tool_use_id: str, command: Mapping[str, Any]) -> dict[str, Any]:
    """A reply's request to run one memory command."""
    return {"type": "tool_use", "id": tool_use_id, "name": MEMORY_TOOL["name"], "input": dict(command)}


class ScriptedReplies:
    """Written replies played in order, one per model call; tool-use ids are numbered ``toolu_script_01``...

    Each reply is a list of commands (dicts, run as memory tool calls) and strings (text), in the
    order a model would write them.
    """

    def __init__(self, replies: Sequence[Sequence[Mapping[str, Any] | str]]) -> None:
        self._replies = [list(reply) for reply in replies]
        self._next = 0
        self._ids = 0

    def __call__(self, messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        if self._next >= len(self._replies):
            raise ChatError(f"the script has {len(self._replies)} replies and a call asked for one more")
        reply = self._replies[self._next]
        self._next += 1
        blocks = []
        for part in reply:
            if isinstance(part, str):
                blocks.append(text_block(part))
            else:
                self._ids += 1
                blocks.append(tool_use_block(f"toolu_script_{self._ids:02d}", part))
        return blocks

    @property
    def remaining(self) -> int:
        """Replies not played yet (0 when the script and the conversation match)."""
        return len(self._replies) - self._next


@dataclass(frozen=True)
class _Conversation:
    system: str
    messages: Sequence[Mapping[str, Any]]


def model_responder(system: str = MEMORY_SYSTEM, model: str = DEFAULT_MODEL, max_tokens: int = 1024,
                    api_key_env: str = "ANTHROPIC_API_KEY", call: Callable[..., Any] = call_model) -> Responder | Skipped:
    """A responder that asks the real model with the memory tool declared, or :class:`Skipped` without a key."""
    if not os.environ.get(api_key_env, "").strip():
        return Skipped(f"{api_key_env} is not set: the live conversation is skipped; the scripted one shows the "
                       "same loop.")

    def respond(messages: Sequence[Mapping[str, Any]]) -> Sequence[Mapping[str, Any]]:
        answer = call(_Conversation(system, messages), model=model, max_tokens=max_tokens, tools=[MEMORY_TOOL],
                      betas=[MEMORY_BETA], api_key_env=api_key_env)
        return answer.content

    return respond


def chat_with_memory(memory: MemoryDirectory, sessions: Sequence[Sequence[str]], respond: Responder,
                     max_tool_calls: int = 8) -> pd.DataFrame:
    """Run each session's user messages through the tool loop; one row per event of the transcript.

    Columns: session and turn (from 1), event (``user``, ``memory`` or ``assistant``), text (the
    message, or the command with its arguments) and result (the command's answer, first line),
    error (True when the command was refused). Sessions share the folder and nothing else.
    """
    rows: list[dict[str, Any]] = []
    for session_number, user_messages in enumerate(sessions, start=1):
        messages: list[dict[str, Any]] = []
        for turn, text in enumerate(user_messages, start=1):
            messages.append({"role": "user", "content": text})
            row = {"session": session_number, "turn": turn}
            rows.append({**row, "event": "user", "text": text, "result": "", "error": False})
            for _ in range(max_tool_calls + 1):
                blocks = [dict(block) for block in respond(messages)]
                if not blocks:
                    raise ChatError(f"session {session_number}, turn {turn}: the reply has no content")
                messages.append({"role": "assistant", "content": blocks})
                calls = [block for block in blocks if block.get("type") == "tool_use"]
                said = " ".join(str(block.get("text", "")) for block in blocks if block.get("type") == "text").strip()
                if not calls:
                    rows.append({**row, "event": "assistant", "text": said, "result": "", "error": False})
                    break
                results = []
                for block in calls:
                    outcome = memory.execute(block.get("input", {}))
                    rows.append({**row, "event": "memory", "text": _command_line(block.get("input", {})),
                                 "result": outcome.text.split("\n", 1)[0], "error": outcome.is_error})
                    results.append(outcome.block(str(block.get("id", ""))))
                messages.append({"role": "user", "content": results})
            else:
                raise ChatError(f"session {session_number}, turn {turn}: more than {max_tool_calls} tool calls "
                                "without an answer")
    return pd.DataFrame(rows, columns=["session", "turn", "event", "text", "result", "error"])


def _command_line(command: Mapping[str, Any]) -> str:
    """``create /memories/learner.md (62 chars)``: a command and its arguments in one short line."""
    if not isinstance(command, Mapping):
        return repr(command)
    name = str(command.get("command", "?"))
    paths = [str(command[key]) for key in ("path", "old_path", "new_path") if key in command]
    details = []
    if "file_text" in command:
        details.append(f"{len(str(command['file_text']))} chars")
    if "old_str" in command:
        details.append(f"{command['old_str']!r} -> {command.get('new_str')!r}")
    if "insert_line" in command:
        details.append(f"after line {command['insert_line']}: {command.get('insert_text')!r}")
    if "view_range" in command:
        details.append(f"lines {command['view_range']}")
    return " ".join([name, " -> ".join(paths)] + ([f"({'; '.join(details)})"] if details else []))
