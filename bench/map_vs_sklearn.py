"""The 2-D map: the lab's ``svd_map`` against scikit-learn's PCA(svd_solver="arpack") on sparse TF-IDF.

Both centre implicitly (neither densifies the matrix), so this compares two ARPACK runs and
what surrounds them; the explained variance must agree.

Settings. PCA accepts sparse input with two solvers, ``"arpack"`` and ``"covariance_eigh"``;
the second forms the n_terms x n_terms covariance (50,000 terms: 20 GB), so ``"arpack"`` is its
fastest solver that can run here, and the one its documentation points to for sparse data.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.decomposition import PCA

from bench.corpus import generated_corpus
from bench.measure import Row, format_table, paired_seconds, peak_bytes
from lab.vectors import TfidfVectorizer, svd_map

SIZES = (20_000,)
#: A smoke run of a few seconds (``python -m bench --quick``).
QUICK = {"sizes": (1_200,), "repeat": 1}


def main(sizes: Sequence[int] = SIZES, repeat: int = 3) -> list[Row]:
    """Time and peak memory of a 2-component map of ``size`` TF-IDF rows, lab against PCA."""
    rows = []
    for size in sizes:
        X = TfidfVectorizer().fit_transform(generated_corpus(size).texts)

        def lab() -> object:
            return svd_map(X, n_components=2, random_state=0)

        def sklearn() -> object:
            return PCA(n_components=2, svd_solver="arpack", random_state=0).fit(X)

        ours, theirs = lab(), sklearn()
        gap = np.abs(ours.explained_variance_ratio_ - theirs.explained_variance_ratio_).max()
        check = (f"{ours.solver_}; explained variance {ours.explained_variance_ratio_.sum():.4f}, "
                 f"max |diff| {gap:.1e}")
        rows.append(Row("map (2 components) time", size, "s", *paired_seconds(lab, sklearn, repeat), "PCA arpack", check))
        rows.append(Row("map (2 components) peak memory", size, "MB", peak_bytes(lab), peak_bytes(sklearn), "PCA arpack"))
    return rows


if __name__ == "__main__":
    print(format_table(main()))
