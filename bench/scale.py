"""Ingestion at scale: a full index, a sync with nothing to do and a sync after one edit, for
workspaces of hundreds to thousands of pages, against LangChain's indexing API on the same chunks.

The workspace is the bakery cloned to ``n_pages`` publishable pages
(:func:`lab.datasets.scaled_bakery.scaled_bakery_spec`), served in process on the enterprise
plan, read without pacing, on the simulated clock. Every measurement runs in a fresh process
(``python -m bench.scale --child ...``), so that each size's peak resident memory is its own.

- lab: :func:`~lab.ingest.sync.full_index`, then :func:`~lab.ingest.sync.incremental_sync`
  with nothing changed, then again after one block of one page was edited; for each run its
  seconds, Notion requests and chunks, and for the whole process its peak RSS and the index
  file's size. Cloned pages repeat the bakery's 2,700 words; one row adds 30 made-up words to
  each copy, so that the vocabulary grows with the workspace as a real one's does.
- LangChain: ``langchain_core.indexing.index`` with an ``InMemoryRecordManager``,
  ``cleanup="incremental"``, ``source_id_key="page_id"``, an ``InMemoryVectorStore`` and
  ``DeterministicFakeEmbedding(size=1024)``. Its documents are the lab's own chunks (text and the
  metadata the lab stores), from a loader that reads every page on every run, as a document
  loader does: its requests are those of the lab's full read. Settings: one batch for the whole
  run (``batch_size`` = the number of documents, as the documentation advises for incremental
  cleanup; with the default of 100, a page whose chunks straddle two batches is deleted and added
  again on every run, 490 of 15,750 documents at 2,000 pages) and the ``blake2b`` key encoder
  (``sha1``, the default, warns that it is not collision-resistant; the two and ``sha256`` measured
  within noise of each other). The embedder is LangChain's own deterministic one, cheaper per
  chunk than any real model and than the lab's TF-IDF, at the dimension of the lab's dense model
  (voyage-4, 1024), so LangChain's time is its bookkeeping plus a near-free embedding.
- HTTP: what a request costs when the simulator is served, from :mod:`bench.http_simulator`
  (one keep-alive connection, ``users/me``), turned into the time a full read of each size would
  take at that rate and at Notion's average of 3 requests per second.

A size whose process grows past 80 % of the memory available when it starts is stopped and
reported as such (an index whose TF-IDF rows are dense grows with chunks x vocabulary).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = ["main", "measure_lab", "measure_langchain", "FULL", "QUICK", "LAB_RUNS", "LANGCHAIN_RUNS"]

FULL = {"sizes": (200, 2_000, 10_000), "vocabulary": (2_000, 30), "http_seconds": 2.0}
QUICK = {"sizes": (100, 200), "vocabulary": None, "http_seconds": 0.5}
LAB_RUNS = ("full index", "no-change sync", "one-edit sync")
LANGCHAIN_RUNS = ("first index", "no-change re-run", "one-edit re-run")
EMBEDDING_SIZE = 1024  # the lab's dense model: voyage-4 at its default dimension
NOTION_AVERAGE_RATE = 3.0  # requests per second Notion allows an integration on average
MEMORY_SHARE = 0.8  # of MemAvailable a measured process may reach before it is stopped
EDITED_PAGE, EDITED_BLOCK, EDITED_TEXT = "Ficha: Rol de canela", "Resumen", "Resumen: clave RC-01; $40 la pieza."


# ---------------------------------------------------------------------- one workspace, in this process


def _scaled_workspace(n_pages: int, distinct_words: int) -> tuple[Any, Any]:
    """The cloned bakery in a simulator, and a client reading it in process, unpaced."""
    from lab.client import NotionClient
    from lab.client.pacing import NoPacing
    from lab.datasets.scaled_bakery import scaled_bakery_spec
    from lab.simulator import KB_INTEGRATION, LimitsConfig, bakery_simulator, in_process_session

    sim = bakery_simulator(seed=0, limits=LimitsConfig(plan="enterprise"),
                           spec=scaled_bakery_spec(n_pages, distinct_words=distinct_words))
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    return sim, client


def _edit_one_block(sim: Any) -> None:
    """One block of one page gets new text, a minute after the last run and a minute before the next."""
    sim.clock.advance(60)
    workspace = sim.workspace
    page = workspace.page_by_title(EDITED_PAGE)
    workspace.edit_block_text(workspace.find_block(page.id, EDITED_BLOCK).id, EDITED_TEXT)
    sim.clock.advance(60)


def _status_mb(field: str, pid: int | str = "self") -> float:
    """A memory figure of a process from /proc (``VmRSS`` now, ``VmHWM`` its peak), in MB; 0 once it has ended."""
    try:
        found = re.search(rf"^{field}:\s+(\d+)", Path(f"/proc/{pid}/status").read_text(), re.M)
    except FileNotFoundError:
        return 0.0
    return int(found.group(1)) / 1024 if found else 0.0


# Imports are made inside the measurements so that a process measuring the lab never loads LangChain.


def measure_lab(n_pages: int, distinct_words: int = 0, directory: str | Path | None = None) -> dict[str, Any]:
    """Full index, no-change sync and one-edit sync of the scaled workspace into a fresh index file."""
    from lab.index import IndexStore
    from lab.ingest.sync import full_index, incremental_sync

    sim, client = _scaled_workspace(n_pages, distinct_words)
    workspace_mb = _status_mb("VmRSS")
    runs = []
    with tempfile.TemporaryDirectory(dir=directory) as scratch:
        path = Path(scratch) / "index.sqlite"
        with IndexStore(path) as store:
            for name in LAB_RUNS:
                if name == "one-edit sync":
                    _edit_one_block(sim)
                run = full_index if name == "full index" else incremental_sync
                before, began, cpu = len(client.log), time.perf_counter(), time.process_time()
                report = run(client, store, sim.clock)
                runs.append({"run": name, "seconds": time.perf_counter() - began, "CPU s": time.process_time() - cpu,
                             "requests": len(client.log) - before, "chunks": store.count_chunks(),
                             "embedded": report.chunks_new + report.chunks_updated})
        index_bytes = path.stat().st_size
    return {"approach": "lab", "pages": n_pages, "distinct_words": distinct_words, "runs": runs,
            "workspace_mb": workspace_mb, "peak_rss_mb": _status_mb("VmHWM"), "index_bytes": index_bytes}


def _documents(client: Any) -> list[Any]:
    """A loader that reads every page and makes one LangChain document of each lab chunk."""
    from langchain_core.documents import Document

    from lab.chunking import SectionTokenChunker
    from lab.chunking.corpus import chunk_pages
    from lab.ingest.reading import read_knowledge_base

    chunks = chunk_pages(read_knowledge_base(client).pages, SectionTokenChunker()).chunks
    return [Document(page_content=c.text, metadata={"page_id": c.page_id, "title": c.title, "type": c.type,
                                                     "section": c.section, "order": c.order, "edited": c.edited})
            for c in chunks]


def measure_langchain(n_pages: int, distinct_words: int = 0, key_encoder: str = "blake2b") -> dict[str, Any]:
    """First index, no-change re-run and one-edit re-run through ``langchain_core.indexing.index``."""
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langchain_core.indexing import InMemoryRecordManager, index
    from langchain_core.vectorstores import InMemoryVectorStore

    sim, client = _scaled_workspace(n_pages, distinct_words)
    workspace_mb = _status_mb("VmRSS")
    record_manager = InMemoryRecordManager(namespace="notion/knowledge-base")
    record_manager.create_schema()
    vector_store = InMemoryVectorStore(DeterministicFakeEmbedding(size=EMBEDDING_SIZE))
    runs = []
    for name in LANGCHAIN_RUNS:
        if name == "one-edit re-run":
            _edit_one_block(sim)
        before, began, cpu = len(client.log), time.perf_counter(), time.process_time()
        documents = _documents(client)
        loaded = time.perf_counter()
        result = index(documents, record_manager, vector_store, cleanup="incremental", source_id_key="page_id",
                       batch_size=max(len(documents), 1), key_encoder=key_encoder)
        done = time.perf_counter()
        runs.append({"run": name, "seconds": done - began, "CPU s": time.process_time() - cpu, "load s": loaded - began,
                     "index() s": done - loaded, "requests": len(client.log) - before,
                     "documents": len(documents), **{key: result[key] for key in (
                         "num_added", "num_updated", "num_skipped", "num_deleted")},
                     "stored": len(vector_store.store)})
    return {"approach": "langchain", "pages": n_pages, "distinct_words": distinct_words, "runs": runs,
            "workspace_mb": workspace_mb, "peak_rss_mb": _status_mb("VmHWM"), "key_encoder": key_encoder}


MEASURES: dict[str, Callable[..., dict[str, Any]]] = {"lab": measure_lab, "langchain": measure_langchain}


# ---------------------------------------------------------------------- one process per measurement


def _available_mb() -> float:
    text = Path("/proc/meminfo").read_text()
    return int(re.search(r"^MemAvailable:\s+(\d+)", text, re.M).group(1)) / 1024


def run_in_child(approach: str, n_pages: int, distinct_words: int = 0,
                 limit_mb: float | None = None) -> dict[str, Any]:
    """``MEASURES[approach]`` in a fresh process, stopped if its memory passes ``limit_mb``.

    Returns the measurement, or ``{"stopped": reason}`` when the process was stopped or failed.
    """
    limit_mb = limit_mb if limit_mb is not None else MEMORY_SHARE * _available_mb()
    command = [sys.executable, "-m", "bench.scale", "--child", approach, "--pages", str(n_pages),
               "--distinct-words", str(distinct_words)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=Path(__file__).resolve().parents[1])
    over: list[float] = []

    def watch() -> None:  # polls until the process ends; kills it the moment it passes the limit
        while process.poll() is None:
            rss = _status_mb("VmRSS", process.pid)
            if rss > limit_mb:
                over.append(rss)
                process.kill()
                return
            time.sleep(0.1)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    out, err = process.communicate()
    watcher.join()
    if over:
        return {"stopped": f"stopped at {over[0] / 1024:.1f} GB resident, past {MEMORY_SHARE:.0%} of the "
                           f"{limit_mb / MEMORY_SHARE / 1024:.1f} GB available"}
    if process.returncode != 0:
        last_line = (err.strip().splitlines() or ["no message"])[-1]
        return {"stopped": f"failed with exit code {process.returncode}: {last_line}"}
    return json.loads(out.strip().splitlines()[-1])


# ---------------------------------------------------------------------- tables


def lab_table(measurements: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per workspace and run: seconds, Notion requests, chunks in the index, chunks embedded."""
    return pd.DataFrame([{"pages": m["pages"], "new words/page": m["distinct_words"], **run}
                         for m in measurements for run in m["runs"]])


