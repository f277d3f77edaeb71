"""Key figures per lesson, read back from the tables the lesson wrote.

The run summary quotes these so a maintainer sees at a glance what a change moved.
Each entry reads only committed-style CSVs under ``data/tables/``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

__all__ = ["key_figures", "FIGURES"]


def _lesson01(tables: Path) -> str:
    pages = pd.read_csv(tables / "01_pages_by_status.csv")
    blocks = pd.read_csv(tables / "01_blocks_by_type.csv")
    counts = dict(zip(pages["status"], pages["pages"]))
    return (f"{int(pages['pages'].sum())} pages ({counts.get('publishable', 0)} publishable, "
            f"{counts.get('draft', 0)} drafts, {counts.get('private', 0)} private), "
            f"{int(blocks['blocks'].sum())} blocks")


def _lesson02(tables: Path) -> str:
    t1 = pd.read_csv(tables / "02_table1_clients.csv").set_index("client")
    quiet = pd.read_csv(tables / "02_quiet_workspace.csv")
    aware = quiet[(quiet["client"] == "budget-aware") & (quiet["passes"] == 4)].iloc[0]
    paced = t1.loc["paced, 1 pass"]
    return (f"paced 1 pass {int(paced['requests'])} req in {paced['duration_s']} s; burst 4 passes "
            f"{t1.loc['burst, 4 passes', 'duration_s']} s; budget-aware vs minimum {aware['vs_minimum']}")


def _lesson03(tables: Path) -> str:
    totals = dict(pd.read_csv(tables / "03_chunk_totals.csv").values)
    return (f"{int(totals['chunks'])} chunks from {int(totals['sections'])} sections, mean {totals['mean tokens per chunk']} "
            f"tokens, overlap +{totals['overlap overhead %']} %")


def _lesson04(tables: Path) -> str:
    summary = pd.read_csv(tables / "04_strategy_summary.csv").set_index("strategy")
    return "; ".join(f"{name} {int(row['chunks'])} chunks (+{row['overlap_cost_pct']} %)"
                     for name, row in summary.iterrows())


def _lesson05(tables: Path) -> str:
    matrix = pd.read_csv(tables / "05_tfidf_matrix.csv").iloc[0]
    answers = pd.read_csv(tables / "05_counter_questions.csv")
    top = answers[answers["rank"] == 1]
    mapped = pd.read_csv(tables / "05_map.csv").iloc[0]
    return (f"TF-IDF {int(matrix['chunks'])} x {int(matrix['vocabulary'])} ({matrix['non_zero_pct']} % non-zero); "
            f"top-1 scores {', '.join(f'{s:.3f}' for s in top['score'])}; map variance "
            f"{mapped['explained_variance_pct']} %, purity {mapped['nearest_neighbour_purity_pct']} %")


def _lesson06(tables: Path) -> str:
    today = dict(pd.read_csv(tables / "06_todays_sync.csv").values)
    costs = pd.read_csv(tables / "06_table3_costs.csv")
    month = costs.iloc[-1]
    return (f"today's sync {today['requests to Notion']} requests, {today['pages re-read']} pages re-read, "
            f"{today['tokens that would go to an embedding API']} tokens; a month {int(month['requests'])} requests, "
            f"{month['usd_embeddings']:.5f} USD")


def _lesson07(tables: Path) -> str:
    bakery = pd.read_csv(tables / "07_bakery_comparison.csv")
    best = bakery.loc[bakery["recall@8"].idxmax()]
    curve = pd.read_csv(tables / "07_study_precision_at_k.csv").set_index("k")
    handbook = pd.read_csv(tables / "07_handbook_bigrams.csv")
    bm25 = handbook[handbook["method"] == "BM25"].set_index("analyzer")["recall@8"]
    tfidf = bakery.set_index("method")["recall@8"].iloc[0]
    return (f"bakery recall@8 best {best['method']} {best['recall@8']:.3f} (TF-IDF {tfidf:.3f}); notes P@1 "
            f"{curve.loc[1, 'precision']:.3f} of {curve.loc[1, 'ideal']:.3f}; handbook BM25 recall@8 "
            f"{bm25.drop('character bigrams').iloc[0]:.3f} -> {bm25['character bigrams']:.3f} with bigrams")


def _lesson08(tables: Path) -> str:
    totals = dict(pd.read_csv(tables / "08_totals.csv")[["strategy", "tokens_30_turns"]].values)
    return (f"30 turns: history {totals['history']:,}, summary {totals['summary']:,}, retrieval "
            f"{totals['retrieval']:,} tokens")


def _lesson09(tables: Path) -> str:
    compared = pd.read_csv(tables / "09_in_process_vs_http.csv")
    sdk = pd.read_csv(tables / "09_sdk_vs_lab_on_529.csv")
    raised = int(sdk["outcome"].str.startswith("raised").sum())
    return (f"HTTP vs in process: {int(compared['chunks'].iloc[1])} chunks, identical "
            f"{bool(compared['identical_chunks'].all())}; official SDK raised on {raised} of 6 calls (529)")


FIGURES: dict[str, Callable[[Path], str]] = {
    "01": _lesson01,
    "02": _lesson02,
    "03": _lesson03,
    "04": _lesson04,
    "05": _lesson05,
    "06": _lesson06,
    "07": _lesson07,
    "08": _lesson08,
    "09": _lesson09,
}


def key_figures(lesson: str, tables: Path) -> str:
    """A one-line summary of a lesson's results, or why it cannot be read."""
    reader = FIGURES.get(lesson[:2])
    if reader is None:
        return ""
    try:
        return reader(tables)
    except (OSError, KeyError, ValueError) as exc:
        return f"(tables unreadable: {exc})"
