"""Ingestion at scale: a full index, a sync with nothing to do and a sync after one edit, for
workspaces of hundreds to 100,000 pages, against LangChain's indexing API on the same chunks.

The workspace is the bakery cloned to ``n_pages`` publishable pages
(:func:`lab.datasets.scaled_bakery.scaled_bakery_spec`), served in process on the enterprise
plan, read without pacing, on the simulated clock. Every measurement runs in a fresh process
(``python -m bench.scale --child ...``), so that each size's peak resident memory is its own.

- lab: :func:`~lab.ingest.sync.full_index`, then :func:`~lab.ingest.sync.incremental_sync`
  reconciling once a day (``reconcile_every`` of 24 hours, :data:`RECONCILE_EVERY`): a quick sync
  with nothing changed, a quick sync after one block of one page was edited, a reconciling sync
  (``force_reconcile``) after another edit of that block, and from 20,000 pages a quick sync after
  one block of each of 12,000 rows was edited (more rows than a Notion query returns), checked to
  have every edited row in the index; for each run its seconds,
  Notion requests, the simulated API time (the simulator's clock: its drawn latency of each
  request, one after the other, no rate limit) and chunks. Cloned pages repeat the bakery's
  2,700 words; one row adds 30 made-up words to each copy, so that the vocabulary grows with
  the workspace as a real one's does.
- memory: the simulator lives in the measured process, and a workspace of 100,000 pages takes
  it some 4.6 GB, so the process's peak is not the lab's. Once the workspace is built, its
  resident memory is noted and the process's peak is reset (``/proc/self/clear_refs``); the
  lab's memory is the peak during its runs minus that, and the index file's size is noted.
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

``--index-cache DIR`` keeps each workspace's full index in ``DIR`` (with the simulated time it ended
at and what it measured) and later runs start from a copy of it instead of indexing again: a
100,000-page full index takes about half an hour. ``--sizes 20000,100000`` measures only those
workspaces.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import sqlite3
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

FULL = {"sizes": (200, 2_000, 10_000, 20_000, 50_000, 100_000), "vocabulary": (2_000, 30), "http_seconds": 2.0,
        "langchain_up_to": 10_000}
QUICK = {"sizes": (100, 200), "vocabulary": None, "http_seconds": 0.5, "langchain_up_to": 200}
RECONCILING_RUN = "reconciling one-edit sync"
LAB_RUNS = ("full index", "no-change sync", "one-edit sync", RECONCILING_RUN)
RECONCILE_EVERY = datetime.timedelta(hours=24)  # the syncs reconcile once a day; the runs here are minutes apart
BULK_RUN = "bulk-edit sync"
BULK_ROWS, BULK_FROM = 12_000, 20_000  # rows edited at once, in workspaces of this many pages or more
LANGCHAIN_RUNS = ("first index", "no-change re-run", "one-edit re-run")
EMBEDDING_SIZE = 1024  # the lab's dense model: voyage-4 at its default dimension
NOTION_AVERAGE_RATE = 3.0  # requests per second Notion allows an integration on average
MEMORY_SHARE = 0.8  # of MemAvailable a measured process may reach before it is stopped
EDITED_PAGE, EDITED_BLOCK, EDITED_TEXT = "Ficha: Rol de canela", "Resumen", "Resumen: clave RC-01; $40 la pieza."
RECONCILED_TEXT = "Resumen: clave RC-01; $45 la pieza."  # the reconciling sync's edit, another text again
BULK_TEXT = "Revisado en lote"  # the start of each bulk-edited block's new text


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


def _edit_one_block(sim: Any, text: str = EDITED_TEXT) -> None:
    """One block of one page gets new ``text``, a minute after the last run and a minute before the next."""
    sim.clock.advance(60)
    workspace = sim.workspace
    page = workspace.page_by_title(EDITED_PAGE)
    workspace.edit_block_text(workspace.find_block(page.id, EDITED_BLOCK).id, text)
    sim.clock.advance(60)


def _edit_rows(sim: Any, count: int) -> list[str]:
    """The first paragraph of each of ``count`` publishable rows gets new text at once (a bulk edit); their ids."""
    sim.clock.advance(60)
    workspace = sim.workspace
    rows = sorted((page for page in workspace.pages.values()
                   if page.parent_type == "data_source_id" and page.publishable and not page.in_trash),
                  key=lambda page: page.key)[:count]
    for n, page in enumerate(rows):
        texts = [b for b in page.children if "rich_text" in workspace.blocks[b].content]
        block = next((b for b in texts if workspace.blocks[b].type == "paragraph"), texts[0])
        workspace.edit_block_text(block, f"{BULK_TEXT} {n}: el horario de esta ficha cambia a partir de mayo.")
    sim.clock.advance(60)
    return [page.id for page in rows]


def _holds_every_edit(store: Any, page_ids: list[str]) -> bool:
    """Whether the index holds the new text of every bulk-edited page (looked up 500 pages at a time)."""
    for start in range(0, len(page_ids), 500):
        pages = page_ids[start:start + 500]
        rows = store.chunks(ids=list(store.page_chunks(pages)))
        if {row["page_id"] for row in rows if BULK_TEXT in row["text"]} != set(pages):
            return False
    return True


def _reset_peak() -> bool:
    """Make the process's peak resident memory (``VmHWM``) start again from now; False where Linux does not let it."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def _status_mb(field: str, pid: int | str = "self") -> float:
    """A memory figure of a process from /proc (``VmRSS`` now, ``VmHWM`` its peak), in MB; 0 once it has ended."""
    try:
        found = re.search(rf"^{field}:\s+(\d+)", Path(f"/proc/{pid}/status").read_text(), re.M)
    except FileNotFoundError:
        return 0.0
    return int(found.group(1)) / 1024 if found else 0.0


