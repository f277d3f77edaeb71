"""Lesson 10's seed, its aim, the short names of its rungs and the layout of its ladder's table.

The lesson climbs its tuning ladder on lesson 07's chunks in its cells; this module only names the
rungs for the chart and lays the ladder out as a table.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from lab.retrieval import Ladder

__all__ = ["SEED", "RUNG_LABELS", "RECALL_TARGET", "TYPO_QUESTION", "ladder_table", "key_figures"]

SEED = 10  # seeds the simulated reads and the bootstrap

#: The recall@8 the ladder aims for, set before climbing it: about 47 of the 55 questions' sections.
RECALL_TARGET = 0.85

#: Short names of the rungs, "start" first: the ladder's table and chart name each rung by them.
RUNG_LABELS = ("0 start: BM25", "1 stems", "2 4-grams", "3 headings x2", "4 chunks 150", "5 RM3", "6 + LSA",
               "7 BM25F", "8 + stems BM25", "9 + e5", "10 e5 en/pt", "11 sections", "12 no breadcrumb",
               "13 scores, no LSA", "14 e5 at 0.75", "15 rerank", "16 rewrite")

#: A customer's question with two typos (exercise 1).
TYPO_QUESTION = "¿El rol de canella lleva nues?"

_METRICS = ("recall@8", "MRR", "nDCG@10")


def ladder_table(ladder: Ladder) -> pd.DataFrame:
    """The ladder as the lesson shows it: each rung by its number and short name, its three means,
    each gain over the recipe kept so far with its 95% interval, the questions whose recall@8 went
    up and down, and whether the rule kept it (or that it was skipped: its API key is not set)."""
    rows = []
    for label, (_, row) in zip(RUNG_LABELS, ladder.table.iterrows()):
        shown = {"rung": label, **{m: round(row[m], 3) for m in _METRICS}}
        for metric in _METRICS:
            gain = row.get(f"gain {metric}")
            shown[f"gain {metric} [95% CI]"] = "" if pd.isna(gain) else f"{gain:+.3f} {row[f'95% CI {metric}']}"
        moved = row.get("recall@8 up/down")
        shown["recall@8 up/down"] = moved if isinstance(moved, str) else ""
        skipped = row.get("skipped")
        shown["kept"] = "skipped (no key)" if isinstance(skipped, str) and skipped else "yes" if row["kept"] else "no"
        rows.append(shown)
    return pd.DataFrame(rows).set_index("rung")


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    ladder = pd.read_csv(tables / "10_tuning_ladder.csv")
    start, kept = ladder.iloc[0], ladder[ladder["kept"] == "yes"].iloc[-1]  # the last kept rung is the end
    heldout = pd.read_csv(tables / "10_ladder_heldout.csv").iloc[1]
    return (f"ladder recall@8 {start['recall@8']:.3f} -> {kept['recall@8']:.3f}, MRR {start['MRR']:.3f} -> "
            f"{kept['MRR']:.3f}; on questions written afterwards MRR {heldout['start MRR']:.3f} -> "
            f"{heldout['reached MRR']:.3f}")
