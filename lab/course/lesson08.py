"""The values lesson 08 asks a profile to store, and the figures its run summary reports."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["CANDIDATES", "GOALS", "MEMORY_SCRIPT", "MEMORY_SESSIONS", "key_figures"]

# Values a chat might try to save as the profile's "goal"; the labels are what a careful person
# would judge, not what the pattern sees.
GOALS = {
    "a": "my card is five five one two three four",
    "b": "I practise piano keys daily",
    "c": "call me on 55 1234 5678",
    "d": "my password is Sunflower",
    "e": "finish 120000 rows of SQL practice",
    "f": "ana at example dot com",
}
# (field, value) pairs a chat might try to save, for the "what not to store" check.
CANDIDATES = (
    ("goal", "pass the data exam in June"),
    ("goal", "help my friend Diego, he fails every statistics quiz"),
    ("topics", ["pandas", "my sister's thesis data"]),
    ("answer_style", "examples first; the wifi password is cuaderno2026"),
    ("note_about_diego", "Diego cannot stand jazz"),
    ("health", "appointment with the cardiologist tomorrow"),
)

# Two sessions with the memory tool: they share the /memories folder and nothing else.
MEMORY_SESSIONS = (
    ("My exam is on Thursday 12 March. Keep answers short, with an example first.",),
    ("When is my exam?", "It moved to Friday 13 March."),
)
_FACTS = "# Learner\n- exam: Thursday 12 March\n- answers: short, example first\n"
# The replies a model would write in those sessions, tool calls included, played offline: one
# list per model call; a dict is a memory command, a string is text. The first create tries to
# leave the folder and is refused; the model corrects it.
MEMORY_SCRIPT = (
    [{"command": "view", "path": "/memories"}],
    [{"command": "create", "path": "/memories/../learner.md", "file_text": _FACTS}],
    [{"command": "create", "path": "/memories/learner.md", "file_text": _FACTS}],
    ["Noted: Thursday 12 March; short answers, example first."],
    [{"command": "view", "path": "/memories"}],
    [{"command": "view", "path": "/memories/learner.md"}],
    ["Thursday 12 March."],
    [{"command": "str_replace", "path": "/memories/learner.md", "old_str": "Thursday 12 March",
      "new_str": "Friday 13 March"}],
    ["Updated: your exam is on Friday 13 March."],
)


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    totals = dict(pd.read_csv(tables / "08_totals.csv")[["strategy", "tokens_30_turns"]].values)
    bodies = pd.read_csv(tables / "08_request_bodies.csv")["body_bytes"]
    middle = pd.read_csv(tables / "08_lost_in_the_middle.csv").set_index("arrangement").loc["middle"]
    return (f"30 turns: history {totals['history']:,}, summary {totals['summary']:,}, retrieval "
            f"{totals['retrieval']:,} tokens; request body {bodies.iloc[0]:,} to {bodies.iloc[-1]:,} bytes "
            f"over {len(bodies)} turns; answer in the middle found {middle['middle weight 0.5']} times at weight 0.5")
