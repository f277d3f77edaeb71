"""The index in a PostgreSQL database: one schema per workspace, reached through psycopg 3.

``IndexStore("postgresql://user@host/db?workspace=bakery")`` keeps the index of the workspace
``bakery`` in the schema ``lab_bakery`` of that database; several workspaces share one database, each
with its own pages, chunks, vectors, runs and watermark. A URL with nothing after ``postgresql://``
takes everything from libpq's environment variables (``PGHOST``, ``PGDATABASE``, ``PGUSER``...).

:class:`PostgresConnection` gives the store the few calls of :mod:`sqlite3` it uses (``execute``,
``executemany``, ``in_transaction``), each statement said again in PostgreSQL's SQL
(:mod:`lab.index.postgres_sql`). A write transaction takes the workspace's advisory lock first, as
SQLite's ``BEGIN IMMEDIATE`` takes the file's write lock: writers of one workspace wait for each
other, writers of two workspaces never do. A read transaction is ``REPEATABLE READ``: every read in
it sees one committed generation.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from lab.index.errors import IndexOpenError
from lab.index.postgres_sql import statement

__all__ = ["PostgresConnection", "PostgresTarget", "is_postgres_url", "password_to_environment", "connection_failure",
           "MIN_SERVER_VERSION", "DEFAULT_WORKSPACE"]

MIN_SERVER_VERSION = 130000  # PostgreSQL 13: statement triggers with transition tables, EXECUTE FUNCTION
DEFAULT_WORKSPACE = "default"
_WORKSPACE = re.compile(r"[a-z0-9_]{1,40}")
_LOCK_CLASS = 0x1AB  # the advisory lock space of the lab's workspaces


def is_postgres_url(target: object) -> bool:
    """Whether ``target`` names a PostgreSQL database (``postgresql://...`` or ``postgres://...``, the scheme
    in any case)."""
    return isinstance(target, str) and target.lower().startswith(("postgresql://", "postgres://"))


def _userinfo_cut(url: str) -> bool:
    """Whether an ``@`` after the scheme is not where the address ends: a ``/``, ``?`` or ``#`` left unencoded
    in the user or password moved it out of the address, so the address no longer holds the password."""
    _, sep, rest = url.partition("://")
    return bool(sep) and "@" in rest and "@" not in urlsplit(url).netloc


def password_to_environment(url: str) -> str:
    """``url`` without its password, which moves to ``PGPASSWORD`` (libpq reads it there): a command that
    prints its ``--db`` can then never print the password. The scheme is written in lower case, as libpq
    reads it; a URL whose password cannot be told apart raises ``ValueError`` without quoting it."""
    scheme, _, rest = url.partition("://")
    url = f"{scheme.lower()}://{rest}"
    if _userinfo_cut(url) or "#" in url:
        raise ValueError("a '/', '?' or '#' in the user name or password, or a '#' anywhere; percent-encode "
                         "them (%2F, %3F, %23)")
    parts = urlsplit(url)
    pairs = [piece.partition("=") for piece in parts.query.split("&")]
    in_query = [unquote(value) for key, _, value in pairs if unquote(key) == "password"]  # as libpq decodes it
    if in_query:  # libpq takes a password= parameter over the one in the address
        os.environ["PGPASSWORD"] = in_query[-1]
    elif parts.password is not None:
        os.environ["PGPASSWORD"] = unquote(parts.password)
    else:
        return url
    return PostgresTarget.shown(url)


class PostgresTarget:
    """A ``postgresql://`` URL taken apart: what libpq connects to, the workspace, and a form safe to print."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True)
        workspaces = [value for key, value in query if key == "workspace"]
        self.workspace = workspaces[-1] if workspaces else DEFAULT_WORKSPACE
        if not _WORKSPACE.fullmatch(self.workspace):  # match lets a final newline through
            raise IndexOpenError(self.shown(url), f"names the workspace {self.workspace!r}; a workspace is 1 to 40 "
                                 "lower-case letters, digits or underscores")
        self.conninfo = urlunsplit(parts._replace(query=urlencode([(k, v) for k, v in query if k != "workspace"])))
        self.schema = f"lab_{self.workspace}"
        self.display = self.shown(url)

    @staticmethod
    def shown(url: str) -> str:
        """``url`` without its password (in the address or in a ``password=`` parameter) and without a fragment;
        where an unencoded ``/``, ``?`` or ``#`` hides where the password ends, without all that comes before
        the last ``@``."""
        if _userinfo_cut(url):
            scheme, _, rest = url.partition("://")
            url = f"{scheme}://***@{rest.rsplit('@', 1)[1]}"
        parts = urlsplit(url)._replace(fragment="")
        netloc = parts.netloc
        if "@" in netloc:
            user, host = netloc.rsplit("@", 1)
            netloc = f"{user.split(':', 1)[0]}@{host}"
        pairs = parse_qsl(parts.query, keep_blank_values=True)
        query = urlencode([(k, v) for k, v in pairs if k != "password"]) if "password" in dict(pairs) else parts.query
        return urlunsplit(parts._replace(netloc=netloc, query=query))

    def lock_key(self) -> int:
        """The advisory lock of this workspace (the same number in every process)."""
        return int.from_bytes(hashlib.sha256(self.schema.encode()).digest()[:4], "big", signed=True)


