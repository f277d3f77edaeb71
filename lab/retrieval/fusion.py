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
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import Literal

from lab.retrieval.corpus import SearchCorpus
from lab.retrieval.retrievers import Retriever
from lab.vectors.search import Hit, check_k, check_min_score

__all__ = ["reciprocal_rank_fusion", "RRF", "RRF_K", "UNITS"]

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
        if not self.retrievers:
            raise ValueError("RRF needs at least one retriever to fuse")
        if self.unit not in UNITS:
            raise ValueError(f"unit must be one of {UNITS}, not {self.unit!r}")
        for retriever in self.retrievers:
            retriever.fit(corpus)
        self.corpus_ = corpus
        return self

    def search(self, query: str, k: int = 10, audience: str | None = None,
               min_score: float | None = None) -> list[Hit]:
        """The ``k`` best fused chunks for ``audience``; ``min_score`` applies to the fused score.

        Each retriever filters by audience before ranking, so the fused list holds only visible
        chunks and still has ``k`` of them whenever the retrievers found that many.
        """
        self._check_fitted("corpus_")
        k, min_score = check_k(k), check_min_score(min_score)
        depth = max(self.depth, k)
        rankings: list[list[tuple[Hashable, Hit]]] = []
        for retriever in self.retrievers:
            ranking: dict[Hashable, Hit] = {}
            for hit in retriever.search(query, depth, audience=audience):
                ranking.setdefault(_key(hit, self.unit), hit)  # a section stays at its best chunk
            rankings.append(list(ranking.items()))
        best: dict[Hashable, Hit] = {}  # each key's hit where it ranked best, the earliest list first
        for rank in range(max(map(len, rankings), default=0)):
            for ranking in rankings:
                if rank < len(ranking):
                    best.setdefault(*ranking[rank])
        fused = reciprocal_rank_fusion([[key for key, _ in ranking] for ranking in rankings], self.k)
        chosen = [(key, score) for key, score in fused if min_score is None or score >= min_score][:k]
        return [replace(best[key], score=score) for key, score in chosen]