# Imports are made inside the measurements so that a process measuring the lab never loads LangChain.


def _warm_up(directory: str) -> None:
    """Run every code path once on the bakery itself (imports, compiled functions), in a throwaway index."""
    from lab.index import IndexStore
    from lab.ingest.sync import full_index, incremental_sync

    sim, client = _scaled_workspace(40, 0)
    with IndexStore(Path(directory) / "warm-up.sqlite") as store:
        full_index(client, store, sim.clock)
        _edit_one_block(sim)
        incremental_sync(client, store, sim.clock)


def _cache_files(index_cache: str | Path, n_pages: int, distinct_words: int) -> tuple[Path, Path]:
    """Where a full index of a workspace is kept between measurements: the index file, and what its run measured."""
    stem = Path(index_cache) / f"lab-{n_pages}-{distinct_words}"
    return stem.with_suffix(".sqlite"), stem.with_suffix(".json")


def _copy_index(source: Path, target: Path) -> None:
    """A consistent copy of an index file (its write-ahead log included), through SQLite's backup."""
    reader, writer = sqlite3.connect(f"{source.absolute().as_uri()}?mode=ro", uri=True), sqlite3.connect(target)
    try:
        reader.backup(writer)
    finally:
        reader.close()
        writer.close()


def measure_lab(n_pages: int, distinct_words: int = 0, directory: str | Path | None = None,
                warm_up: bool = False, bulk_rows: int | None = None,
                index_cache: str | Path | None = None) -> dict[str, Any]:
    """Full index, no-change sync and one-edit sync of the scaled workspace into a fresh index file, then a
    sync after ``bulk_rows`` rows were edited at once (by default :data:`BULK_ROWS` from :data:`BULK_FROM`
    pages on, none below); ``warm_up`` first runs every path on the bakery, so that the lab's memory is
    what the workspace's size adds (the memory-growth test)."""
    import gc

    from lab.index import IndexStore
    from lab.ingest.sync import SyncConfig, full_index, incremental_sync

    sim, client = _scaled_workspace(n_pages, distinct_words)
    build_peak_mb = _status_mb("VmHWM")
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(dir=directory) as scratch:
        if warm_up:
            _warm_up(scratch)
        gc.collect()
        workspace_mb = _status_mb("VmRSS")
        peak_reset = _reset_peak()
        path = Path(scratch) / "index.sqlite"
        if bulk_rows is None:
            bulk_rows = BULK_ROWS if n_pages >= BULK_FROM else 0
        names = LAB_RUNS + ((BULK_RUN,) if bulk_rows else ())
        cached = _cache_files(index_cache, n_pages, distinct_words) if index_cache is not None else None
        if cached is not None and cached[0].exists() and cached[1].exists():  # the full index of an earlier process
            kept = json.loads(cached[1].read_text())
            _copy_index(cached[0], path)
            sim.clock.set(kept["clock"])
            runs.append(kept["run"] | {"cached": True})
            names = names[1:]
        edited: list[str] = []
        quick = SyncConfig(reconcile_every=RECONCILE_EVERY)
        with IndexStore(path) as store:
            for name in names:
                if name in ("one-edit sync", RECONCILING_RUN):
                    _edit_one_block(sim, EDITED_TEXT if name == "one-edit sync" else RECONCILED_TEXT)
                if name == BULK_RUN:
                    edited = _edit_rows(sim, bulk_rows)
                before, began, cpu, api = len(client.log), time.perf_counter(), time.process_time(), sim.clock.now()
                if name == "full index":
                    report = full_index(client, store, sim.clock)
                else:
                    report = incremental_sync(client, store, sim.clock, quick, force_reconcile=name == RECONCILING_RUN)
                runs.append({"run": name, "seconds": time.perf_counter() - began, "CPU s": time.process_time() - cpu,
                             "requests": len(client.log) - before, "API s": sim.clock.now() - api,
                             "chunks": store.count_chunks(), "embedded": report.chunks_new + report.chunks_updated,
                             "pages read": len(report.pages_reread), "reconciled": report.reconciled})
                if name == "full index" and cached is not None:
                    cached[0].parent.mkdir(parents=True, exist_ok=True)
                    _copy_index(path, cached[0])
                    cached[1].write_text(json.dumps({"clock": sim.clock.now(), "run": runs[-1]}))
            peak_rss_mb = _status_mb("VmHWM")
            if edited:
                runs[-1]["every edit indexed"] = _holds_every_edit(store, edited)
        index_bytes = path.stat().st_size
    return {"approach": "lab", "pages": n_pages, "distinct_words": distinct_words, "runs": runs,
            "workspace_mb": workspace_mb, "build_peak_mb": build_peak_mb, "peak_rss_mb": peak_rss_mb,
            "lab_mb": peak_rss_mb - workspace_mb if peak_reset else float("nan"), "index_bytes": index_bytes}


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
    peak_reset = _reset_peak()
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
    peak_rss_mb = _status_mb("VmHWM")
    return {"approach": "langchain", "pages": n_pages, "distinct_words": distinct_words, "runs": runs,
            "workspace_mb": workspace_mb, "peak_rss_mb": peak_rss_mb,
            "own_mb": peak_rss_mb - workspace_mb if peak_reset else float("nan"), "key_encoder": key_encoder}


