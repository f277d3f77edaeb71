"""A throwaway PostgreSQL cluster for tests: ``initdb`` in a temporary folder, a server on a free port
with its socket in that folder, a fresh database per test, everything removed when it stops.

The server binaries come from the system (Debian's ``postgresql`` package puts them under
``/usr/lib/postgresql/<version>/bin``). PostgreSQL refuses to run as root, so a root process runs
``initdb`` and ``pg_ctl`` as the ``postgres`` user (which that package creates) through ``runuser``.
The cluster trades durability for speed (no fsync): it holds nothing worth keeping.

>>> with PostgresCluster.start() as cluster:          # doctest: +SKIP
...     url = cluster.new_database()                   # postgresql://lab@/test_1?host=/tmp/...
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from lab.errors import LabError

__all__ = ["PostgresCluster", "PostgresUnavailable", "REQUIRE_ENV", "find_server_binaries", "skip_reason",
           "unavailable_reason"]

REQUIRE_ENV = "LAB_REQUIRE_POSTGRES"  # "1" in CI: a cluster that cannot start fails the tests instead of skipping them

_SUPERUSER = "lab"
_TEMPLATE = "lab_template"


class PostgresUnavailable(LabError, RuntimeError):
    """No cluster can be started here; the message says why in one line (and what would fix it)."""


def find_server_binaries() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``: on the PATH, or the newest under /usr/lib/postgresql."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(os.path.realpath(on_path)).parent
    installed = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if installed:
        return Path(installed[-1]).parent
    raise PostgresUnavailable("the PostgreSQL server is not installed (no initdb on the PATH or under "
                              "/usr/lib/postgresql); on Debian: apt-get install postgresql")


def unavailable_reason() -> str | None:
    """Why no cluster could start here (one line), or ``None`` when psycopg, the server binaries and a
    user to run them are all present; cheap: it starts nothing."""
    try:
        import psycopg  # noqa: F401 - the store's driver
    except ImportError:
        return "psycopg is not installed (pip install 'lab[postgres]')"
    try:
        find_server_binaries()
        _runner()
    except PostgresUnavailable as exc:
        return str(exc)
    return None


def skip_reason() -> str | None:
    """Why tests that need PostgreSQL should be skipped here, or ``None``: also ``None`` where
    ``LAB_REQUIRE_POSTGRES=1`` (in CI), so that a server that cannot start fails them instead."""
    if os.environ.get(REQUIRE_ENV) == "1":
        return None
    return unavailable_reason()


def _runner() -> list[str]:
    """The command prefix that runs the server binaries: nothing, or ``runuser -u postgres --`` for root."""
    if os.geteuid() != 0:
        return []
    if shutil.which("runuser") is None:
        raise PostgresUnavailable("running as root, PostgreSQL needs another user, and runuser is missing")
    try:
        import pwd
        pwd.getpwnam("postgres")
    except KeyError:
        raise PostgresUnavailable("running as root, PostgreSQL needs an unprivileged user: create one named "
                                  "postgres (Debian's postgresql package does)") from None
    return ["runuser", "-u", "postgres", "--"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


#: The watcher :meth:`PostgresCluster.stop_when_this_process_ends` starts: argv is the parent's pid,
#: the cluster's folder, then the command that stops the server.
_WATCHER = """
import os, shutil, subprocess, sys, time
parent, folder, stop = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
while os.getppid() == parent:
    time.sleep(1)
if os.path.exists(os.path.join(folder, "data", "postmaster.pid")):
    subprocess.run(stop, capture_output=True)
shutil.rmtree(folder, ignore_errors=True)
"""


@dataclass
class PostgresCluster:
    """A running throwaway cluster: its folder (data and socket), port, and how to reach a database."""

    folder: Path
    port: int
    binaries: Path
    runner: list[str]
    _numbers: itertools.count = field(default_factory=lambda: itertools.count(1))

    @classmethod
    def start(cls) -> PostgresCluster:
        """``initdb`` a new cluster in a temporary folder and start it (a few seconds)."""
        binaries, runner = find_server_binaries(), _runner()
        folder = Path(tempfile.mkdtemp(prefix="lab-postgres-"))
        if runner:
            shutil.chown(folder, "postgres")
        cluster = cls(folder=folder, port=_free_port(), binaries=binaries, runner=runner)
        try:
            cluster._run("initdb", "-D", str(folder / "data"), "-U", _SUPERUSER, "-A", "trust", "-E", "UTF8",
                         "--no-locale", "--no-sync")
            options = (f"-p {cluster.port} -k {folder} -c listen_addresses='' -c fsync=off "
                       "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60")
            cluster._run("pg_ctl", "-D", str(folder / "data"), "-l", str(folder / "server.log"), "-o", options,
                         "-w", "-t", "60", "start")
            cluster.execute(f"CREATE DATABASE {_TEMPLATE}")
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run([*self.runner, str(self.binaries / program), *args], capture_output=True, text=True)
        if done.returncode:
            raise PostgresUnavailable(f"{program} failed ({done.returncode}): "
                                      f"{(done.stderr or done.stdout).strip().splitlines()[-1:]}")

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` on this cluster (over the unix socket in the cluster's folder)."""
        return f"postgresql://{_SUPERUSER}@/{database}?host={self.folder}&port={self.port}"

    def execute(self, statement: str) -> None:
        """Run one statement outside a transaction on the ``postgres`` database (CREATE DATABASE, say)."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(statement)

    def new_database(self) -> str:
        """A new empty database, copied from a template (milliseconds); its URL."""
        name = f"test_{next(self._numbers)}"
        self.execute(f"CREATE DATABASE {name} TEMPLATE {_TEMPLATE}")
        return self.url(name)

    def stop_when_this_process_ends(self) -> None:
        """Stop the server and delete its folder when this process ends, however it ends.

        ``atexit`` runs only when Python exits normally; a Jupyter kernel is often killed (nbval,
        papermill and JupyterLab's shutdown may all send SIGKILL), which would leave the server
        running. A small watcher process, a child of this one, polls its parent and, once the parent
        is gone (it is then adopted by another), stops the server as :meth:`stop` does.
        """
        stop = [*self.runner, str(self.binaries / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
                "-w", "stop"]
        subprocess.Popen([sys.executable, "-c", _WATCHER, str(os.getpid()), str(self.folder), *stop],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete its folder."""
        if (self.folder / "data" / "postmaster.pid").exists():
            subprocess.run([*self.runner, str(self.binaries / "pg_ctl"), "-D", str(self.folder / "data"), "-m",
                            "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> PostgresCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
