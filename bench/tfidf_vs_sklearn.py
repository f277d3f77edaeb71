"""TF-IDF fit+transform: the lab's vectoriser against scikit-learn's, with the same analyzer.

Both get the same callable analyzer (the lab's default ``WordAnalyzer``), so the comparison is
of what happens after tokenisation: counting, vocabulary, weighting and normalisation.

Settings. scikit-learn's ``TfidfVectorizer(sublinear_tf=True, smooth_idf=True, norm="l2")``,
the lab's weighting, in float64 like the lab. It has no faster mode for this work: its options
change what is computed (the analyzer, the weighting, ``dtype``), not how fast. The callable
analyzer is what makes both count the same terms (the lab recognises its own ``WordAnalyzer``
and finds its words with numpy instead of calling it text by text).
"""

from __future__ import annotations

from collections.abc import Sequence

from sklearn.feature_extraction.text import TfidfVectorizer as SklearnTfidf

from bench.corpus import generated_corpus
from bench.measure import Row, format_table, paired_seconds, peak_bytes
from lab.vectors import TfidfVectorizer, WordAnalyzer

SIZES = (20_000, 100_000)
#: A smoke run of a few seconds (``python -m bench --quick``).
QUICK = {"sizes": (300, 600), "repeat": 1}


def main(sizes: Sequence[int] = SIZES, repeat: int = 3) -> list[Row]:
    """Time and peak memory of fit_transform for each corpus size, lab against scikit-learn."""
    rows = []
    analyzer = WordAnalyzer()
    for size in sizes:
        texts = generated_corpus(size).texts

        def lab() -> object:
            return TfidfVectorizer(analyzer=analyzer).fit_transform(texts)

        def sklearn() -> object:
            return SklearnTfidf(analyzer=analyzer, sublinear_tf=True, smooth_idf=True, norm="l2").fit_transform(texts)

        ours, theirs = lab(), sklearn()  # also warms both up
        check = f"max |diff| {abs(ours - theirs).max():.1e}, {ours.shape[1]:,} terms"
        del ours, theirs
        rows.append(Row("tfidf fit+transform time", size, "s", *paired_seconds(lab, sklearn, repeat), "scikit-learn", check))
        rows.append(Row("tfidf fit+transform peak memory", size, "MB", peak_bytes(lab), peak_bytes(sklearn), "scikit-learn"))
    return rows


if __name__ == "__main__":
    print(format_table(main()))
