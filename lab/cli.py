"""Command line: ``python -m lab serve`` (the simulator over HTTP), ``index``, ``sync`` and ``audit``.

``index`` and ``sync`` run the lab's indexer against the real Notion API by default, or
against any base URL (the served simulator): the token is read from an environment variable
whose name you give (``NOTION_TOKEN`` by default), never from the command line.

Every failure is one line on stderr that names what was wrong and what to do, and ends the
command with its own exit code (:class:`ExitCode`). The index file is opened, and checked
writable, before the first request; a failed or interrupted run leaves it as it was, except that
a first index keeps the pages it had read, so that running it again resumes.
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import sqlite3
import sys
import threading
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np

from lab.clock import WallClock, iso_minute
from lab.errors import LabError
from lab.notion import PLANS, plain_text
from lab.redaction import check_secret, redact
from lab.retry import RETRY_AFTER_STATUSES, RetryPolicy
from lab.simulator import KB_INTEGRATION, LimitsConfig, NotionSimulator, Workspace, derived_token
from lab.simulator.server import IDLE_TIMEOUT, SimulatorHTTPServer

if TYPE_CHECKING:
    from lab.ingest.store import IndexStore

__all__ = ["main", "build_parser", "ExitCode", "DEFAULT_SERVE_TOKEN"]

#: The knowledge-base integration's token when ``--token`` is not given. It is public: it
#: exists so that examples work out of the box against a local simulator, nothing else.
DEFAULT_SERVE_TOKEN = "ntn_lab_local_simulator_token"
_DEFAULT_TITLE = "Base de conocimiento"  # the bakery's knowledge base, in the lessons and the served simulator


class ExitCode(IntEnum):
    """How a command ended; scripts can tell the failures apart without reading the message."""

    OK = 0
    FAILED = 1  # Notion refused or the network failed: nothing was written
    USAGE = 2  # an option is missing, malformed or out of range (argparse's own code)
    TOKEN = 3  # the token is missing or cannot be sent
    DATABASE = 4  # --db cannot hold an index (a folder, not SQLite, damaged, read-only, in memory)
    WAIT = 5  # the server asked to wait longer than --max-wait
    LISTEN = 6  # serve: the address cannot be bound
    GUARDRAIL = 7  # sync: a reconciliation would delete more than allowed and was refused (--force if intended)
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as shells report it)


class _Failure(LabError):
    """Ends a command: one line on stderr and an exit code."""

    def __init__(self, code: ExitCode, message: str, prefix: str = "error") -> None:
        super().__init__(message)
        self.code = code
        self.line = f"{prefix}: {' '.join(message.split())}"  # one line, whatever the message held


class _WaitTooLong(LabError):
    """The server asked for a longer wait than ``--max-wait`` allows."""


# ---------------------------------------------------------------------- options


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line (the usage itself is one ``--help`` away)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(ExitCode.USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _in_range(kind: type, low: float, high: float, *, above: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite ``kind`` number in ``[low, high]`` (``(low, high]`` if ``above``)."""
    noun = "a whole number" if kind is int else "a number"

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {noun}, got {ascii(text)}") from None
        if not math.isfinite(value) or value > high or value < low or (above and value == low):
            bound = "above" if above else "at least"
            raise argparse.ArgumentTypeError(f"must be {noun} {bound} {low:g} and at most {high:g}, got {ascii(text)}")
        return value

    parse.__name__ = noun  # argparse names the type in some messages
    return parse


_PORT = _in_range(int, 0, 65_535)
_SEED = _in_range(int, 0, 2 ** 63 - 1)
_PROBABILITY = _in_range(float, 0.0, 1.0)
_SECONDS = _in_range(float, 0.0, 86_400.0, above=True)
_RATE = _in_range(float, 0.0, 1_000.0, above=True)


