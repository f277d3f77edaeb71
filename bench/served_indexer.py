"""The indexer's own memory: the cloned bakery indexed over HTTP from a simulator served by another process.

:mod:`bench.scale` reads the simulated workspace in process, so its peak memory holds the
workspace too (about 4.6 GB at 100,000 pages) and the lab's share is a difference. Here the
workspace lives in a server process (``python -m bench.served_indexer --serve PAGES``, the cloned
bakery of :func:`lab.datasets.scaled_bakery.scaled_bakery_spec` on the enterprise plan, served
over HTTP on a loopback port), and the measuring process holds only what a real indexer would:
the client, the chunker and the index file's batches. It runs a full index, then a quick sync with
nothing to do and a reconciling one, and reports each run's wall and CPU seconds and requests, the
indexer's peak resident memory (``VmHWM``) and the server's resident memory at the end. The
server's latency model is off: seconds are the lab's and the loopback's, not Notion's.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pandas as pd

from bench.scale import _status_mb

__all__ = ["measure", "table", "main", "SIZES"]


def _serve(n_pages: int) -> None:
    """Build the cloned workspace, print ``base_url token`` on one line, serve until standard input closes."""
    from lab.simulator import KB_INTEGRATION, LimitsConfig, bakery_simulator
    from lab.datasets.scaled_bakery import scaled_bakery_spec
    from lab.simulator.server import serve_in_background

    sim = bakery_simulator(seed=0, limits=LimitsConfig(plan="enterprise"), spec=scaled_bakery_spec(n_pages))
    with serve_in_background(sim) as server:
        print(server.base_url, sim.token_for(KB_INTEGRATION), flush=True)
        sys.stdin.read()  # the measuring process closes it when it is done


def measure(n_pages: int) -> dict[str, Any]:
    """Index ``n_pages`` cloned pages over HTTP from a server process; the runs and both processes' memory."""
    import requests

    from lab.client import NotionClient
    from lab.client.pacing import NoPacing
    from lab.clock import WallClock
    from lab.index import IndexStore
    from lab.ingest import SyncConfig, full_index, incremental_sync

    server = subprocess.Popen([sys.executable, "-m", "bench.served_indexer", "--serve", str(n_pages)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline().split()
        if len(line) != 2:
            raise RuntimeError(f"the server process did not start (exit code {server.poll()})")
        base_url, token = line
        clock = WallClock()
        client = NotionClient(token, session=requests.Session(), clock=clock, base_url=base_url, pacer=NoPacing())
        runs = []
        with tempfile.TemporaryDirectory(prefix="lab-served-index-") as folder, \
                IndexStore(Path(folder) / "index.sqlite") as store:
            quick = SyncConfig(reconcile_every=timedelta(hours=24))
            for name in ("full index", "quick no-change sync", "reconciling sync"):
                before, began, cpu = len(client.log), time.perf_counter(), time.process_time()
                if name == "full index":
                    full_index(client, store, clock)
                else:
                    incremental_sync(client, store, clock, quick, force_reconcile=name == "reconciling sync")
                runs.append({"run": name, "seconds": time.perf_counter() - began, "CPU s": time.process_time() - cpu,
                             "requests": len(client.log) - before, "chunks": store.count_chunks()})
            size_mb = (Path(folder) / "index.sqlite").stat().st_size / 1e6
        return {"pages": n_pages, "runs": runs, "indexer peak MB": _status_mb("VmHWM"),
                "server MB": _status_mb("VmRSS", server.pid), "index MB": size_mb}
    finally:
        server.stdin.close()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()


def table(measured: dict[str, Any]) -> pd.DataFrame:
    """One row per run, with the processes' memory repeated on each."""
    return pd.DataFrame([{"pages": measured["pages"], **run, "indexer peak MB": round(measured["indexer peak MB"]),
                          "server MB": round(measured["server MB"]), "index MB": round(measured["index MB"], 1)}
                         for run in measured["runs"]]).round({"seconds": 2, "CPU s": 2})


#: The sizes ``python -m bench --only served-index`` measures; ``--pages`` measures others (100,000: about 25 minutes).
SIZES = (2_000, 10_000)
QUICK_SIZES = (200,)


def main(quick: bool = False, sizes: tuple[int, ...] | None = None) -> pd.DataFrame:
    """Measure each workspace size in a fresh process (so each peak is its run's alone) and print the table."""
    frames = []
    for pages in sizes or (QUICK_SIZES if quick else SIZES):
        result = subprocess.run([sys.executable, "-m", "bench.served_indexer", "--pages", str(pages), "--child"],
                                capture_output=True, text=True, check=True)
        frames.append(pd.DataFrame(json.loads(result.stdout.strip().splitlines()[-1])))
    frame = pd.concat(frames, ignore_index=True)
    print("the indexer in its own process, reading the cloned bakery over HTTP from a server process; "
          "peak and resident memory in MB")
    print(frame.to_string(index=False))
    return frame


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=lambda text: tuple(int(n) for n in text.split(",")), metavar="N,N",
                        help=f"cloned publishable pages, comma-separated (default {','.join(map(str, SIZES))})")
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds (200 pages)")
    parser.add_argument("--serve", type=int, metavar="PAGES", help=argparse.SUPPRESS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.serve:
        _serve(arguments.serve)
    elif arguments.child:
        print(table(measure(arguments.pages[0])).to_json(orient="records"))
    else:
        main(arguments.quick, arguments.pages)