MEASURES: dict[str, Callable[..., dict[str, Any]]] = {"lab": measure_lab, "langchain": measure_langchain}


# ---------------------------------------------------------------------- one process per measurement


def _available_mb() -> float:
    text = Path("/proc/meminfo").read_text()
    return int(re.search(r"^MemAvailable:\s+(\d+)", text, re.M).group(1)) / 1024


def run_in_child(approach: str, n_pages: int, distinct_words: int = 0,
                 limit_mb: float | None = None, warm_up: bool = False,
                 index_cache: str | Path | None = None) -> dict[str, Any]:
    """``MEASURES[approach]`` in a fresh process, stopped if its memory passes ``limit_mb`` (``warm_up``:
    the lab's, after a run on the bakery).

    Returns the measurement, or ``{"stopped": reason}`` when the process was stopped or failed.
    """
    limit_mb = limit_mb if limit_mb is not None else MEMORY_SHARE * _available_mb()
    command = [sys.executable, "-m", "bench.scale", "--child", approach, "--pages", str(n_pages),
               "--distinct-words", str(distinct_words)] + (["--warm-up"] if warm_up else []) \
        + (["--index-cache", str(index_cache)] if index_cache is not None and approach == "lab" else [])
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
    """One row per workspace and run: seconds, Notion requests, simulated API seconds, chunks in the index,
    chunks embedded, pages read (and for a bulk edit whether every edited row reached the index)."""
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
    """Per workspace: the simulated workspace's memory, the process's peak while each approach ran, what
    the approach itself added (peak minus workspace), the lab's index file."""
    theirs = {(m["pages"], m["distinct_words"]): m for m in langchain}
    nothing = {"peak_rss_mb": float("nan"), "own_mb": float("nan")}
    return pd.DataFrame([{"pages": m["pages"], "new words/page": m["distinct_words"],
                          "workspace RSS (MB)": m["workspace_mb"], "process peak, lab (MB)": m["peak_rss_mb"],
                          "lab's own (MB)": m["lab_mb"],
                          "process peak, LangChain (MB)": theirs.get((m["pages"], m["distinct_words"]),
                                                                     nothing)["peak_rss_mb"],
                          "LangChain's own (MB)": theirs.get((m["pages"], m["distinct_words"]), nothing)["own_mb"],
                          "index file (MB)": m["index_bytes"] / 1e6} for m in lab])


