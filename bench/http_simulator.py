"""The served simulator's speed: requests per second through the lab client and the official SDK,
latency on one keep-alive connection, and the server's memory over 100,000 requests.

The server runs in its own process (``python -m bench.http_simulator --serve``): the bakery
workspace, no rate limits, the wall clock (no simulated latency is slept). Clients run in this
process, one thread per connection, each with its own client object, so every thread holds
exactly one connection. Every call is ``users/me``: the cost measured is the HTTP path (parsing,
routing, authentication, one JSON answer), not a large body.

- throughput: requests per second for 1, 4 and 16 connections, with keep-alive and with a new
  connection per request (``Connection: close`` for ``requests``; no pooled connections for
  httpx), for the lab client (``requests``) and the official SDK (httpx);
- latency: median and 99th percentile of one call on one keep-alive connection (the target is
  a median under 2 ms; Nagle's algorithm holding a second write used to cost about 44 ms);
  ``http.client`` alone is the reference: what is above it is the client library's own time;
- memory: the server's resident memory after 10,000 and after 100,000 requests, one in five
  without a token (401s are logged too; the log keeps its most recent lines, so memory should
  stay flat).

On a 2-core machine the client threads and the server share the cores, so the figures are a
floor for what one server answers, and they vary with what else runs.
"""

from __future__ import annotations

import argparse
import http.client
import re
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import notion_client
import pandas as pd
import requests

from lab.client import NoPacing, NotionClient
from lab.clock import WallClock

__all__ = ["main", "served_simulator"]

TOKEN = "ntn_bench_http_token"
CONNECTIONS = (1, 4, 16)
FULL = {"seconds": 2.0, "latency_calls": 2_000, "memory_marks": (10_000, 100_000)}
QUICK = {"seconds": 0.1, "latency_calls": 50, "memory_marks": (500, 2_000)}


@dataclass(frozen=True)
class Server:
    url: str
    pid: int

    @property
    def address(self) -> tuple[str, int]:
        host, port = self.url.removeprefix("http://").split(":")
        return host, int(port)

    def rss_kb(self) -> int:
        """Resident memory of the server process, in kB."""
        text = Path(f"/proc/{self.pid}/status").read_text()
        return int(re.search(r"^VmRSS:\s+(\d+)", text, re.M).group(1))


def _serve() -> None:
    """The server process: print the URL, serve until stdin closes."""
    from lab.simulator import LimitsConfig
    from lab.simulator.server import SimulatorHTTPServer
    from lab.simulator.workspaces import KB_INTEGRATION, bakery_simulator

    unlimited = LimitsConfig(connection_budget=10 ** 9, workspace_budget=10 ** 9)
    sim = bakery_simulator(seed=0, clock=WallClock(), limits=unlimited, tokens={KB_INTEGRATION: TOKEN})
    server = SimulatorHTTPServer(sim).start_in_background()
    print(server.base_url, flush=True)
    sys.stdin.read()  # the parent closes it to stop us
    server.stop()