def langchain_table(measurements: list[dict[str, Any]], lab: list[dict[str, Any]]) -> pd.DataFrame:
    """LangChain's runs, with the lab's run of the same kind on the same workspace beside each."""
    lab_runs = {(m["pages"], m["distinct_words"]): m["runs"] for m in lab}
    rows = []
    for m in measurements:
        ours = lab_runs.get((m["pages"], m["distinct_words"]))
        for i, run in enumerate(m["runs"]):
            row = {"pages": m["pages"], "new words/page": m["distinct_words"],
                   **{key.removeprefix("num_"): value for key, value in run.items()}}
            if ours:
                row |= {"lab requests": ours[i]["requests"], "lab seconds": ours[i]["seconds"],
                        "lab CPU s": ours[i]["CPU s"], "time lab/LangChain": ours[i]["seconds"] / run["seconds"],
                        "CPU lab/LangChain": ours[i]["CPU s"] / run["CPU s"]}
            rows.append(row)
    return pd.DataFrame(rows)


def memory_table(lab: list[dict[str, Any]], langchain: list[dict[str, Any]]) -> pd.DataFrame:
    """Per workspace: the simulator's own memory, each approach's peak, the lab's index file."""
    theirs = {(m["pages"], m["distinct_words"]): m["peak_rss_mb"] for m in langchain}
    return pd.DataFrame([{"pages": m["pages"], "new words/page": m["distinct_words"],
                          "workspace RSS (MB)": m["workspace_mb"], "lab peak RSS (MB)": m["peak_rss_mb"],
                          "LangChain peak RSS (MB)": theirs.get((m["pages"], m["distinct_words"]), float("nan")),
                          "index file (MB)": m["index_bytes"] / 1e6} for m in lab])


