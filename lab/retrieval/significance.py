"""How sure is a gain? A paired bootstrap over questions, and the questions won and lost.

Two methods scored on the same 55 questions differ by a mean that one question can move by
about 0.02 (recall@8 of a question with one gold section goes from 0 to 1: 1/55). Resampling
the questions with replacement (Efron and Tibshirani 1993; for retrieval, Sakai 2006) and
recomputing the mean difference each time shows how much of a gain such luck could explain:
the 2.5th and 97.5th percentiles of the resampled differences bound a 95% interval. An interval
that contains 0 means the data cannot tell the two methods apart.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["Gain", "paired_gain"]


@dataclass(frozen=True)
class Gain:
    """The mean per-question difference (after - before), its 95% bootstrap interval, and how
    many questions went up (``won``) and down (``lost``)."""

    mean: float
    low: float
    high: float
    won: int
    lost: int

    def __str__(self) -> str:
        return f"{self.mean:+.3f} [{self.low:+.3f}, {self.high:+.3f}], {self.won} up, {self.lost} down"


def paired_gain(before: pd.Series, after: pd.Series, n_resamples: int = 10_000, seed: int = 0) -> Gain:
    """Compare two per-question scores indexed by question id (NaN questions left out).

    The same resampled questions are used for both methods (a paired test), so a question
    that is hard for both does not widen the interval.
    """
    joined = pd.concat({"before": before, "after": after}, axis=1, join="inner").dropna()
    if joined.empty:
        raise ValueError("no question has a score under both methods; index both by question id")
    difference = (joined["after"] - joined["before"]).to_numpy(dtype=np.float64)
    rng = np.random.default_rng(seed)
    samples = rng.integers(0, difference.size, size=(n_resamples, difference.size))
    means = difference[samples].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return Gain(mean=float(difference.mean()), low=float(low), high=float(high),
                won=int((difference > 0).sum()), lost=int((difference < 0).sum()))
