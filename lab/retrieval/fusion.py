"""Reciprocal rank fusion: several rankings become one without comparing their scores.

Cormack, Clarke and Buettcher (SIGIR 2009): an item's fused score is

    RRF(d) = sum over rankings r containing d of  1 / (k + rank_r(d)),   ranks counted from 1,

with k = 60. Only ranks matter, so a BM25 score of 14.2 and a cosine of 0.31 never need a
common scale; k damps the difference between first and second place, so an item that several
retrievers rank fairly high beats one that a single retriever ranks first.

Relevance is judged per section, and a section cut into two chunks takes two places in a
chunk ranking, pushing every section below it down one rank. ``RRF(..., unit="section")``
ranks sections instead: each retriever's list keeps a section once, at its best chunk (MaxP,
as Dai and Callan 2019 call it), ranks are fused per section, and each section comes back as
the chunk that ranked it best.

:class:`RelativeScoreFusion` fuses by score instead, the way vector databases' hybrid search does
by default (Weaviate's ``relativeScoreFusion``; a convex combination in Bruch, Gai and Ingber,
ACM TOIS 2023): each list's scores are scaled to 0-1 (its best hit 1, its last 0), and an item's
fused score is the weighted sum of its scaled scores, 0 from a list that did not return it. Unlike
ranks, scaled scores keep how far ahead a list's first hit is: a dense model that is sure of one
section lifts it more than one that ranks everything about the same.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import Any, Literal

from lab.retrieval.corpus import SearchCorpus
from lab.retrieval.filters import ChunkFilter
from lab.retrieval.retrievers import Retriever
from lab.vectors.search import Hit, check_k, check_min_score

__all__ = ["reciprocal_rank_fusion", "relative_score_fusion", "RRF", "RelativeScoreFusion", "RRF_K", "UNITS"]

#: The constant of Cormack et al., used by Elasticsearch, OpenSearch and most hybrid search tools.
RRF_K = 60

#: What :class:`RRF` ranks: chunks as the retrievers return them, or the sections they belong to.
UNITS = ("chunk", "section")


def _key(hit: Hit, unit: str) -> Hashable:
    return hit.id if unit == "chunk" else (hit.page_id, hit.section)


def reciprocal_rank_fusion(rankings: Sequence[Sequence[Hashable]], k: float = RRF_K) -> list[tuple[Hashable, float]]:
    """Fuse rankings of distinct items into ``(item, score)`` pairs, best first.

    Equal scores are ordered as a round-robin merge of the rankings would order them: by the
    best rank the item reached, then by the earliest ranking that gave it that rank. So the
    result never depends on hashing or set order.
    """
    if not k >= 0:
        raise ValueError(f"k must be >= 0 (60 is the usual value), not {k!r}")
    scores: dict[Hashable, float] = {}
    first_seen: dict[Hashable, tuple[int, int]] = {}
    for which, ranking in enumerate(rankings):
        if len(set(ranking)) != len(ranking):
            raise ValueError(f"ranking {which} lists an item twice; each ranking must hold distinct items")
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
            first_seen[item] = min(first_seen.get(item, (rank, which)), (rank, which))
    return sorted(scores.items(), key=lambda pair: (-pair[1], first_seen[pair[0]]))


class RRF(Retriever):
    """A hybrid retriever: each retriever searches (audience filter included), ranks are fused by RRF.

    Parameters
    ----------
    retrievers : the retrievers to fuse (fitted on the same corpus by :meth:`fit`).
    k : the RRF constant (60). Not the number of results: that is ``search``'s ``k``.
    depth : how many hits each retriever contributes before fusion.
    unit : "chunk" fuses chunks; "section" fuses sections, one hit each (its best-ranked chunk).

    Attributes
    ----------
    corpus_ : the corpus every retriever was fitted on.
    """

    def __init__(self, retrievers: Sequence[Retriever], k: float = RRF_K, depth: int = 100,
                 unit: Literal["chunk", "section"] = "chunk") -> None:
        self.retrievers = retrievers
        self.k = k
        self.depth = depth
        self.unit = unit

    def fit(self, corpus: SearchCorpus) -> RRF:
        """Fit every retriever on ``corpus``; returns self."""
        return _fit_all(self, corpus)

    def search(self, query: str, k: int = 10, audience: str | None = None,
               min_score: float | None = None, where: ChunkFilter | None = None) -> list[Hit]:
        """The ``k`` best fused chunks for ``audience`` that ``where`` keeps; ``min_score`` applies to the fused score.

        Each retriever filters by audience and ``where`` before ranking, so the fused list holds only
        visible chunks and still has ``k`` of them whenever the retrievers found that many.
        """
        self._check_fitted("corpus_")
        k, min_score = check_k(k), check_min_score(min_score)
        rankings = _unit_rankings(self.retrievers, query, max(self.depth, k), audience, self.unit, where)
        fused = reciprocal_rank_fusion([[key for key, _ in ranking] for ranking in rankings], self.k)
        return _chosen(fused, rankings, k, min_score)


def _fit_all(fusion: RRF | RelativeScoreFusion, corpus: SearchCorpus) -> Any:
    """Check what every fusion needs (retrievers, a known unit) and fit each retriever on ``corpus``."""
    if not fusion.retrievers:
        raise ValueError(f"{type(fusion).__name__} needs at least one retriever to fuse")
    if fusion.unit not in UNITS:
        raise ValueError(f"unit must be one of {UNITS}, not {fusion.unit!r}")
    for retriever in fusion.retrievers:
        retriever.fit(corpus)
    fusion.corpus_ = corpus
    return fusion


def _unit_rankings(retrievers: Sequence[Retriever], query: str, depth: int, audience: str | None,
                   unit: str, where: ChunkFilter | None = None) -> list[list[tuple[Hashable, Hit]]]:
    """Each retriever's ``depth`` best hits for ``audience`` that ``where`` keeps, as (unit key, hit) pairs, a
    section once, at its best chunk."""
    rankings = []
    for retriever in retrievers:
        ranking: dict[Hashable, Hit] = {}
        for hit in retriever.search(query, depth, audience=audience, where=where):
            ranking.setdefault(_key(hit, unit), hit)
        rankings.append(list(ranking.items()))
    return rankings


def _chosen(fused: list[tuple[Hashable, float]], rankings: list[list[tuple[Hashable, Hit]]], k: int,
            min_score: float | None) -> list[Hit]:
    """The ``k`` best fused keys at or above ``min_score``, each as the hit where it ranked best (earliest list first)."""
    best: dict[Hashable, Hit] = {}
    for rank in range(max(map(len, rankings), default=0)):
        for ranking in rankings:
            if rank < len(ranking):
                best.setdefault(*ranking[rank])
    chosen = [(key, score) for key, score in fused if min_score is None or score >= min_score][:k]
    return [replace(best[key], score=score) for key, score in chosen]


def relative_score_fusion(rankings: Sequence[Sequence[tuple[Hashable, float]]],
                          weights: Sequence[float]) -> list[tuple[Hashable, float]]:
    """Fuse scored rankings into ``(item, score)`` pairs, best first: each list's scores scaled to 0-1
    (min-max; a list whose scores are all equal gives each item 1), weighted, summed.

    Equal fused scores are ordered as :func:`reciprocal_rank_fusion` orders them: by the best rank
    the item reached, then by the earliest ranking that gave it that rank.
    """
    if len(weights) != len(rankings):
        raise ValueError(f"{len(rankings)} rankings need {len(rankings)} weights, not {len(weights)}")
    if any(not w >= 0 for w in weights) or not sum(weights) > 0:
        raise ValueError(f"weights must be >= 0 with a positive sum, not {list(weights)!r}")
    scores: dict[Hashable, float] = {}
    first_seen: dict[Hashable, tuple[int, int]] = {}
    for which, (ranking, weight) in enumerate(zip(rankings, weights)):
        if len({item for item, _ in ranking}) != len(ranking):
            raise ValueError(f"ranking {which} lists an item twice; each ranking must hold distinct items")
        values = [score for _, score in ranking]
        low, high = min(values, default=0.0), max(values, default=0.0)
        for rank, (item, score) in enumerate(ranking, start=1):
            scaled = (score - low) / (high - low) if high > low else 1.0
            scores[item] = scores.get(item, 0.0) + weight * scaled
            first_seen[item] = min(first_seen.get(item, (rank, which)), (rank, which))
    return sorted(scores.items(), key=lambda pair: (-pair[1], first_seen[pair[0]]))


class RelativeScoreFusion(Retriever):
    """A hybrid retriever that fuses by scaled scores (:func:`relative_score_fusion`) instead of ranks.

    Parameters
    ----------
    retrievers : the retrievers to fuse (fitted on the same corpus by :meth:`fit`).
    weights : one weight per retriever (``None``: equal weights); Weaviate calls the dense list's
        share alpha (0.75 by default there; 0.5 weighs both lists alike).
    depth : how many hits each retriever contributes; its scores are scaled over those.
    unit : "chunk" fuses chunks; "section" fuses sections, each at its best chunk (and best score).

    The fused score lies between 0 and the sum of the weights, so ``min_score`` reads on that scale.
    """

    def __init__(self, retrievers: Sequence[Retriever], weights: Sequence[float] | None = None, depth: int = 100,
                 unit: Literal["chunk", "section"] = "chunk") -> None:
        self.retrievers = retrievers
        self.weights = weights
        self.depth = depth
        self.unit = unit

    def fit(self, corpus: SearchCorpus) -> RelativeScoreFusion:
        """Check the weights and fit every retriever on ``corpus``; returns self."""
        if self.weights is not None and len(self.weights) != len(self.retrievers):
            raise ValueError(f"{len(self.retrievers)} retrievers need {len(self.retrievers)} weights, "
                             f"not {len(self.weights)}")
        return _fit_all(self, corpus)

    def search(self, query: str, k: int = 10, audience: str | None = None,
               min_score: float | None = None, where: ChunkFilter | None = None) -> list[Hit]:
        """The ``k`` best fused chunks for ``audience`` that ``where`` keeps; ``min_score`` applies to the fused
        score."""
        self._check_fitted("corpus_")
        k, min_score = check_k(k), check_min_score(min_score)
        rankings = _unit_rankings(self.retrievers, query, max(self.depth, k), audience, self.unit, where)
        weights = self.weights if self.weights is not None else [1.0 / len(rankings)] * len(rankings)
        fused = relative_score_fusion([[(key, hit.score) for key, hit in ranking] for ranking in rankings], weights)
        return _chosen(fused, rankings, k, min_score)