def connection_failure(error: BaseException) -> str:
    """What a failed connection means, and what to do, in one phrase (never the password)."""
    cause = " ".join(str(error).split())
    if "password authentication failed" in cause or "no password supplied" in cause or "role" in cause and \
            "does not exist" in cause:
        return "refused the credentials (wrong user or password); check the user and password in the URL or PGPASSWORD"
    if "database" in cause and "does not exist" in cause:
        return "names a database that does not exist; create it first (createdb) or name another"
    if "Connection refused" in cause or "No such file or directory" in cause or "could not translate host" in cause \
            or "timeout" in cause:
        return "cannot be reached (no server answers there); start the server, or check the host and port"
    return f"cannot be opened ({cause})"


class PostgresConnection:
    """A psycopg connection to one workspace, answering the calls the store makes of a sqlite3 connection."""

    def __init__(self, target: PostgresTarget) -> None:
        try:
            import psycopg
        except ImportError:
            raise IndexOpenError(target.display, "needs psycopg to reach PostgreSQL; install it with "
                                                 "pip install 'lab[postgres]'") from None
        self.target = target
        try:
            self._connection = psycopg.connect(target.conninfo, autocommit=True, connect_timeout=10)
        except psycopg.Error as error:
            raise IndexOpenError(target.display, connection_failure(error)) from None
        version = self._connection.info.server_version
        if version < MIN_SERVER_VERSION:
            self._connection.close()
            raise IndexOpenError(target.display, f"is served by PostgreSQL {version // 10000}, older than "
                                                 f"{MIN_SERVER_VERSION // 10000}, the oldest this lab reads; upgrade "
                                                 "the server")
        self._connection.execute(f'SET search_path TO "{target.schema}"')

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open (as ``sqlite3.Connection.in_transaction``)."""
        from psycopg import pq

        return self._connection.info.transaction_status != pq.TransactionStatus.IDLE

    def begin(self, write: bool) -> None:
        """Open a transaction: a write one holds the workspace's lock; a read one sees one snapshot."""
        if write:
            self._connection.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
            self._connection.execute("SELECT pg_advisory_xact_lock(%s, %s)", (_LOCK_CLASS, self.target.lock_key()))
        else:
            self._connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")

    def execute(self, sql: str, parameters: Sequence[Any] | None = None) -> Any:
        """Run one statement of the store (SQLite's dialect); the cursor, to fetch from or iterate."""
        if parameters is None:
            return self._connection.execute(statement(sql, False))
        return self._connection.execute(statement(sql), list(parameters))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Any:
        """Run one statement for every row (sent in a pipeline, not one round trip each)."""
        cursor = self._connection.cursor()
        rows = [list(row) for row in rows]
        if rows:
            cursor.executemany(statement(sql), rows)
        return cursor

    def tables(self) -> set[str]:
        """The tables of the workspace's schema (none if the schema does not exist yet)."""
        rows = self._connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = %s", (self.target.schema,))
        return {row[0] for row in rows}

    def columns(self) -> dict[str, set[str]]:
        """The columns of each table of the workspace's schema (as :meth:`tables`, with what each holds)."""
        rows = self._connection.execute("SELECT table_name, column_name FROM information_schema.columns "
                                        "WHERE table_schema = %s", (self.target.schema,))
        found: dict[str, set[str]] = {}
        for table, column in rows:
            found.setdefault(table, set()).add(column)
        return found

    def create_schema(self) -> None:
        """Create the workspace's schema if it does not exist (inside the caller's write transaction)."""
        self._connection.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.target.schema}"')

    def close(self) -> None:
        self._connection.close()
