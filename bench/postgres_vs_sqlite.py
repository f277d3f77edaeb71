"""The index in PostgreSQL beside the index in SQLite: a full index and a one-edit sync of the 2,000-page
workspace, and four workspaces indexed and synced at once into one database against the same four one
after another, in one table with the ratios PostgreSQL/SQLite (quick mode: 40 pages, two workspaces, no warm-up run).

The workspace is :mod:`bench.scale`'s: the bakery cloned to ``pages`` publishable pages
(:func:`lab.datasets.scaled_bakery.scaled_bakery_spec`), served in process on the enterprise plan, read
without pacing, on the simulated clock. PostgreSQL is a throwaway cluster this benchmark starts and
deletes (:class:`lab.testing.postgres_cluster.PostgresCluster`, the tests' own: ``initdb`` in a temporary
folder, a unix socket, no fsync), so its numbers are the store's and the protocol's, not a disk's.

- one workspace: one simulator serves a full index into a SQLite file, then into a PostgreSQL database;
  then, three times, one block of one page gets new text and each index syncs (the best of the three
  is reported, a sync being a fraction of a second). Both indexes are checked to hold the same state.
- four workspaces: four processes, each with its own simulator (seeds 0 to 3), each running a full index
  and a one-edit sync of its workspace; SQLite writes four files, PostgreSQL four workspaces (schemas) of
  one database. Every process builds its workspace first; the time runs from the moment all of them may
  start to the moment the last one ends, at once or one after another. The eight indexes of each
  backend are checked to hold the same state, workspace by workspace.
- seconds are wall time; CPU is the lab's process time plus, for PostgreSQL, the server's (its
  postmaster and every backend, read from /proc), since the server does part of the work; size is the
  SQLite file (a run gives its free pages back to the file system), and for PostgreSQL
  ``pg_total_relation_size`` (tables, indexes, TOAST) summed over the workspace's schema once its tables
  are vacuumed (until autovacuum comes, the rows a run deleted, its staging area's above all, still take
  their space).

The machine's cores bound what running at once can gain: with 2 cores, four processes share two.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = ["main", "FULL", "QUICK", "server_cpu_seconds", "postgres_bytes"]

FULL = {"pages": 2_000, "workspaces": 4, "workspace_pages": 2_000, "edit_rounds": 3, "warm_up": True}
QUICK = {"pages": 40, "workspaces": 2, "workspace_pages": 40, "edit_rounds": 1, "warm_up": False}
EDITED_PAGE, EDITED_BLOCK = "Ficha: Rol de canela", "Resumen"


def _workspace(n_pages: int, seed: int = 0) -> tuple[Any, Any]:
    """The cloned bakery in a simulator with ``seed``, and a client reading it in process, unpaced."""
    from lab.client import NotionClient
    from lab.client.pacing import NoPacing
    from lab.datasets.scaled_bakery import scaled_bakery_spec
    from lab.simulator import KB_INTEGRATION, LimitsConfig, bakery_simulator, in_process_session

    sim = bakery_simulator(seed=seed, limits=LimitsConfig(plan="enterprise"), spec=scaled_bakery_spec(n_pages))
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=NoPacing())
    return sim, client


def _edit_one_block(sim: Any, round_number: int) -> None:
    """One block of one page gets new text (a different one each round), a minute from any run."""
    sim.clock.advance(60)
    workspace = sim.workspace
    page = workspace.page_by_title(EDITED_PAGE)
    workspace.edit_block_text(workspace.find_block(page.id, EDITED_BLOCK).id,
                              f"Resumen: clave RC-0{round_number + 1}; ${40 + round_number} la pieza.")
    sim.clock.advance(60)


# ---------------------------------------------------------------------- what each backend holds and costs


def server_cpu_seconds(data_folder: Path) -> float:
    """CPU seconds the cluster's processes have used so far: the postmaster's own and those of the backends
    it has reaped, plus those of its processes still running."""
    ticks = os.sysconf("SC_CLK_TCK")
    postmaster = int((data_folder / "postmaster.pid").read_text().split()[0])
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        pid, parent = int(entry.name), int(fields[1])
        if pid == postmaster:
            total += sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
        elif parent == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def postgres_bytes(url: str) -> int:
    """Bytes the workspace ``url`` names takes once its tables are vacuumed (as a sync leaves a SQLite file,
    its free pages given back): ``pg_total_relation_size`` of every table of its schema."""
    import psycopg

    from lab.index.postgres import PostgresTarget

    target = PostgresTarget(url)
    with psycopg.connect(target.conninfo, autocommit=True) as connection:
        tables = [row[0] for row in connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s", (target.schema,))]
        for table in tables:  # the dead rows a run leaves (its staging area's, above all), as autovacuum would
            connection.execute(f'VACUUM "{target.schema}"."{table}"')
        return int(connection.execute(
            "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind IN ('r', 'p')",
            (target.schema,)).fetchone()[0])


def _size(url: str) -> int:
    if url.startswith("postgresql://"):
        return postgres_bytes(url)
    return sum(path.stat().st_size for path in (Path(url), Path(f"{url}-wal")) if path.exists())


def _state(url: str) -> dict[str, Any]:
    from lab.index import IndexStore

    with IndexStore(url) as store:
        return store.state()


class _Backends:
    """Where each backend's indexes go: files in a temporary folder, workspaces of the cluster's databases."""

    def __init__(self, folder: Path, cluster: Any) -> None:
        self.folder, self.cluster = folder, cluster

    def urls(self, label: str, count: int) -> dict[str, list[str]]:
        database = self.cluster.new_database()
        return {"SQLite": [str(self.folder / f"{label}_{n}.sqlite") for n in range(count)],
                "PostgreSQL": [f"{database}&workspace={label}_{n}" for n in range(count)]}

    def server_cpu(self, backend: str) -> float:
        return server_cpu_seconds(self.cluster.folder / "data") if backend == "PostgreSQL" else 0.0


# ---------------------------------------------------------------------- one workspace, in this process


def _timed(call: Any, backends: _Backends, backend: str) -> tuple[float, float]:
    """Wall seconds and CPU seconds (this process's and the server's) of ``call()``."""
    server, cpu, began = backends.server_cpu(backend), time.process_time(), time.perf_counter()
    call()
    seconds = time.perf_counter() - began
    return seconds, time.process_time() - cpu + backends.server_cpu(backend) - server


def _warm_up(backends: _Backends) -> None:
    """Every path once on the bakery itself, into both backends (imports, compiled functions, connections)."""
    from lab.index import IndexStore
    from lab.ingest.sync import full_index, incremental_sync

    sim, client = _workspace(40)
    urls = backends.urls("warm_up", 1)
    for url in urls["SQLite"] + urls["PostgreSQL"]:
        with IndexStore(url) as store:
            full_index(client, store, sim.clock)
            _edit_one_block(sim, 0)
            incremental_sync(client, store, sim.clock)


def measure_one_workspace(backends: _Backends, n_pages: int, edit_rounds: int) -> list[dict[str, Any]]:
    """A full index of the workspace into each backend, then ``edit_rounds`` one-edit syncs of each (the best
    kept); one row per run and backend, with the index's size and state."""
    from lab.index import IndexStore
    from lab.ingest.sync import full_index, incremental_sync

    sim, client = _workspace(n_pages)
    urls = {backend: found[0] for backend, found in backends.urls("one", 1).items()}
    rows = []
    stores = {backend: IndexStore(url) for backend, url in urls.items()}
    try:
        for backend, store in stores.items():
            seconds, cpu = _timed(lambda: full_index(client, store, sim.clock), backends, backend)
            rows.append({"run": "full index", "backend": backend, "seconds": seconds, "CPU s": cpu})
        best: dict[str, tuple[float, float]] = {}
        for round_number in range(edit_rounds):
            _edit_one_block(sim, round_number)
            for backend, store in stores.items():
                timed = _timed(lambda: incremental_sync(client, store, sim.clock), backends, backend)
                best[backend] = min(best.get(backend, timed), timed)
        rows += [{"run": "one-edit sync", "backend": backend, "seconds": seconds, "CPU s": cpu}
                 for backend, (seconds, cpu) in best.items()]
    finally:
        for store in stores.values():
            store.close()
    states = {backend: _state(url) for backend, url in urls.items()}
    sizes = {backend: _size(url) for backend, url in urls.items()}
    for row in rows:
        row |= {"bytes": sizes[row["backend"]], "same index": states["SQLite"] == states["PostgreSQL"]}
    return rows