def _not_blank(text: str) -> str:
    """An argparse type: a value that is not empty (an empty --data-source fell back to --title)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty; leave the option out to use the default")
    return text


# ---------------------------------------------------------------------- serve


def _serve(args: argparse.Namespace) -> int:
    from lab.datasets.bakery import load_bakery_workspace

    token = args.token if args.token is not None else DEFAULT_SERVE_TOKEN
    _check_token(token, "--token")
    limits = LimitsConfig(plan=args.plan, window_seconds=args.window_seconds,
                          workspace_window_seconds=args.window_seconds, p_workspace=args.p_workspace,
                          p_overload=args.p_overload)
    workspace = Workspace.from_spec(load_bakery_workspace(), WallClock())
    # Every other integration's token and the cursor key derive from this token, not from the seed.
    simulator = NotionSimulator(workspace, clock=workspace.clock, limits=limits, seed=args.seed,
                                tokens={KB_INTEGRATION: token}, secret=token)
    try:
        server = SimulatorHTTPServer(simulator, args.host, args.port, verbose=args.verbose,
                                     idle_timeout=args.idle_timeout)
    except OSError as exc:
        raise _Failure(ExitCode.LISTEN, f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}; "
                                        "choose another --port (0 lets the system pick one)") from None
    print(f"Notion API simulator for '{workspace.name}' at {server.base_url}  (plan {args.plan}: "
          f"{limits.budget} requests per {args.window_seconds:g}-s window, seed {args.seed})")
    for key, integration in sorted(workspace.integrations.items()):
        print(f"  integration {integration.name!r} ({key}): {_how_to_get_token(key, args.token)}")
    print(f"Use base_url without /v1 with the official SDK. Connections silent for {args.idle_timeout:g} s are "
          "closed. Ctrl-C or SIGTERM stops the server.", flush=True)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    server.start_in_background()
    try:
        while not stop.wait(0.2):
            pass
    except KeyboardInterrupt:
        pass
    server.stop()
    print("simulator stopped", flush=True)
    return ExitCode.OK


def _how_to_get_token(key: str, given: str | None) -> str:
    if given is None:  # the public default: every token derived from it is public too
        token = DEFAULT_SERVE_TOKEN if key == KB_INTEGRATION else derived_token(DEFAULT_SERVE_TOKEN, key)
        return f"token {token}"
    if key == KB_INTEGRATION:
        return "the token given with --token (not shown)"
    return f"token not shown: lab.simulator.derived_token(<your --token>, {key!r}) computes it"


def _check_token(token: str, name: str) -> str:
    """The token, or a one-line refusal that does not echo it. Notion's tokens are printable
    ASCII without spaces; anything else is a copying mistake, caught before it reaches a header."""
    if not token:
        raise _Failure(ExitCode.TOKEN, f"{name} is empty: give the integration's secret")
    try:
        check_secret(token, name)
    except ValueError as exc:
        raise _Failure(ExitCode.TOKEN, str(exc)) from None
    if not (token.isascii() and token.isprintable()) or any(ch.isspace() for ch in token):
        raise _Failure(ExitCode.TOKEN, f"{name} contains a space or a character that is not printable ASCII: "
                                       "set it to the secret alone, as Notion shows it")
    return token


# ---------------------------------------------------------------------- index and sync


def _open_index(path: str) -> "IndexStore":
    """The index at ``path``, opened and proved writable before any request is sent."""
    from lab.ingest.store import IndexOpenError, IndexStore, StoreError

    if path.strip() in ("", ":memory:"):
        raise _Failure(ExitCode.DATABASE, f"--db {path!r} would keep the index in memory and lose it when the "
                                          "command ends; give a file path such as kb.sqlite")
    where = Path(path)
    if where.is_dir():
        raise _Failure(ExitCode.DATABASE, f"--db {path} is a folder, not a file; give a file path such as "
                                          f"{where / 'kb.sqlite'}")
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        store = IndexStore(where)
    except IndexOpenError as exc:
        raise _Failure(ExitCode.DATABASE, _rebuild_hint(f"--db {path} {exc.reason}", path, exc.damaged)) from None
    except StoreError as exc:
        raise _Failure(ExitCode.DATABASE, str(exc)) from None
    except (sqlite3.Error, OSError) as exc:
        raise _Failure(ExitCode.DATABASE, _database_problem(path, exc)) from None
    try:
        _prove_writable(where)
    except (sqlite3.Error, OSError) as exc:
        store.close()
        raise _Failure(ExitCode.DATABASE, _database_problem(path, exc)) from None
    return store


def _prove_writable(path: Path) -> None:
    """Write inside a transaction and roll it back: a read-only file or folder fails here, not
    after every page has been read."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        db.execute("CREATE TABLE lab_cli_write_check (x)")
        db.execute("ROLLBACK")
    finally:
        db.close()