def rate_limit_table(lab: list[dict[str, Any]]) -> pd.DataFrame:
    """What each lab run's requests take at Notion's average of 3 requests per second, per workspace."""
    return pd.DataFrame([{"pages": m["pages"], "new words/page": m["distinct_words"], "run": run["run"],
                          "requests": run["requests"], "hours at 3 req/s": run["requests"] / NOTION_AVERAGE_RATE / 3600,
                          "simulated API hours": run["API s"] / 3600}
                         for m in lab for run in m["runs"]])


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


def _measure_one(approach: str, n_pages: int, words: int, earlier: list[dict[str, Any]],
                 index_cache: str | Path | None = None) -> dict[str, Any]:
    """One workspace through one approach in its own process, or ``{"stopped": why}`` if it would not fit in
    memory (judged from ``earlier``, the same approach's smaller runs) or outgrew it."""
    limit = MEMORY_SHARE * _available_mb()
    expected = _expected_mb(earlier, n_pages, words)
    if expected is not None and expected > limit:
        return {"stopped": f"skipped, it would need about {expected / 1024:.1f} GB (from the "
                           f"{earlier[-1]['pages']:,}-page run) and {limit / 1024:.1f} GB may be used"}
    return run_in_child(approach, n_pages, words, limit, index_cache=index_cache)


def _measure_all(workspaces: list[tuple[int, int]], langchain_up_to: int, index_cache: str | Path | None = None
                 ) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """Every workspace through every approach (LangChain's up to ``langchain_up_to`` pages), smallest first
    and the approaches in turn, so that a busy spell of a shared machine falls on both; returns the
    measurements and a message per one stopped."""
    measured: dict[str, list[dict[str, Any]]] = {approach: [] for approach in MEASURES}
    stopped = []
    for n_pages, words in workspaces:
        for approach in MEASURES:
            if approach == "langchain" and n_pages > langchain_up_to:
                continue
            result = _measure_one(approach, n_pages, words, measured[approach], index_cache)
            label = f"{approach}, {n_pages:,} pages" + (f" (+{words} new words each)" if words else "")
            if "stopped" in result:
                stopped.append(f"{label}: {result['stopped']}")
            else:
                measured[approach].append(result)
            print(f"{label}: {result.get('stopped', 'measured')}", file=sys.stderr, flush=True)
    return measured, stopped


def main(quick: bool = False, index_cache: str | Path | None = None,
         sizes: tuple[int, ...] | None = None) -> dict[str, pd.DataFrame]:
    """Measure every workspace in its own process, print and return the tables; ``index_cache`` keeps each
    workspace's full index there and reuses it, ``sizes`` measures only those workspaces (no vocabulary one)."""
    settings = QUICK if quick else FULL
    if sizes is not None:
        settings = settings | {"sizes": sizes, "vocabulary": None}
    measured, stopped = _measure_all(_workspaces(settings), settings["langchain_up_to"], index_cache)
    lab, langchain = measured["lab"], measured["langchain"]
    full_reads = {m["pages"]: m["runs"][0]["requests"] for m in lab if m["distinct_words"] == 0}
    tables = {"lab": lab_table(lab), "langchain": langchain_table(langchain, lab),
              "memory": memory_table(lab, langchain), "rate limit": rate_limit_table(lab),
              "http": http_table(served_rates(settings["http_seconds"]), full_reads)}
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
    parser.add_argument("--warm-up", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--index-cache", metavar="DIR",
                        help="keep each workspace's full index in DIR and reuse it in later runs (a 100,000-page "
                             "index takes about half an hour to build)")
    parser.add_argument("--sizes", type=lambda text: tuple(int(n) for n in text.split(",")), metavar="N,N",
                        help="measure only workspaces of these sizes (pages, comma-separated)")
    arguments = parser.parse_args()
    if arguments.child:
        options: dict[str, Any] = {"warm_up": True} if arguments.warm_up else {}
        if arguments.index_cache:
            options["index_cache"] = arguments.index_cache
        print(json.dumps(MEASURES[arguments.child](arguments.pages, arguments.distinct_words, **options)))
    else:
        main(quick=arguments.quick, index_cache=arguments.index_cache, sizes=arguments.sizes)