# ---------------------------------------------------------------------- several workspaces, a process each


def _index_and_sync(url: str, n_pages: int, seed: int, ready: Any, go: Any, results: Any) -> None:
    """In a process of its own: build the workspace, say so, wait for ``go``, index it, edit it, sync it."""
    from lab.index import IndexStore
    from lab.ingest.sync import full_index, incremental_sync

    sim, client = _workspace(n_pages, seed)
    ready.put(seed)
    go.wait()
    began, cpu = time.perf_counter(), time.process_time()
    with IndexStore(url) as store:
        full_index(client, store, sim.clock)
        _edit_one_block(sim, 0)
        incremental_sync(client, store, sim.clock)
    results.put({"seed": seed, "seconds": time.perf_counter() - began, "CPU s": time.process_time() - cpu})


def measure_workspaces(backends: _Backends, backend: str, urls: list[str], n_pages: int,
                       at_once: bool) -> dict[str, Any]:
    """Index and sync one workspace per URL, each in a process of its own, all at once or one after another:
    seconds from the start to the last end, the processes' CPU (and the server's), the indexes' size."""
    context = multiprocessing.get_context("fork")  # the children start with the lab already imported
    ready, results = context.Queue(), context.Queue()
    starts = [context.Event() for _ in urls]
    processes = [context.Process(target=_index_and_sync, args=(url, n_pages, seed, ready, start, results))
                 for seed, (url, start) in enumerate(zip(urls, starts))]
    for process in processes:
        process.start()
    for _ in processes:
        ready.get(timeout=600)
    server, began = backends.server_cpu(backend), time.perf_counter()
    done = []
    if at_once:
        for start in starts:
            start.set()
        done = [results.get(timeout=3600) for _ in processes]
    else:
        for start in starts:
            start.set()
            done.append(results.get(timeout=3600))
    seconds = time.perf_counter() - began
    cpu = sum(result["CPU s"] for result in done) + backends.server_cpu(backend) - server
    for process in processes:
        process.join()
        if process.exitcode:
            raise RuntimeError(f"a workspace's process ended with exit code {process.exitcode}")
    return {"backend": backend, "seconds": seconds, "CPU s": cpu, "bytes": sum(_size(url) for url in urls)}


