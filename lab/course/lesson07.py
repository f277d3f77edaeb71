"""Lesson 07's seed, and the tables only this lesson builds.

The tables audit one retriever at a time on the lesson's labelled sets: what an abstain
threshold keeps, the top hits of a search with and without the asker's audience, what the
audience filter changes over a whole question set, and what an analyzer changes. Expected values
of the exercises are computed here by the lab's own code, never typed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pandas as pd

from lab.retrieval import BM25Retriever, Retriever, SearchCorpus, TfidfRetriever
from lab.retrieval.evaluation import LabelledQuestion, RecallAt, ReciprocalRank, evaluate_search, mean_table
from lab.vectors import Hit

__all__ = ["SEED", "threshold_table", "top_hits_table", "audience_filter_table", "analyzer_table", "key_figures"]

SEED = 7  # seeds the simulated reads (latency, faults) and LSA's start vector

_HANDBOOK_METRICS = (RecallAt(1), RecallAt(8), ReciprocalRank())


def threshold_table(retriever: Retriever, questions: Sequence[LabelledQuestion], threshold: float,
                    k: int = 3) -> pd.DataFrame:
    """Per question: the top ``k`` with scores, what a ``min_score`` of ``threshold`` keeps, and how
    many relevant results the threshold drops (a relevant result it drops is a cost of the threshold)."""
    rows = []
    for q in questions:
        plain = retriever.search(q.question, k=k)
        kept = retriever.search(q.question, k=k, min_score=threshold)
        dropped = ({h.id for h in plain} - {h.id for h in kept}) & q.relevant
        rows.append({"query": q.id, f"top {k}": " ".join(f"{h.id}:{h.score:.2f}" for h in plain),
                     f"kept at {threshold}": " ".join(h.id for h in kept) or "(abstain)",
                     "relevant dropped": len(dropped)})
    return pd.DataFrame(rows)


def top_hits_table(searches: Mapping[str, Sequence[Hit]], audience_of: Mapping[str, str],
                   n: int = 4) -> pd.DataFrame:
    """The first ``n`` hits of each labelled search, with the audience of each hit's page."""
    return pd.concat([pd.DataFrame([{"search": label, "rank": rank, "score": round(h.score, 4), "page": h.title,
                                     "section": h.section, "audience": audience_of[h.page_id]}
                                    for rank, h in enumerate(hits[:n], start=1)])
                      for label, hits in searches.items()], ignore_index=True)


def audience_filter_table(retriever: Retriever, questions: Sequence[LabelledQuestion], hidden_page: str,
                          support: str = "客服") -> pd.DataFrame:
    """recall@1, recall@8 and MRR without an audience filter and with each asker's audience, and how
    many of the ``support`` audience's questions get a chunk of ``hidden_page`` in their top 8."""
    rows = []
    for label, audience in (("no filter", lambda q: None), ("asker's audience", lambda q: q.audience)):
        table = evaluate_search(lambda q: retriever.search(q.question, k=50, audience=audience(q)), questions,
                                _HANDBOOK_METRICS)
        leaks = sum(hidden_page in {h.page_id for h in retriever.search(q.question, k=8, audience=audience(q))}
                    for q in questions if q.audience == support)
        rows.append({"search": label, **mean_table(table).set_index("metric")["mean"].round(3).to_dict(),
                     "support questions shown HR text": leaks})
    return pd.DataFrame(rows)


def analyzer_table(corpus: SearchCorpus, questions: Sequence[LabelledQuestion],
                   analyzers: Mapping[str, Callable[[str], list[str]]]) -> pd.DataFrame:
    """BM25 and TF-IDF under each analyzer, searching with the asker's audience: how many questions
    share at least one term with a chunk they may see, then recall@1, recall@8 and MRR."""
    rows = []
    for analyzer_name, analyzer in analyzers.items():
        for name, retriever in (("BM25", BM25Retriever(analyzer=analyzer)),
                                ("TF-IDF", TfidfRetriever(analyzer=analyzer))):
            retriever.fit(corpus)
            table = evaluate_search(lambda q: retriever.search(q.question, k=50, audience=q.audience), questions,
                                    _HANDBOOK_METRICS)
            matched = sum(bool(retriever.search(q.question, k=1, audience=q.audience, min_score=1e-9))
                          for q in questions)
            rows.append({"analyzer": analyzer_name, "method": name, "questions with a matching term": matched,
                         **mean_table(table).set_index("metric")["mean"].round(3).to_dict()})
    return pd.DataFrame(rows)


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