def _database_problem(path: str, exc: BaseException) -> str:
    from lab.ingest.store import is_damaged, open_failure

    return _rebuild_hint(f"--db {path} {open_failure(path, exc)}", path, is_damaged(exc))


def _rebuild_hint(problem: str, path: str, damaged: bool) -> str:
    """A damaged index is rebuilt with ``index``: say the exact command."""
    return problem + (f" with python -m lab index --db {path}" if damaged else "")


@dataclass(frozen=True)
class _AnnouncedRetry(RetryPolicy):
    """The lab's retry policy, saying before each wait of a second or more what it waits for, and
    giving up at once when the server asks for more than ``--max-wait``."""

    say: Callable[[str], None] = print

    def wait(self, status: int | None, retry_after: float | None, *, idempotent: bool, attempt: int,
             rng: np.random.Generator) -> float | None:
        asked = retry_after if status in RETRY_AFTER_STATUSES and self.respect_retry_after else None
        if asked is not None and asked > self.max_wait and self.is_retry(status, idempotent=idempotent):
            raise _WaitTooLong(f"the server answered {_answer(status)} and asked to wait {asked:g} s before trying "
                               f"again, more than --max-wait {self.max_wait:g} s; run again later or raise --max-wait")
        seconds = super().wait(status, retry_after, idempotent=idempotent, attempt=attempt, rng=rng)
        if seconds is not None and seconds >= 1.0:
            why = f"it asked for Retry-After {asked:g} s" if asked is not None else "backing off"
            self.say(f"  waiting {seconds:.0f} s: the server answered {_answer(status)}; {why} "
                     f"(attempt {attempt + 1} of {self.max_attempts} next)")
        return seconds


def _answer(status: int | None) -> str:
    return {None: "nothing (network error)", 429: "429 (rate limited)", 529: "529 (overloaded)"}.get(
        status, str(status))


def _token_from_env(name: str) -> str:
    token = os.environ.get(name, "").strip()
    if not token:
        raise _Failure(ExitCode.TOKEN, f"the environment variable {name} is not set; export the integration's "
                                       "token there (the token is never passed on the command line)")
    return _check_token(token, f"the token in {name}")


