"""Lesson 10's seed, its aim, the short names of its rungs and the layout of its ladder's table.

The lesson climbs its tuning ladder on lesson 07's chunks in its cells; this module only names the
rungs for the chart and lays the ladder out as a table. A row is named by its step, never by its
position: a climb of other steps (an exercise's one-step climb of 4-grams) is labelled with its own.
It also names the replies the lesson plays back to its two paid rungs (:data:`PLAYBACK`, written for
the lesson, not measured) and the question it plays them to.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from lab.course.paths import DATA_DIR
from lab.retrieval import Ladder
from lab.vectors import Hit

__all__ = ["SEED", "RUNG_NAMES", "RECALL_TARGET", "TYPO_QUESTION", "GAP_QUESTION", "PLAYBACK", "rung_labels",
           "ladder_table", "side_by_side", "key_figures"]

SEED = 10  # seeds the simulated reads and the bootstrap

#: The recall@8 the ladder aims for, set before climbing it: about 47 of the 55 questions' sections.
RECALL_TARGET = 0.85

#: Short names of the lesson's rungs, by the name of their step: the ladder's table and chart label
#: each row with its number in the climb and this name (a step not listed here keeps its own name).
RUNG_NAMES = {
    "Snowball stems, folded accents, stop words": "stems",
    "character 4-grams instead of stems": "4-grams",
    "title and section counted twice": "headings x2",
    "chunks of 150/30 tokens, not 300/50": "chunks 150",
    "RM3 feedback (10 docs, 10 terms)": "RM3",
    "fused with LSA-128 by RRF": "+ LSA",
    "BM25F: title, section, body as fields": "BM25F",
    "fused with BM25 on Snowball stems": "+ stems BM25",
    "fused with multilingual-e5-small by RRF": "+ e5",
    "its English/Portuguese variant instead": "e5 en/pt",
    "sections ranked, each at its best chunk": "sections",
    "no 'Title > Section' first line in the texts": "no breadcrumb",
    "fused by scaled scores: BM25F and e5 alike, no LSA": "scores, no LSA",
    "e5 weighted 0.75 (Weaviate's default)": "e5 at 0.75",
    "best 30 reranked by Voyage AI's rerank-2.5": "rerank",
    "question rewritten by Claude before the search": "rewrite",
}

#: A customer's question with two typos (exercise 1).
TYPO_QUESTION = "¿El rol de canella lleva nues?"

#: A labelled question whose miss is a vocabulary gap: the customer writes "quejarme", the policy
#: "reclamar" (the gold section, *Plazos para reclamar*, comes 16th under the recipe reached).
GAP_QUESTION = "q24"

#: Replies to the reranking and rewriting rungs for :data:`GAP_QUESTION`, written for the lesson in the
#: shapes Voyage AI's and Anthropic's documentation give (its ``note`` says so): they show the clients'
#: mechanics and the price, and measure nothing about either model (``lab.services.read_replies`` reads it).
PLAYBACK = DATA_DIR / "recordings" / "10_rerank_and_rewrite.json"

_METRICS = ("recall@8", "MRR", "nDCG@10")


def rung_labels(table: pd.DataFrame, start: str = "start") -> list[str]:
    """A label for each row of a climb's table (``Ladder.table``): its number in the climb and its step's
    short name (:data:`RUNG_NAMES`, else the step's own name); the first row, the recipe the climb
    starts from, is called ``start``."""
    return [f"{number} {start if number == 0 else RUNG_NAMES.get(step, step)}"
            for number, step in enumerate(table["step"])]


def ladder_table(ladder: Ladder, start: str = "start") -> pd.DataFrame:
    """The ladder as the lesson shows it: each rung by its number and short name (:func:`rung_labels`),
    its three means, each gain over the recipe kept so far with its 95% interval, the questions whose
    recall@8 went up and down, and whether the rule kept it (or that it was skipped: its API key is not
    set)."""
    rows = []
    for label, (_, row) in zip(rung_labels(ladder.table, start), ladder.table.iterrows()):
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


def side_by_side(lists: dict[str, list[Hit]], gold: Iterable[tuple[str, str | None]], k: int = 8) -> pd.DataFrame:
    """The first ``k`` sections of each ranking, one column per ranking (named by ``lists``' keys), rows
    numbered from 1; a gold section (``(page id, section)``, as labelled questions give them) is starred."""
    gold = set(gold)

    def label(hit: Hit) -> str:
        return ("* " if (hit.page_id, hit.section) in gold else "") + hit.label

    columns = {name: [label(hit) for hit in hits[:k]] + [""] * (k - len(hits[:k])) for name, hits in lists.items()}
    return pd.DataFrame(columns, index=pd.RangeIndex(1, k + 1, name="rank"))


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    ladder = pd.read_csv(tables / "10_tuning_ladder.csv")
    start, kept = ladder.iloc[0], ladder[ladder["kept"] == "yes"].iloc[-1]  # the last kept rung is the end
    heldout = pd.read_csv(tables / "10_ladder_heldout.csv").iloc[1]
    return (f"ladder recall@8 {start['recall@8']:.3f} -> {kept['recall@8']:.3f}, MRR {start['MRR']:.3f} -> "
            f"{kept['MRR']:.3f}; on questions written afterwards MRR {heldout['start MRR']:.3f} -> "
            f"{heldout['reached MRR']:.3f}")