def http_table(rates: dict[str, float], full_read_requests: dict[int, int]) -> pd.DataFrame:
    """Requests per second over one keep-alive connection, and what a full read of each size costs at that rate."""
    rows = [{"client": name, "req/s (1 keep-alive conn.)": rate,
             **{f"full read of {pages:,} pages (s)": requests / rate for pages, requests in full_read_requests.items()}}
            for name, rate in rates.items()]
    rows.append({"client": "Notion's average limit", "req/s (1 keep-alive conn.)": NOTION_AVERAGE_RATE,
                 **{f"full read of {pages:,} pages (s)": requests / NOTION_AVERAGE_RATE
                    for pages, requests in full_read_requests.items()}})
    return pd.DataFrame(rows)


def served_rates(seconds: float) -> dict[str, float]:
    """Requests per second through the lab client and the official SDK, one keep-alive connection each."""
    from bench.http_simulator import CLIENTS, requests_per_second, served_simulator

    with served_simulator() as server:
        return {name: requests_per_second(lambda factory=factory: factory(server.url, True), 1, seconds)
                for name, factory in CLIENTS.items() if "reference" not in name}


# ---------------------------------------------------------------------- the benchmark


def _workspaces(sizes: dict[str, Any]) -> list[tuple[int, int]]:
    return [(n, 0) for n in sizes["sizes"]] + ([tuple(sizes["vocabulary"])] if sizes["vocabulary"] else [])