def _interruptible() -> None:
    """Make SIGINT raise KeyboardInterrupt even if the parent ignored it.

    A shell starts background jobs with SIGINT ignored, and a child inherits that; a scheduler
    or a test that sends SIGINT to stop a run must still get the clean "interrupted" exit.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _indexer(args: argparse.Namespace, kind: str) -> int:
    from lab.ingest.sync import GuardrailError

    _interruptible()
    token = _token_from_env(args.token_env)
    created = not Path(args.db).exists()
    store = _open_index(args.db)
    finished = False
    try:
        code = _run_indexer(args, kind, token, store)
        finished = True
        return code
    except _Failure:
        raise
    except KeyboardInterrupt:
        raise _Failure(ExitCode.INTERRUPTED, f"the index is unchanged ({args.db}){_kept(store)}",
                       prefix="interrupted") from None
    except _WaitTooLong as exc:
        raise _Failure(ExitCode.WAIT, f"{exc}; {args.db} is unchanged{_kept(store)}") from None
    except sqlite3.Error as exc:
        raise _Failure(ExitCode.DATABASE, f"{_database_problem(args.db, exc)}; the index is unchanged") from None
    except GuardrailError as exc:  # a refusal, not a failure: a monitor tells them apart by the exit code
        raise _Failure(ExitCode.GUARDRAIL, f"{redact(str(exc), token)} (on the command line: --force); {args.db} "
                                           "is unchanged", prefix="refused") from None
    except (LabError, LookupError) as exc:  # every lab error, pagination's and the guardrail's included
        hint = " (on the command line: --force)" if "force=True" in str(exc) else ""
        raise _Failure(ExitCode.FAILED, f"{redact(str(exc), token)}{hint}; {args.db} is unchanged{_kept(store)}"
                       ) from None
    finally:
        kept = not finished and _staged(store)
        store.close()
        if created and not finished and not kept:  # a first index that failed leaves no empty file behind
            Path(args.db).unlink(missing_ok=True)


def _staged(store: "IndexStore") -> int:
    """How many pages an unfinished first index kept in the file (0 if the file cannot say)."""
    try:
        return store.staged_count()
    except sqlite3.Error:
        return 0


def _kept(store: "IndexStore") -> str:
    """What an interrupted first index kept for the next run, if anything."""
    kept = _staged(store)
    return f"; the {kept} pages read so far are kept: run the same command again to resume" if kept else ""


def _run_indexer(args: argparse.Namespace, kind: str, token: str, store: "IndexStore") -> int:
    from lab.client import DEFAULT_MAX_DEPTH, FixedRate, NotionClient
    from lab.ingest.sync import SyncConfig, full_index, incremental_sync

    clock = WallClock()
    retry = _AnnouncedRetry(max_wait=args.max_wait, say=lambda line: print(line, flush=True))
    client = NotionClient(token, base_url=args.base_url, clock=clock, pacer=FixedRate(args.rate), retry=retry)
    if kind == "sync":
        _check_sync_source(args, store, client)
    read, waited, counted = 0, 0.0, 0

    def progress(page) -> None:
        nonlocal read, waited, counted
        read += 1
        records = client.log.records
        waited += sum(record.wait_s for record in records[counted:])
        counted = len(records)
        print(f"  [{read:3d}] {page.title}  ({len(page.blocks)} blocks; {len(records)} requests so far, "
              f"{waited:.0f} s waited on the server)", flush=True)

    title = args.title if args.title is not None else _DEFAULT_TITLE
    config = SyncConfig(title=title, publishable_property=args.publishable_property,
                        data_source_id=args.data_source, on_page=progress)
    print(f"{kind} of '{args.data_source or title}' from {args.base_url} into {args.db} at {args.rate:g} "
          f"requests/s", flush=True)
    if store.staged_count() and (kind == "index" or store.watermark(config.source) is None):
        print(f"resuming an interrupted index: {store.staged_count()} pages already read are kept unless "
              "they changed since", flush=True)
    if kind == "index":
        report = full_index(client, store, clock, config)
    else:
        report = incremental_sync(client, store, clock, config, force=args.force)
    log = client.log.frame()
    print(f"done: {report.kind} run, {report.requests} requests ({int((log['status'] != 200).sum())} retried), "
          f"{log['wait_s'].sum():.0f} s waited on the server")
    if report.pages_resumed:
        print(f"  resumed: {report.pages_resumed} pages taken from the interrupted run, not read again")
    print(f"  pages re-read {len(report.pages_reread)}, removed {len(report.pages_removed)}; chunks new "
          f"{report.chunks_new}, updated {report.chunks_updated}, unchanged {report.chunks_unchanged}, deleted "
          f"{report.chunks_deleted}; {report.chunks_total} chunks in the index")
    print(f"  watermark {report.watermark}; {report.tokens_embedded} tokens would go to an embedding API")
    if report.blocks_too_deep:
        print(f"  not read: what {len(report.blocks_too_deep)} blocks hold, nested deeper than {DEFAULT_MAX_DEPTH} "
              f"levels (first: {report.blocks_too_deep[0]})")
    return ExitCode.OK


def _check_sync_source(args: argparse.Namespace, store: "IndexStore", client) -> None:
    """A sync updates the data source its index was built from: asking for another one by id or by
    title is refused before anything is read, not silently ignored."""
    followed = store.get_meta("notion.data_source_id")
    if followed is None:
        return  # no index yet: this sync is a first, full index of what the options name
    if args.data_source is not None and args.data_source.replace("-", "").lower() != followed.replace("-", ""):
        raise _Failure(ExitCode.USAGE, f"{args.db} follows data source {followed}, not --data-source "
                                       f"{args.data_source}; sync updates the data source an index was built from, "
                                       "so index the other one into a new --db")
    if args.title is not None:
        found = plain_text(client.data_sources.retrieve(followed).get("title"))
        if found != args.title:
            raise _Failure(ExitCode.USAGE, f"{args.db} follows the data source titled {found!r}, not --title "
                                           f"{args.title!r}; sync updates the data source an index was built "
                                           "from, so index the other one into a new --db")


def _add_indexer_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base-url", default="https://api.notion.com",
                        help="API host without /v1 (default: the real Notion API)")
    parser.add_argument("--token-env", default="NOTION_TOKEN",
                        help="name of the environment variable holding the token (default NOTION_TOKEN)")
    parser.add_argument("--data-source", type=_not_blank, default=None,
                        help="data source id (default: search by --title)")
    parser.add_argument("--title", type=_not_blank, default=None,
                        help=f"title of the data source to search for (default {_DEFAULT_TITLE!r})")
    parser.add_argument("--publishable-property", default="Publicable", help="checkbox that marks indexable pages")
    parser.add_argument("--db", required=True, help="SQLite file of the index")
    parser.add_argument("--rate", type=_RATE, default=3.0, help="requests per second (default 3)")
    parser.add_argument("--max-wait", type=_SECONDS, default=300.0,
                        help="give up at once if the server asks to wait longer than this, in seconds (default 300)")


# ---------------------------------------------------------------------- sync's status file


def _sync(args: argparse.Namespace) -> int:
    """``sync``, and with ``--status-file`` one line of JSON for a monitor, however the run ended."""
    if args.status_file is None:
        return _indexer(args, "sync")
    try:
        code = _indexer(args, "sync")
    except _Failure as failure:
        _write_status(args, failure.code, failure.line)
        raise
    return _write_status(args, ExitCode(code), "")


def _write_status(args: argparse.Namespace, code: ExitCode, line: str) -> int:
    """Write the status file for a run that ended with ``code``; the exit code to return."""
    from lab.ingest.run_status import RunStatus, write_status_file

    token = os.environ.get(args.token_env, "").strip() or None
    run, watermark, chunks = _index_state(args.db)
    if code == ExitCode.OK and run is not None:
        status = RunStatus.from_run(run, exit_code=int(code))
    else:
        status = RunStatus(command="sync", outcome="refused" if code == ExitCode.GUARDRAIL else "failed",
                           exit_code=int(code), finished_at=iso_minute(WallClock().datetime()), watermark=watermark,
                           counts={} if chunks is None else {"chunks_total": chunks}, message=line)
    try:
        write_status_file(args.status_file, status, token)
    except OSError as exc:
        problem = f"error: cannot write --status-file {args.status_file} ({exc.strerror or exc}); a monitor " \
                  "watching it sees the previous status"
        print(problem, file=sys.stderr)
        return int(ExitCode.FAILED) if code == ExitCode.OK else int(code)
    return int(code)


def _index_state(path: str) -> tuple[dict | None, str | None, int | None]:
    """The index's last run, watermark and chunk count, or Nones when the file cannot say.

    Only an existing, non-empty file is opened, so that reading it never creates an index."""
    from lab.ingest.store import IndexStore

    if not Path(path).is_file() or Path(path).stat().st_size == 0:
        return None, None, None
    try:
        with IndexStore(path) as store:
            runs = store.sync_runs()
            return (runs[-1] if runs else None), store.watermark("notion"), store.count_chunks()
    except (LabError, sqlite3.Error, OSError):
        return None, None, None


# ---------------------------------------------------------------------- audit


def _audit(args: argparse.Namespace) -> int:
    """List, per integration, the pages it can see; flag drafts and private pages."""
    from lab.client import FixedRate, NoPacing, NotionClient
    from lab.ingest.permission_audit import audit_integrations, audit_summary, integration_label

    if args.simulator:
        from lab.simulator import in_process_session
        from lab.simulator.workspaces import bakery_simulator

        sim = bakery_simulator(seed=0)
        tokens = [sim.token_for(key) for key in sorted(sim.workspace.integrations)]
        where, clients = "the simulated bakery workspace", [
            NotionClient(token, session=in_process_session(sim), clock=sim.clock, pacer=NoPacing())
            for token in tokens]
    else:
        tokens = [_token_from_env(name) for name in dict.fromkeys(args.token_env or ["NOTION_TOKEN"])]
        retry = _AnnouncedRetry(max_wait=args.max_wait, say=lambda line: print(line, flush=True))
        where, clients = args.base_url, [NotionClient(token, base_url=args.base_url, clock=WallClock(),
                                                      pacer=FixedRate(args.rate), retry=retry) for token in tokens]
    try:
        labelled = {integration_label(client): client for client in clients}
        audit = audit_integrations(labelled, args.publishable_property)
    except _WaitTooLong as exc:
        raise _Failure(ExitCode.WAIT, str(exc)) from None
    except (LabError, LookupError) as exc:
        raise _Failure(ExitCode.FAILED, redact(str(exc), *tokens)) from None
    print(f"permission audit of {where}: {len(labelled)} integration(s); a flagged page is visible but not "
          "publishable")
    for row in audit_summary(audit).itertuples(index=False):
        print(f"  {row.integration}: sees {row.visible} pages, {row.publishable} publishable, {row.drafts} drafts, "
              f"{row.private} private")
        shown = audit[(audit["integration"] == row.integration) & (args.all | (audit["flag"] != ""))]
        for page in shown.itertuples():
            print(f"    {page.flag or 'ok':<8}{page.title}  ({page.reason}; {page.page_id})")
    return ExitCode.OK


def build_parser() -> argparse.ArgumentParser:
    codes = ", ".join(f"{code.value} {code.name.lower()}" for code in ExitCode)
    parser = _Parser(prog="python -m lab", description="Tools of the RAG ingestion lab.",
                     epilog=f"exit codes: {codes}")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the simulated Notion API over HTTP")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (loopback by default)")
    serve.add_argument("--port", type=_PORT, default=8787, help="0 lets the system choose")
    serve.add_argument("--seed", type=_SEED, default=0, help="seeds latency draws, faults and request ids")
    serve.add_argument("--plan", choices=sorted(PLANS), default="free")
    serve.add_argument("--window-seconds", type=_SECONDS, default=60.0, help="rate-limit window length")
    serve.add_argument("--p-workspace", type=_PROBABILITY, default=0.0, help="probability of a workspace 429")
    serve.add_argument("--p-overload", type=_PROBABILITY, default=0.0, help="probability of a 529")
    serve.add_argument("--idle-timeout", type=_SECONDS, default=IDLE_TIMEOUT,
                       help="close a connection that stays silent, or sends only part of a request, this many "
                            f"seconds (default {IDLE_TIMEOUT:g})")
    serve.add_argument("--token", default=None,
                       help=f"token of the knowledge-base integration (default: {DEFAULT_SERVE_TOKEN}); the "
                            "other integrations' tokens and the cursor key derive from it")
    serve.add_argument("--verbose", action="store_true", help="print one line per request")
    serve.set_defaults(func=_serve)

    index = sub.add_parser("index", help="read every publishable page and build the index from scratch")
    _add_indexer_options(index)
    index.set_defaults(func=lambda args: _indexer(args, "index"))
    sync = sub.add_parser("sync", help="bring an index up to date with what changed since its watermark")
    _add_indexer_options(sync)
    sync.add_argument("--force", action="store_true", help="allow a reconciliation over the deletion guardrail")
    sync.add_argument("--status-file", default=None, metavar="PATH",
                      help="replace PATH with one line of JSON saying how the run ended (for a monitor)")
    sync.set_defaults(func=_sync)
    _add_audit_parser(sub)
    return parser


def _add_audit_parser(sub: argparse._SubParsersAction) -> None:
    audit = sub.add_parser("audit", help="list the pages each integration can see and flag those it should not")
    audit.add_argument("--simulator", action="store_true",
                       help="audit every integration of the simulated bakery workspace (no token needed)")
    audit.add_argument("--base-url", default="https://api.notion.com",
                       help="API host without /v1 (default: the real Notion API)")
    audit.add_argument("--token-env", action="append", default=None, metavar="NAME",
                       help="environment variable holding an integration's token; repeat it to audit several "
                            "(default NOTION_TOKEN)")
    audit.add_argument("--publishable-property", default="Publicable", help="checkbox that marks indexable pages")
    audit.add_argument("--all", action="store_true", help="list every visible page, not only the flagged ones")
    audit.add_argument("--rate", type=_RATE, default=3.0, help="requests per second (default 3)")
    audit.add_argument("--max-wait", type=_SECONDS, default=300.0,
                       help="give up at once if the server asks to wait longer than this, in seconds (default 300)")
    audit.set_defaults(func=_audit)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return its :class:`ExitCode` (a usage error exits through argparse)."""
    try:
        args = build_parser().parse_args(argv)
        return int(args.func(args))
    except _Failure as failure:
        print(failure.line, file=sys.stderr)
        return int(failure.code)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return int(ExitCode.INTERRUPTED)
    except (LabError, ValueError) as exc:  # e.g. a limit the options allow but the simulator refuses
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return int(ExitCode.USAGE)