@contextmanager
def served_simulator() -> Iterator[Server]:
    """The bakery served by a separate process for the length of a ``with``."""
    process = subprocess.Popen([sys.executable, "-m", "bench.http_simulator", "--serve"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    try:
        yield Server(process.stdout.readline().strip(), process.pid)
    finally:
        process.stdin.close()
        process.wait(timeout=30)


# ---------------------------------------------------------------------- clients: one call on one connection


def lab_client(url: str, keep_alive: bool) -> Callable[[], object]:
    session = requests.Session()
    if not keep_alive:
        session.headers["Connection"] = "close"
    client = NotionClient(TOKEN, base_url=url, session=session, clock=WallClock(), pacer=NoPacing())
    return client.users.me


def official_sdk(url: str, keep_alive: bool) -> Callable[[], object]:
    pool = httpx.Client() if keep_alive else httpx.Client(limits=httpx.Limits(max_keepalive_connections=0))
    sdk = notion_client.Client(auth=TOKEN, base_url=url, notion_version="2026-03-11", client=pool)
    return sdk.users.me


def bare_http_client(url: str, keep_alive: bool) -> Callable[[], object]:
    """The reference: the standard library's ``http.client`` and nothing else, so the difference
    to it is what a client library costs, not the server."""
    host, port = url.removeprefix("http://").split(":")
    headers = {"Authorization": f"Bearer {TOKEN}", "Notion-Version": "2026-03-11"}
    pooled = http.client.HTTPConnection(host, int(port), timeout=30)

    def call() -> bytes:
        connection = pooled if keep_alive else http.client.HTTPConnection(host, int(port), timeout=30)
        connection.request("GET", "/v1/users/me", headers=headers if keep_alive else {**headers, "Connection": "close"})
        body = connection.getresponse().read()
        if not keep_alive:
            connection.close()
        return body

    return call


CLIENTS: dict[str, Callable[[str, bool], Callable[[], object]]] = {
    "lab client (requests)": lab_client, "official SDK (httpx)": official_sdk,
    "http.client (reference)": bare_http_client}


def requests_per_second(make_call: Callable[[], Callable[[], object]], connections: int, seconds: float) -> float:
    """Calls answered per second by ``connections`` threads, each calling as fast as it can."""
    calls = [make_call() for _ in range(connections)]
    for call in calls:
        call()  # connect (and warm up) before the clock starts
    counts = [0] * connections
    failures: list[BaseException] = []
    start = threading.Barrier(connections + 1)
    stop = threading.Event()

    def run(i: int) -> None:
        start.wait()
        try:
            while not stop.is_set():
                calls[i]()
                counts[i] += 1
        except Exception as exc:  # a reset or refused connection must not pass for a slow one
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(connections)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    if failures:
        raise RuntimeError(f"{len(failures)} of {connections} connections failed: {failures[0]!r}")
    return sum(counts) / (time.perf_counter() - began)


def latencies_ms(call: Callable[[], object], n: int) -> list[float]:
    call()
    out = []
    for _ in range(n):
        began = time.perf_counter()
        call()
        out.append((time.perf_counter() - began) * 1e3)
    return out


def throughput_table(url: str, seconds: float) -> pd.DataFrame:
    rows = []
    for name, factory in CLIENTS.items():
        for keep_alive in (True, False):
            row = {"client": name, "connection": "keep-alive" if keep_alive else "new per request"}
            for n in CONNECTIONS:
                row[f"{n} conn. (req/s)"] = requests_per_second(lambda: factory(url, keep_alive), n, seconds)
            rows.append(row)
    return pd.DataFrame(rows)


def latency_table(url: str, n: int) -> pd.DataFrame:
    rows = []
    for name, factory in CLIENTS.items():
        times = latencies_ms(factory(url, True), n)
        rows.append({"client": name, "calls": n, "median (ms)": statistics.median(times),
                     "p99 (ms)": statistics.quantiles(times, n=100)[98]})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------- memory over many requests


def _hammer(server: Server, total: int, connections: int = 4) -> None:
    """``total`` requests over keep-alive ``http.client`` connections, one in five without a token."""
    signed = {"Authorization": f"Bearer {TOKEN}", "Notion-Version": "2026-03-11"}
    anonymous = {"Notion-Version": "2026-03-11"}

    def run(count: int) -> None:
        connection = http.client.HTTPConnection(*server.address, timeout=30)
        for i in range(count):
            connection.request("GET", "/v1/users/me", headers=anonymous if i % 5 == 4 else signed)
            connection.getresponse().read()
        connection.close()

    threads = [threading.Thread(target=run, args=(total // connections,)) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def memory_table(server: Server, marks: tuple[int, int]) -> pd.DataFrame:
    rows, sent = [], 0
    for mark in marks:
        _hammer(server, mark - sent)
        sent = mark
        time.sleep(0.2)
        rows.append({"requests served": mark, "server RSS (MB)": server.rss_kb() / 1024})
    table = pd.DataFrame(rows)
    table["vs first"] = table["server RSS (MB)"] / table["server RSS (MB)"].iloc[0]
    return table


def main(quick: bool = False) -> dict[str, pd.DataFrame]:
    """Serve the bakery, measure, print and return the three tables."""
    sizes = QUICK if quick else FULL
    with served_simulator() as server:
        tables = {"throughput": throughput_table(server.url, sizes["seconds"]),
                  "latency": latency_table(server.url, sizes["latency_calls"]),
                  "memory": memory_table(server, sizes["memory_marks"])}
    print(f"served simulator over HTTP: users/me, {sizes['seconds']:g} s per cell, clients in one process "
          "(one thread and one connection each), server in another")
    with pd.option_context("display.width", 200):
        for table in tables.values():
            print(table.round(2).to_string(index=False))
    return tables


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    _serve() if arguments.serve else main(quick=arguments.quick)