def measure_several_workspaces(backends: _Backends, count: int, n_pages: int) -> list[dict[str, Any]]:
    """``count`` workspaces one after another, then at once, on each backend; the indexes of each workspace
    are checked to hold the same state whichever way and backend they were written."""
    rows, states = [], []
    for label, at_once in (("one after another", False), ("at once", True)):
        urls = backends.urls("at_once" if at_once else "in_turn", count)
        for backend, found in urls.items():
            rows.append({"run": f"{count} workspaces, {label}",
                         **measure_workspaces(backends, backend, found, n_pages, at_once)})
            states.append([_state(url) for url in found])
    same = all(written == states[0] for written in states[1:])
    for row in rows:
        row["same index"] = same
    return rows


# ---------------------------------------------------------------------- the table


def ratio_table(rows: list[dict[str, Any]], n_pages: int, workspace_pages: int) -> pd.DataFrame:
    """One line per run: each backend's seconds, CPU and size beside each other, and PostgreSQL/SQLite."""
    lines = []
    for run in dict.fromkeys(row["run"] for row in rows):
        sqlite, postgres = (next(row for row in rows if row["run"] == run and row["backend"] == backend)
                            for backend in ("SQLite", "PostgreSQL"))
        pages = n_pages if run in ("full index", "one-edit sync") else workspace_pages
        lines.append({"run": run, "pages": pages,
                      "SQLite s": sqlite["seconds"], "PostgreSQL s": postgres["seconds"],
                      "time PG/SQLite": postgres["seconds"] / sqlite["seconds"],
                      "SQLite CPU s": sqlite["CPU s"], "PostgreSQL CPU s": postgres["CPU s"],
                      "CPU PG/SQLite": postgres["CPU s"] / sqlite["CPU s"],
                      "SQLite MB": sqlite["bytes"] / 1e6, "PostgreSQL MB": postgres["bytes"] / 1e6,
                      "size PG/SQLite": postgres["bytes"] / sqlite["bytes"],
                      "same index": sqlite["same index"] and postgres["same index"]})
    return pd.DataFrame(lines)


def speedup_table(table: pd.DataFrame, count: int) -> pd.DataFrame:
    """For each backend, the workspaces' time at once over their time one after another."""
    in_turn, at_once = (table[table["run"] == f"{count} workspaces, {label}"].iloc[0]
                        for label in ("one after another", "at once"))
    return pd.DataFrame([{"backend": backend, "one after another s": in_turn[f"{backend} s"],
                          "at once s": at_once[f"{backend} s"],
                          "at once / one after another": at_once[f"{backend} s"] / in_turn[f"{backend} s"]}
                         for backend in ("SQLite", "PostgreSQL")])


def main(quick: bool = False) -> dict[str, pd.DataFrame]:
    """Start a throwaway cluster, measure both backends, print and return the tables (none, with one line
    saying why, where PostgreSQL cannot start here)."""
    from lab.testing.postgres_cluster import PostgresCluster, PostgresUnavailable

    sizes = QUICK if quick else FULL
    try:
        cluster = PostgresCluster.start()
    except PostgresUnavailable as exc:
        print(f"postgres: not measured, {exc}")
        return {}
    try:
        with tempfile.TemporaryDirectory(prefix="lab-bench-postgres-") as folder:
            backends = _Backends(Path(folder), cluster)
            if sizes["warm_up"]:
                _warm_up(backends)
            rows = measure_one_workspace(backends, sizes["pages"], sizes["edit_rounds"])
            rows += measure_several_workspaces(backends, sizes["workspaces"], sizes["workspace_pages"])
    finally:
        cluster.stop()
    table = ratio_table(rows, sizes["pages"], sizes["workspace_pages"])
    tables = {"ratios": table, "at once": speedup_table(table, sizes["workspaces"])}
    print(f"postgres vs sqlite: the bakery cloned to N pages, in process, unpaced; PostgreSQL in a throwaway local "
          f"cluster (unix socket, no fsync); CPU is the lab's process plus the server's; {os.cpu_count()} cores")
    with pd.option_context("display.width", 250, "display.max_columns", 30):
        for name, found in tables.items():
            print()
            print(found.round(3).to_string(index=False))
    return tables


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    main(quick=parser.parse_args().quick)
