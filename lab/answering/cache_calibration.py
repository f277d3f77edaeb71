"""Calibrating the semantic cache's threshold on labelled pairs of questions.

Every pair of distinct labelled questions is either a pair that one reply answers (a paraphrase,
listed by hand: :func:`lab.retrieval.bakery_paraphrases`) or a pair that needs two replies (every
other pair, including questions about the same section that ask different things). At a threshold
``t`` the cache would serve a paraphrase pair (a hit) or a pair of different questions (a false hit:
a wrong answer) whenever their cosine is at least ``t``. The table gives both rates for each ``t``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from lab.answering.semantic_cache import SemanticCacheError
from lab.retrieval import LabelledQuestion

__all__ = ["THRESHOLDS", "pair_similarities", "cache_threshold_table", "lowest_safe_threshold"]

#: The thresholds the table reports: 0.80 to 0.99 in steps of 0.01.
THRESHOLDS: tuple[float, ...] = tuple(round(0.80 + k / 100, 2) for k in range(20))

SIMILARITY_COLUMNS = ["first", "second", "same_answer", "cosine"]
TABLE_COLUMNS = ["threshold", "hits", "same_answer_pairs", "hit_rate", "false_hits", "different_answer_pairs",
                 "false_hit_rate"]


def pair_similarities(embedder: Any, questions: Sequence[LabelledQuestion],
                      paraphrases: Iterable[tuple[str, str]]) -> pd.DataFrame:
    """One row per pair of distinct questions: their ids, whether one reply answers both (the pair is in
    ``paraphrases``, in either order) and the cosine of their ``embedder.embed_query`` vectors."""
    ids = [q.id for q in questions]
    if len(set(ids)) != len(ids):
        raise SemanticCacheError(f"question ids repeat ({sorted({i for i in ids if ids.count(i) > 1})}); "
                                 "each labelled question needs its own id")
    same = set()
    for first, second in paraphrases:
        unknown = [i for i in (first, second) if i not in ids]
        if unknown:
            raise SemanticCacheError(f"the paraphrase pair ({first!r}, {second!r}) names "
                                     f"{', '.join(map(repr, unknown))}, which is not a labelled question's id")
        if first == second:
            raise SemanticCacheError(f"the paraphrase pair ({first!r}, {second!r}) names one question twice; "
                                     "a pair is two different questions")
        same.add(frozenset((first, second)))
    vectors = np.stack([np.asarray(embedder.embed_query(q.question), dtype=np.float64) for q in questions])
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    cosines = vectors @ vectors.T
    rows = [(ids[i], ids[j], frozenset((ids[i], ids[j])) in same, round(float(cosines[i, j]), 6))
            for i, j in itertools.combinations(range(len(ids)), 2)]
    return pd.DataFrame(rows, columns=SIMILARITY_COLUMNS)


def cache_threshold_table(similarities: pd.DataFrame, thresholds: Sequence[float] = THRESHOLDS) -> pd.DataFrame:
    """Per threshold: the paraphrase pairs a cache would serve (hits) and the pairs of different questions
    it would wrongly serve (false hits), as counts and rates. Both fall as the threshold rises."""
    missing = [c for c in ("same_answer", "cosine") if c not in similarities]
    if missing:
        raise SemanticCacheError(f"similarities needs the columns same_answer and cosine (pair_similarities gives "
                                 f"them); {', '.join(missing)} missing")
    same = similarities["same_answer"].to_numpy(dtype=bool)
    cosine = similarities["cosine"].to_numpy(dtype=float)
    if not same.any() or same.all():
        raise SemanticCacheError("the pairs need both kinds, some that share an answer and some that do not, "
                                 "for a hit rate and a false-hit rate")
    rows = []
    for threshold in sorted(thresholds):
        served = cosine >= threshold
        hits, false_hits = int((served & same).sum()), int((served & ~same).sum())
        rows.append({"threshold": threshold, "hits": hits, "same_answer_pairs": int(same.sum()),
                     "hit_rate": round(hits / same.sum(), 4), "false_hits": false_hits,
                     "different_answer_pairs": int((~same).sum()),
                     "false_hit_rate": round(false_hits / (~same).sum(), 4)})
    return pd.DataFrame(rows, columns=TABLE_COLUMNS)


def lowest_safe_threshold(table: pd.DataFrame) -> float | None:
    """The lowest threshold of the table at which no pair of different questions is served (``None`` if none)."""
    safe = table.loc[table["false_hits"] == 0, "threshold"]
    return None if safe.empty else float(safe.min())
