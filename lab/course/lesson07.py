"""Lesson 07's seed, the layout of its permission-filter table, and the figures its run summary
reports. The lesson's searches and measurements run in its cells."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from lab.vectors import Hit

__all__ = ["SEED", "top_hits_table", "key_figures"]

SEED = 7  # seeds the simulated reads (latency, faults) and LSA's start vector


def top_hits_table(searches: Mapping[str, Sequence[Hit]], audience_of: Mapping[str, str],
                   n: int = 4) -> pd.DataFrame:
    """The first ``n`` hits of each labelled search, with the audience of each hit's page."""
    return pd.concat([pd.DataFrame([{"search": label, "rank": rank, "score": round(h.score, 4), "page": h.title,
                                     "section": h.section, "audience": audience_of[h.page_id]}
                                    for rank, h in enumerate(hits[:n], start=1)])
                      for label, hits in searches.items()], ignore_index=True)


# ---------------------------------------------------------------- the exercises


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    bakery = pd.read_csv(tables / "07_bakery_comparison.csv")
    best = bakery.loc[bakery["recall@8"].idxmax()]
    curve = pd.read_csv(tables / "07_study_precision_at_k.csv").set_index("k")
    handbook = pd.read_csv(tables / "07_handbook_bigrams.csv")
    bm25 = handbook[handbook["method"] == "BM25"].set_index("analyzer")["recall@8"]
    tfidf = bakery.set_index("method")["recall@8"].iloc[0]
    return (f"bakery recall@8 best {best['method']} {best['recall@8']:.3f} (TF-IDF {tfidf:.3f}); notes P@1 "
            f"{curve.loc[1, 'precision']:.3f} of {curve.loc[1, 'ideal']:.3f}; handbook BM25 recall@8 "
            f"{bm25.drop('character bigrams').iloc[0]:.3f} -> {bm25['character bigrams']:.3f} with bigrams")
