"""The values lesson 08 asks a profile to store, and the figures its run summary reports."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["CANDIDATES", "GOALS", "key_figures"]

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


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    totals = dict(pd.read_csv(tables / "08_totals.csv")[["strategy", "tokens_30_turns"]].values)
    bodies = pd.read_csv(tables / "08_request_bodies.csv")["body_bytes"]
    middle = pd.read_csv(tables / "08_lost_in_the_middle.csv").set_index("arrangement").loc["middle"]
    return (f"30 turns: history {totals['history']:,}, summary {totals['summary']:,}, retrieval "
            f"{totals['retrieval']:,} tokens; request body {bodies.iloc[0]:,} to {bodies.iloc[-1]:,} bytes "
            f"over {len(bodies)} turns; answer in the middle found {middle['middle weight 0.5']} times at weight 0.5")