def _expected_mb(measured: list[dict[str, Any]], n_pages: int, words: int) -> float | None:
    """Peak memory a workspace would need, from the largest one measured with the same words per page
    (memory grows about in proportion to pages)."""
    previous = [m for m in measured if m["distinct_words"] == words]
    return previous[-1]["peak_rss_mb"] * n_pages / previous[-1]["pages"] if previous else None


def _measure_one(approach: str, n_pages: int, words: int, earlier: list[dict[str, Any]]) -> dict[str, Any]:
    """One workspace through one approach in its own process, or ``{"stopped": why}`` if it would not fit in
    memory (judged from ``earlier``, the same approach's smaller runs) or outgrew it."""
    limit = MEMORY_SHARE * _available_mb()
    expected = _expected_mb(earlier, n_pages, words)
    if expected is not None and expected > limit:
        return {"stopped": f"skipped, it would need about {expected / 1024:.1f} GB (from the "
                           f"{earlier[-1]['pages']:,}-page run) and {limit / 1024:.1f} GB may be used"}
    return run_in_child(approach, n_pages, words, limit)


def _measure_all(workspaces: list[tuple[int, int]]) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """Every workspace through every approach, smallest first and the approaches in turn, so that a busy
    spell of a shared machine falls on both; returns the measurements and a message per one stopped."""
    measured: dict[str, list[dict[str, Any]]] = {approach: [] for approach in MEASURES}
    stopped = []
    for n_pages, words in workspaces:
        for approach in MEASURES:
            result = _measure_one(approach, n_pages, words, measured[approach])
            label = f"{approach}, {n_pages:,} pages" + (f" (+{words} new words each)" if words else "")
            if "stopped" in result:
                stopped.append(f"{label}: {result['stopped']}")
            else:
                measured[approach].append(result)
            print(f"{label}: {result.get('stopped', 'measured')}", file=sys.stderr, flush=True)
    return measured, stopped


def main(quick: bool = False) -> dict[str, pd.DataFrame]:
    """Measure every workspace in its own process, print and return the tables."""
    sizes = QUICK if quick else FULL
    measured, stopped = _measure_all(_workspaces(sizes))
    lab, langchain = measured["lab"], measured["langchain"]
    full_reads = {m["pages"]: m["runs"][0]["requests"] for m in lab if m["distinct_words"] == 0}
    tables = {"lab": lab_table(lab), "langchain": langchain_table(langchain, lab),
              "memory": memory_table(lab, langchain),
              "http": http_table(served_rates(sizes["http_seconds"]), full_reads)}
    print("ingestion at scale: the bakery cloned to N publishable pages, in process, unpaced, one process per "
          "workspace and approach; CPU s is the process's own CPU time, steadier than wall time on a shared machine")
    with pd.option_context("display.width", 250, "display.max_columns", 30):
        for table in tables.values():
            print()
            print(table.round(3).to_string(index=False))
    for line in stopped:
        print(line)
    tables["stopped"] = pd.DataFrame({"message": stopped})
    return tables


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--child", choices=sorted(MEASURES), help=argparse.SUPPRESS)
    parser.add_argument("--pages", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--distinct-words", type=int, default=0, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        print(json.dumps(MEASURES[arguments.child](arguments.pages, arguments.distinct_words)))
    else:
        main(quick=arguments.quick)
