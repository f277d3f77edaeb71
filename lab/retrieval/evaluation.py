"""Measuring a ranking against labelled relevance: precision@k, recall@k, MRR, nDCG@k.

A retriever returns chunks, but a question's gold answer is a *source unit*: a section of a
page (``(page_id, section)``) or a whole page. Scoring chunks directly would reward a chunker
that cuts a relevant section into three pieces (three "hits" for one answer) and punish one
that keeps it whole. So a ranking of chunks is first mapped to units and deduplicated, keeping
each unit's first (best) position; only then are the metrics computed. With ``ranked`` the
deduplicated units, ``R`` the relevant set and ``rel_i = 1`` when the unit at rank ``i`` is in ``R``:

- precision@k = |R ∩ ranked[:k]| / k, whose best possible value is the ideal ceiling min(k, |R|) / k;
- recall@k = |R ∩ ranked[:k]| / |R|;
- reciprocal rank = 1 / (rank of the first relevant unit), 0 when none is ranked; MRR is its mean;
- nDCG@k = DCG@k / IDCG@k with binary gains and a log2 discount, DCG@k = sum_i rel_i / log2(i + 1),
  IDCG@k the DCG of a ranking that puts min(k, |R|) relevant units first.

A question with no relevant unit (one the knowledge base cannot answer) has precision 0 and a
ceiling of 0, but recall, reciprocal rank and nDCG are undefined for it: they are NaN, and the
averages leave it out (:func:`mean_table` says how many questions each average covers).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import pandas as pd

from lab.vectors.search import check_k

__all__ = [
    "Level", "LEVELS", "source_unit", "source_units", "dedupe",
    "precision_at_k", "ideal_precision_at_k", "recall_at_k", "reciprocal_rank", "ndcg_at_k",
    "Metric", "PrecisionAt", "IdealPrecisionAt", "RecallAt", "ReciprocalRank", "NdcgAt",
    "LabelledQuestion", "per_query_table", "mean_table", "evaluate_search", "misses", "compare_methods",
    "miss_table",
]

Level = Literal["section", "page"]
#: The granularities relevance can be judged at.
LEVELS: tuple[str, ...] = ("section", "page")


# ---------------------------------------------------------------- from chunks to source units

def _get(item: Any, name: str) -> Any:
    return item[name] if isinstance(item, Mapping) else getattr(item, name)


def source_unit(item: Any, level: Level = "section") -> Hashable:
    """The unit a hit or chunk is judged as: ``(page_id, section)`` or ``page_id``.

    ``item`` is anything with ``page_id`` and ``section`` (a retrieval hit, a chunk, a dict).
    Text before a page's first heading has section ``None``, a unit of its own.
    """
    if level == "section":
        return (_get(item, "page_id"), _get(item, "section"))
    if level == "page":
        return _get(item, "page_id")
    raise ValueError(f"unknown relevance level {level!r}; use one of {list(LEVELS)}")


def dedupe(units: Iterable[Hashable]) -> list[Hashable]:
    """``units`` without repeats, each kept at its first position (the best rank it reached)."""
    return list(dict.fromkeys(units))


def source_units(hits: Iterable[Any], level: Level = "section") -> list[Hashable]:
    """A ranking of chunks as a ranking of distinct source units, best first."""
    return dedupe(source_unit(hit, level) for hit in hits)


# ---------------------------------------------------------------- one ranking, one metric

def _check_distinct(ranked: Sequence[Hashable]) -> None:
    if len(set(ranked)) != len(ranked):
        raise ValueError("the ranking repeats a unit; deduplicate it first (source_units or dedupe) "
                         "so that one answer is not counted twice")


def _hits_in_top(ranked: Sequence[Hashable], relevant: Collection[Hashable], k: int) -> int:
    check_k(k)
    _check_distinct(ranked)
    return sum(1 for unit in ranked[:k] if unit in relevant)


def precision_at_k(ranked: Sequence[Hashable], relevant: Collection[Hashable], k: int) -> float:
    """Share of the first ``k`` positions holding a relevant unit (a short ranking counts its gaps as misses)."""
    return _hits_in_top(ranked, relevant, k) / k


def ideal_precision_at_k(n_relevant: int, k: int) -> float:
    """The best precision@k any ranking can reach with ``n_relevant`` relevant units: min(k, |R|) / k."""
    check_k(k)
    if n_relevant < 0:
        raise ValueError(f"n_relevant counts units and cannot be negative, got {n_relevant}")
    return min(k, n_relevant) / k


def recall_at_k(ranked: Sequence[Hashable], relevant: Collection[Hashable], k: int) -> float:
    """Share of the relevant units found in the first ``k`` positions; NaN when there are none to find."""
    found = _hits_in_top(ranked, relevant, k)
    return found / len(relevant) if relevant else math.nan


def reciprocal_rank(ranked: Sequence[Hashable], relevant: Collection[Hashable], k: int | None = None) -> float:
    """1 / rank of the first relevant unit (within the first ``k`` when given), 0 if none.

    NaN without relevant units: there is nothing to find, so no rank to reward.
    """
    _check_distinct(ranked)
    if k is not None:
        check_k(k)
    if not relevant:
        return math.nan
    for rank, unit in enumerate(ranked[:k] if k is not None else ranked, start=1):
        if unit in relevant:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranked: Sequence[Hashable], relevant: Collection[Hashable], k: int) -> float:
    """Binary-gain nDCG@k with a log2(rank + 1) discount; NaN without relevant units."""
    _hits_in_top(ranked, relevant, k)  # validates k and the ranking
    if not relevant:
        return math.nan
    dcg = sum(1.0 / math.log2(rank + 1) for rank, unit in enumerate(ranked[:k], start=1) if unit in relevant)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(k, len(relevant)) + 1))
    return dcg / ideal


# ---------------------------------------------------------------- metrics as named objects

@dataclass(frozen=True)
class Metric:
    """A named score of one deduplicated ranking against one relevant set (a table column)."""

    @property
    def name(self) -> str:
        raise NotImplementedError

    def __call__(self, ranked: Sequence[Hashable], relevant: Collection[Hashable]) -> float:
        raise NotImplementedError


@dataclass(frozen=True)
class _Cutoff(Metric):
    """A metric of the top ``k`` of a ranking: ``label`` names it, ``score`` computes it."""

    k: int
    label: ClassVar[str]
    score: ClassVar[Callable[[Sequence[Hashable], Collection[Hashable], int], float]]

    @property
    def name(self) -> str:
        return self.label.format(k=self.k)

    def __call__(self, ranked: Sequence[Hashable], relevant: Collection[Hashable]) -> float:
        return type(self).score(ranked, relevant, self.k)


class PrecisionAt(_Cutoff):
    """precision@k."""

    label, score = "P@{k}", staticmethod(precision_at_k)


class IdealPrecisionAt(_Cutoff):
    """The ceiling of precision@k for this question: what a perfect ranking would score."""

    label, score = "ideal P@{k}", staticmethod(lambda ranked, relevant, k: ideal_precision_at_k(len(relevant), k))


class RecallAt(_Cutoff):
    """recall@k."""

    label, score = "recall@{k}", staticmethod(recall_at_k)


class NdcgAt(_Cutoff):
    """nDCG@k with binary gains."""

    label, score = "nDCG@{k}", staticmethod(ndcg_at_k)


@dataclass(frozen=True)
class ReciprocalRank(Metric):
    """Reciprocal rank of the first relevant unit (its mean over questions is MRR)."""

    k: int | None = None

    @property
    def name(self) -> str:
        return "MRR" if self.k is None else f"MRR@{self.k}"

    def __call__(self, ranked: Sequence[Hashable], relevant: Collection[Hashable]) -> float:
        return reciprocal_rank(ranked, relevant, self.k)


# ---------------------------------------------------------------- many questions

@dataclass(frozen=True)
class LabelledQuestion:
    """A question, the source units that answer it, who asks it (``None``: anyone) and what it tests."""

    id: str
    question: str
    relevant: frozenset[Hashable]
    audience: str | None = None
    kind: str | None = None


def per_query_table(rankings: Mapping[str, Sequence[Hashable]], relevant: Mapping[str, Collection[Hashable]],
                    metrics: Sequence[Metric]) -> pd.DataFrame:
    """One row per question (in ``rankings`` order): how many units are relevant, then one column per metric.

    ``rankings`` maps a question id to its deduplicated ranking of units; ``relevant`` maps the
    same ids to their relevant units.
    """
    missing = [qid for qid in rankings if qid not in relevant]
    if missing:
        raise KeyError(f"no relevance judgments for questions {missing}; every ranked question needs a relevant set")
    names = [metric.name for metric in metrics]
    if len(set(names)) != len(names):
        raise ValueError(f"metric names must be distinct, got {names}")
    rows = []
    for qid, ranked in rankings.items():
        gold = relevant[qid]
        rows.append({"question": qid, "relevant": len(gold), **{m.name: m(ranked, gold) for m in metrics}})
    return pd.DataFrame(rows, columns=["question", "relevant", *names])


def mean_table(per_query: pd.DataFrame) -> pd.DataFrame:
    """Each metric averaged over the questions where it is defined, with how many those are."""
    metrics = [c for c in per_query.columns if c not in ("question", "relevant")]
    return pd.DataFrame([{"metric": name, "mean": float(per_query[name].mean()),
                          "questions": int(per_query[name].notna().sum())} for name in metrics])


def evaluate_search(search: Callable[[LabelledQuestion], Sequence[Any]], questions: Sequence[LabelledQuestion],
                    metrics: Sequence[Metric], level: Level = "section") -> pd.DataFrame:
    """Run ``search`` on every question, deduplicate its hits by source unit, score them: :func:`per_query_table`.

    ``search`` receives the whole :class:`LabelledQuestion` (so it can pass the asker's
    audience on) and returns hits with ``page_id`` and ``section``, best first.
    """
    rankings = {q.id: source_units(search(q), level) for q in questions}
    return per_query_table(rankings, {q.id: q.relevant for q in questions}, metrics)


def misses(per_query: pd.DataFrame, metric: str) -> list[str]:
    """Questions whose ``metric`` is 0: none of their relevant units was found (undefined ones excluded)."""
    if metric not in per_query.columns:
        raise KeyError(f"no column {metric!r}; the table has {list(per_query.columns)}")
    return per_query.loc[per_query[metric] == 0, "question"].tolist()


def compare_methods(searches: Mapping[str, Callable[[LabelledQuestion], Sequence[Any]]],
                    questions: Sequence[LabelledQuestion], metrics: Sequence[Metric],
                    level: Level = "section") -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """Evaluate several searches on the same questions.

    Returns one row per method (``method`` and the mean of each metric over the questions where
    it is defined) and each method's per-question table, keyed by method name.
    """
    per_question = {name: evaluate_search(search, questions, metrics, level) for name, search in searches.items()}
    summary = pd.DataFrame([{"method": name, **{m.name: float(table[m.name].mean()) for m in metrics}}
                            for name, table in per_question.items()], columns=["method", *(m.name for m in metrics)])
    return summary, per_question


def miss_table(per_question: Mapping[str, pd.DataFrame], questions: Sequence[LabelledQuestion],
               metric: str) -> pd.DataFrame:
    """The questions some method misses (``metric`` = 0), the most-missed first: how many methods, and
    which ("all" when every method misses it, so the questions that set methods apart stand out)."""
    missed = {name: set(misses(table, metric)) for name, table in per_question.items()}
    rows = []
    for question in questions:
        by = [name for name in per_question if question.id in missed[name]]
        if by:
            rows.append({"question": question.id, "text": question.question, "methods missing": len(by),
                         "missed by": "all" if len(by) == len(per_question) else ", ".join(by)})
    table = pd.DataFrame(rows, columns=["question", "text", "methods missing", "missed by"])
    return table.sort_values(["methods missing", "question"], ascending=[False, True], kind="stable",
                             ignore_index=True)
