"""Lesson 13's setting: a throwaway PostgreSQL cluster, fresh workspaces in it, the bakery world
over any store, and the coarse figures its table shows.

Nothing here indexes, syncs or searches: the lesson's cells do. Without the PostgreSQL server (or
psycopg), :func:`throwaway_cluster` gives ``None`` and the reason, and :func:`fresh_store` gives a
second SQLite file instead, so that every cell still runs.
"""

from __future__ import annotations

import atexit
import re
from pathlib import Path

import pandas as pd

from lab.client import FixedRate, NotionClient
from lab.course.edits import Edit
from lab.course.paths import index_dir
from lab.course.story import World
from lab.index import IndexStore
from lab.simulator import KB_INTEGRATION, Workspace, bakery_simulator, in_process_session

__all__ = ["SEED", "QUESTIONS", "throwaway_cluster", "fresh_store", "backend", "bakery_world",
           "evening_hours_edit", "index_megabytes", "time_share", "key_figures"]

SEED = 6  # lesson 06's bakery: the same latency and request ids

#: The questions both backends answer (the corpus is Spanish).
QUESTIONS = ("¿Abren el 1 de mayo?", "¿El rol de canela tiene nueces?",
             "¿Hasta cuándo puedo cancelar un pedido?", "¿Cuánto tiempo dura el pan congelado?")

_cluster: list = []  # the one cluster of this process, started on first use, stopped at exit


def throwaway_cluster():
    """``(cluster, "")`` with a PostgreSQL cluster in a temporary folder (one per process, stopped and
    removed when Python exits), or ``(None, why)`` where none can start here."""
    if _cluster:
        return _cluster[0], ""
    try:
        from lab.testing.postgres_cluster import PostgresCluster

        import psycopg  # noqa: F401 - the store needs it
    except ImportError:
        return None, "psycopg is not installed (pip install 'lab[postgres]')"
    from lab.testing.postgres_cluster import PostgresUnavailable

    try:
        cluster = PostgresCluster.start()
    except PostgresUnavailable as exc:
        return None, str(exc)
    cluster.execute("CREATE DATABASE lesson13")
    atexit.register(cluster.stop)
    cluster.stop_when_this_process_ends()  # a kernel killed at the end of a run skips atexit
    _cluster.append(cluster)
    return cluster, ""


def fresh_store(cluster, workspace: str) -> str:
    """The URL of an empty workspace ``workspace`` in the cluster's ``lesson13`` database (dropped and
    made again on every call), or without a cluster an empty SQLite file ``lesson13_<workspace>``."""
    if not re.fullmatch(r"[a-z0-9_]+", workspace):
        raise ValueError(f"workspace {workspace!r}: lower-case letters, digits and _ only")
    if cluster is None:
        path = index_dir() / f"lesson13_{workspace}.sqlite"
        for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            leftover.unlink(missing_ok=True)
        return str(path)
    import psycopg

    url = cluster.url("lesson13")
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"DROP SCHEMA IF EXISTS lab_{workspace} CASCADE")
    return f"{url}&workspace={workspace}"


def backend(db: str | Path) -> str:
    """``PostgreSQL`` for a postgresql:// URL, ``SQLite`` otherwise."""
    return "PostgreSQL" if str(db).startswith("postgresql://") else "SQLite"


def bakery_world(db: str | Path, seed: int = SEED) -> World:
    """The bakery's workspace at 16:00, a client paced at 3 requests per second on the simulated
    clock, and the store at ``db`` (a SQLite path, ``:memory:`` or a postgresql:// URL)."""
    sim = bakery_simulator(seed=seed)
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=FixedRate(3.0))
    return World(sim, client, IndexStore(db))


def _later_may_first(ws: Workspace) -> None:
    hours = ws.find_block(ws.page_id("aviso-puente-1-de-mayo"), "de 8:00 a 15:00")
    ws.edit_block_text(hours.id, "El viernes 1 de mayo la tienda abre de 8:00 a 16:00, "
                                 "sólo para venta en mostrador.")


def evening_hours_edit() -> Edit:
    """20:00: the 1 May hours change again, to 8:00 to 16:00 (lesson 06's crashed sync)."""
    return Edit(240, "1 May: open until 16:00", _later_may_first)


def index_megabytes(db: str | Path) -> float:
    """What the index takes on disk, in MB (10^6 bytes) to one decimal: the SQLite file with its
    write-ahead log, or the workspace's tables and indexes in PostgreSQL (toast included)."""
    if backend(db) == "SQLite":
        files = (Path(db), Path(f"{db}-wal"))
        size = sum(f.stat().st_size for f in files if f.exists())
    else:
        import psycopg

        url, workspace = str(db).rsplit("&workspace=", 1)
        with psycopg.connect(url) as connection:
            size = connection.execute(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind = 'r'",
                (f"lab_{workspace}",)).fetchone()[0]
    return round(int(size) / 1e6, 1)


def time_share(wall_seconds: float, simulated_seconds: float) -> str:
    """The database's share of a run's time, coarsely: the wall-clock seconds spent outside the
    paced API, against the simulated seconds the API took ("under 10 %", "10 to 50 %", "over 50 %")."""
    share = wall_seconds / max(simulated_seconds, 1e-9)
    return "under 10 %" if share < 0.1 else "10 to 50 %" if share < 0.5 else "over 50 %"


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    backends = pd.read_csv(tables / "13_backends.csv").set_index("backend")
    same = pd.read_csv(tables / "13_same_answers.csv")["same_on_postgresql"]
    workspaces = pd.read_csv(tables / "13_two_workspaces.csv")["same as alone"]
    sizes = ", ".join(f"{name} {row['size MB']} MB" for name, row in backends.iterrows())
    return (f"{int(same.sum())} of {len(same)} hits the same on both backends; {int(workspaces.sum())} of "
            f"{len(workspaces)} parallel workspaces equal to a run alone; {sizes}")
