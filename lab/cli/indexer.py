"""``index`` and ``sync``: the lab's indexer against Notion (or any base URL), with progress, a summary,
exit codes, and for ``sync`` a status file a monitor can watch."""

from __future__ import annotations

import argparse
import datetime
import os
import socket
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from lab.cli.exits import CommandFailure, ExitCode, WaitTooLong, one_line
from lab.cli.index_file import database_problem, index_file_exists, open_index
from lab.cli.options import (RATE, SECONDS, AnnouncedRetry, base_url, in_range, interruptible, not_blank,
                             token_from_env)
from lab.clock import WallClock, iso_minute
from lab.errors import LabError
from lab.notion import plain_text
from lab.notion.pages import TYPE_PROPERTY
from lab.redaction import redact

if TYPE_CHECKING:
    from lab.index import IndexStore
    from lab.ingest.sync import SyncReport

__all__ = ["add_indexer_parsers", "indexer_command", "sync_command", "one_run_at_a_time"]

HOURS = in_range(float, 0.0, 8_760.0)  # a reconciliation's cadence: up to a year
WORKERS = in_range(int, 1, 64)  # embedding processes on one machine

#: The search recipes ``--recipe`` offers and the default, named here so that parsing the command line does not
#: import the search (lab.retrieval's RECIPES and DEFAULT_RECIPE; a test holds them equal): a command that fails on
#: its arguments or its token answers in a fraction of a second
RECIPE_NAMES = ("lexical", "tuned")
LANGUAGES = ("en", "es", "zh")  # lab.chunking.MARKERS_BY_LANGUAGE's, named here so that --help imports no chunker
DEFAULT_RECIPE = "tuned"

_DEFAULT_TITLE = "Base de conocimiento"  # the bakery's knowledge base, in the lessons and the served simulator


def indexer_command(args: argparse.Namespace, kind: str) -> int:
    """Run ``index`` or ``sync`` (``kind``) and return its exit code."""
    return _indexer_run(args, kind)[0]


def _indexer_run(args: argparse.Namespace, kind: str) -> tuple[int, "SyncReport"]:
    """Run ``index`` or ``sync``: the exit code and the run's report (a failure raises :class:`CommandFailure`)."""
    interruptible()
    if args.embed_queue and not str(args.db).startswith(("postgresql://", "postgres://")):
        raise CommandFailure(ExitCode.USAGE, f"--embed-queue shares the embedding through a PostgreSQL index; {args.db} "
                                             "is a SQLite file (on one machine, --embed-workers N)")
    token = token_from_env(args.token_env)
    index_file_exists(args.db)  # a folder, or a path it may not look into, is refused before the lock
    with one_run_at_a_time(args.db, args.lock_wait):
        code, report = _locked_run(args, kind, token)
    if getattr(args, "alert_on_removal", False) and report.retired:
        code = ExitCode.REMOVED  # done, and a scheduler that acts on a non-zero exit makes someone look
    return code, report


def _locked_run(args: argparse.Namespace, kind: str, token: str) -> tuple[int, "SyncReport"]:
    """:func:`_indexer_run` once this process holds the index's run lock."""
    from lab.index import database_errors
    from lab.ingest.sync import GuardrailError

    created = not index_file_exists(args.db)
    store = open_index(args.db)
    finished = False
    try:
        report = _run_indexer(args, kind, token, store)
        finished = True
        return ExitCode.OK, report
    except CommandFailure:
        raise
    except KeyboardInterrupt:
        raise CommandFailure(ExitCode.INTERRUPTED, f"the index is unchanged ({args.db}){_kept(store)}",
                       prefix="interrupted") from None
    except WaitTooLong as exc:
        raise CommandFailure(ExitCode.WAIT, f"{exc}; {args.db} is unchanged{_kept(store)}") from None
    except database_errors() as exc:
        raise CommandFailure(ExitCode.DATABASE, f"{database_problem(args.db, exc)}; the index is unchanged") from None
    except GuardrailError as exc:  # a refusal, not a failure: a monitor tells them apart by the exit code
        raise CommandFailure(ExitCode.GUARDRAIL, f"{redact(str(exc), token)} (on the command line: --force); {args.db} "
                                           "is unchanged", prefix="refused") from None
    except (LabError, LookupError) as exc:  # every other lab error, pagination's included
        raise CommandFailure(ExitCode.FAILED, f"{redact(str(exc), token)}; {args.db} is unchanged{_kept(store)}"
                             ) from None
    finally:
        kept = not finished and _staged(store)
        store.close()
        if created and not finished and not kept:  # a first index that failed leaves no empty file behind
            Path(args.db).unlink(missing_ok=True)


@contextmanager
def one_run_at_a_time(path: str, wait: float, runs: str = "index or sync", *,
                      on_stderr: bool = False) -> Iterator[None]:
    """Hold the index's run lock (a hidden ``.name.lock`` file beside it): a second run that writes into
    one file (``index``, ``sync``, ``ingest-folder``) waits for the first to end, up to ``wait`` seconds,
    then plans against what the first wrote; ``runs`` names them in the line that says it waits (printed on
    stderr if ``on_stderr``, for a command whose standard output is JSON). In PostgreSQL the workspace's
    advisory lock orders the writes instead."""
    from lab.file_lock import FileLockError, exclusive_lock, lock_path_for

    if path.startswith(("postgresql://", "postgres://")) or path.strip() in ("", ":memory:"):
        yield  # no file to lock beside (open_index refuses a path that names no file)
        return

    def announce() -> None:
        print(f"waiting for another {runs} of {path} to end (up to {wait:g} s, --lock-wait)", flush=True,
              file=sys.stderr if on_stderr else sys.stdout)

    try:
        with exclusive_lock(path, timeout=wait, on_wait=announce):
            yield
    except FileLockError as exc:
        if not lock_path_for(path).exists():
            raise CommandFailure(ExitCode.DATABASE, f"--db {path}: {exc}") from None
        raise CommandFailure(ExitCode.BUSY, f"another {runs} of {path} was still running after --lock-wait "
                                            f"{wait:g} s; {path} is unchanged: run again when it has ended, or raise "
                                            "--lock-wait") from None


def _staged(store: "IndexStore") -> int:
    """How many pages an unfinished first index kept in the file (0 if the file cannot say)."""
    from lab.index import database_errors

    try:
        return store.staged_count()
    except database_errors():
        return 0


def _kept(store: "IndexStore") -> str:
    """What an interrupted first index kept for the next run, if anything."""
    kept = _staged(store)
    return f"; the {kept} pages read so far are kept: run the same command again to resume" if kept else ""


def _run_indexer(args: argparse.Namespace, kind: str, token: str, store: "IndexStore") -> "SyncReport":
    from lab.chunking import MARKERS_BY_LANGUAGE
    from lab.client import DEFAULT_MAX_DEPTH, FixedRate, NotionClient
    from lab.ingest.sync import SyncConfig, full_index, incremental_sync
    from lab.retrieval import RECIPES

    clock = WallClock()
    retry = AnnouncedRetry(max_wait=args.max_wait, say=lambda line: print(line, flush=True))
    client = NotionClient(token, base_url=args.base_url, clock=clock, pacer=FixedRate(args.rate), retry=retry)
    if kind == "sync":
        _check_sync_source(args, store, client)
    progress = _Progress(client, clock, kept=store.staged_count())
    title = args.title if args.title is not None else _DEFAULT_TITLE
    recipe_name = _recipe_name(args, kind, store)
    dense = RECIPES[recipe_name].dense_embedder()  # the recipe's model embeds new and changed chunks
    embedding = _Embedding(args, dense)
    if dense is not None and hasattr(dense, "model"):
        dense.load = _announced(embedding.load, dense.name, args.embed_workers, args.embed_queue)
    config = SyncConfig(title=title, publishable_property=args.publishable_property,
                        audience_property=args.audience_property, version_property=args.version_property,
                        type_property=args.type_property, markers=MARKERS_BY_LANGUAGE[args.language],
                        data_source_id=args.data_source,
                        on_page=progress.page_read, on_listed=progress.listed, on_embedded=progress.embedded,
                        dense=dense, search_recipe=recipe_name,
                        reconcile_every=datetime.timedelta(hours=getattr(args, "reconcile_every", 0.0)))
    print(f"{kind} of '{args.data_source or title}' from {args.base_url} into {args.db} at {args.rate:g} "
          f"requests/s", flush=True)
    if store.staged_count() and (kind == "index" or store.watermark(config.source) is None):
        print(f"resuming an interrupted index: {store.staged_count()} pages already read are kept unless "
              "they changed since", flush=True)
    with embedding:
        if kind == "index":
            report = full_index(client, store, clock, config)
        else:
            report = incremental_sync(client, store, clock, config, force=args.force, force_reconcile=args.reconcile)
    if embedding.queued is not None:
        print(f"  embedded through the queue of {args.db}: {embedding.queued.embedded_here} texts here, the others "
              "by workers")
    log = client.log.frame()
    print(f"done: {report.kind} run, {report.requests} requests ({int((log['status'] != 200).sum())} retried), "
          f"{log['wait_s'].sum():.0f} s waited on the server")
    if report.pages_resumed:
        print(f"  resumed: {report.pages_resumed} pages taken from the interrupted run, not read again")
    print(f"  pages re-read {len(report.pages_reread)}, removed {len(report.pages_removed)}; chunks new "
          f"{report.chunks_new}, updated {report.chunks_updated}, unchanged {report.chunks_unchanged}, deleted "
          f"{report.chunks_deleted}; {report.chunks_total} chunks in the index")
    print(f"  watermark {report.watermark}; {report.tokens_embedded} tokens would go to an embedding API")
    if not report.reconciled:
        print("  quick sync: only the pages the watermark query returned; trashed or unshared pages leave at the "
              "next reconciliation (--reconcile-every, or --reconcile)")
    # the publishable pages (a full index, a reconciliation), and a sync's pages edited since the watermark
    listings = (report.kind != "full") + report.reconciled
    if report.query_windows > listings:
        print(f"  past Notion's 10,000 results a query: the data source was read in {report.query_windows} queries "
              "from a creation time on")
    if report.blocks_too_deep:
        print(f"  not read: what {len(report.blocks_too_deep)} blocks hold, nested deeper than {DEFAULT_MAX_DEPTH} "
              f"levels (first: {report.blocks_too_deep[0]})")
    for alert in (report.retirement_alert(), report.erasure_alert()):
        if alert is not None:  # on stderr, where a scheduler's mail or log looks for trouble
            print(redact(alert, token), file=sys.stderr, flush=True)
    return report


class _Progress:
    """The progress line printed after each page read: requests, server waits, chunks embedded so far (the model
    embeds a batch while the next is read) and, once a full index has listed its pages, the time left to read
    the rest at the pace so far (a pace that includes waiting for the model when it is the slower)."""

    def __init__(self, client, clock: WallClock, kept: int) -> None:
        self.client, self.clock, self.kept = client, clock, kept  # kept: pages an interrupted index staged
        self.read, self.waited, self.counted, self.chunks = 0, 0.0, 0, 0
        self.total: int | None = None
        self.began = clock.now()

    def listed(self, pages: int) -> None:
        self.total, self.began = pages, self.clock.now()

    def embedded(self, chunks: int) -> None:
        self.chunks += chunks

    def page_read(self, page) -> None:
        self.read += 1
        records = self.client.log.records
        self.waited += sum(record.wait_s for record in records[self.counted:])
        self.counted = len(records)
        _say(f"  [{self.read:3d}] {one_line(page.title)}  ({len(page.blocks)} blocks; {len(records)} requests so far, "
             f"{self.waited:.0f} s waited on the server; {self.chunks} chunks embedded{self._time_left()})")

    def _time_left(self) -> str:
        if self.total is None:
            return ""
        left = self.total - self.kept - self.read
        if left <= 0:
            return ""
        return f"; about {_duration(left * (self.clock.now() - self.began) / self.read)} left to read"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _say(line: str) -> None:
    """Print ``line`` in one write: the model's thread may print while the reading thread does."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _recipe_name(args: argparse.Namespace, kind: str, store: "IndexStore") -> str:
    """The search recipe of the run: ``--recipe`` for an index, the one the index records for a sync."""
    recorded = store.search_recipe()
    if kind == "sync" and recorded is not None:
        if recorded not in RECIPE_NAMES:
            raise CommandFailure(ExitCode.DATABASE, f"{args.db} is searched with recipe {recorded!r}, which this lab "
                                                    f"does not know; rebuild it with python -m lab index --db {args.db}")
        return recorded
    return args.recipe


def _announced(load, name: str, workers: int = 1, queue: bool = False):
    """``load``, saying before it runs that the model now embeds what the lab has not embedded before."""
    where = (f" in {workers} processes" if workers > 1 else "") + (", sharing the work with the workers of "
                                                                   "notion-lab embed" if queue else "")
    def announce():
        _say(f"  embedding new chunks with {name}{where} (about a tenth of a second a chunk on one core)")
        return load()
    return announce


class _Embedding:
    """How a run embeds what its index lacks: the model in this process, in ``--embed-workers`` processes, and
    with ``--embed-queue`` shared with ``notion-lab embed`` workers; whatever it started ends with the run."""

    def __init__(self, args: argparse.Namespace, dense) -> None:
        self.args, self.dense = args, dense
        self.started: list = []  # worker pools and queue connections, closed at the end
        self._own_load = dense.load if dense is not None and hasattr(dense, "model") else None  # the model here
        self.queued = None  # the QueuedEmbedder, once loaded

    def load(self):
        from lab.embedders import E5_VARIANTS

        variant = next((v for v, name in E5_VARIANTS.items() if name == self.dense.name), None)
        if self.args.embed_workers > 1 and variant is not None:
            from lab.embedders.workers import EmbeddingWorkers

            local = EmbeddingWorkers(self.args.embed_workers, variant)
            self.started.append(local)
        else:
            local = self._own_load()
        if not self.args.embed_queue:
            return local
        from lab.index.embedding_queue import EmbeddingQueue
        from lab.ingest.shared_embedding import QueuedEmbedder

        queue = EmbeddingQueue(self.args.db, worker=f"{socket.gethostname()}:{os.getpid()} (the run)")
        self.started.append(queue)
        self.queued = QueuedEmbedder(queue, local)
        return self.queued

    def __enter__(self) -> "_Embedding":
        return self

    def __exit__(self, *exc_info) -> None:
        for started in reversed(self.started):
            started.close()


def _check_sync_source(args: argparse.Namespace, store: "IndexStore", client) -> None:
    """A sync updates the data source its index was built from: asking for another one by id or by
    title is refused before anything is read, not silently ignored."""
    followed = store.get_meta("notion.data_source_id")
    if followed is None:
        return  # no index yet: this sync is a first, full index of what the options name
    if args.data_source is not None and args.data_source.replace("-", "").lower() != followed.replace("-", ""):
        raise CommandFailure(ExitCode.USAGE, f"{args.db} follows data source {followed}, not --data-source "
                                       f"{args.data_source}; sync updates the data source an index was built from, "
                                       "so index the other one into a new --db")
    if args.title is not None:
        found = plain_text(client.data_sources.retrieve(followed).get("title"))
        if found != args.title:
            raise CommandFailure(ExitCode.USAGE, f"{args.db} follows the data source titled {found!r}, not --title "
                                           f"{args.title!r}; sync updates the data source an index was built "
                                           "from, so index the other one into a new --db")


def _add_indexer_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base-url", type=base_url, default="https://api.notion.com",
                        help="API host without /v1 (default: the real Notion API)")
    parser.add_argument("--token-env", type=not_blank, default="NOTION_TOKEN",
                        help="name of the environment variable holding the token (default NOTION_TOKEN)")
    parser.add_argument("--data-source", type=not_blank, default=None,
                        help="data source id (default: search by --title)")
    parser.add_argument("--title", type=not_blank, default=None,
                        help=f"title of the data source to search for (default {_DEFAULT_TITLE!r})")
    parser.add_argument("--publishable-property", default="Publicable", help="checkbox that marks indexable pages")
    parser.add_argument("--audience-property", type=not_blank, default=None, metavar="NAME",
                        help="select property naming who may see each page; the index stores it and search "
                             "--audience filters on it (default: pages carry no audience). Give a sync the same one "
                             "as its index: a sync with another reads every page again")
    parser.add_argument("--version-property", type=not_blank, default=None, metavar="NAME",
                        help="select property naming the documentation version of each page; the index stores it "
                             "and search --doc-version filters on it (default: pages carry no version). Give a sync "
                             "the same one as its index: a sync with another reads every page again")
    parser.add_argument("--language", choices=LANGUAGES, default="es",
                        help="the language the pages are written in, for the labels a chunk gives a line's role "
                             "(es: \"Pregunta: \", en: \"Question: \", zh: \"问题：\"; default es, the bakery's). "
                             "Give a sync the same one as its index: a sync relabels only the pages it reads again (run index "
                             "to relabel them all)")
    parser.add_argument("--type-property", type=not_blank, default=TYPE_PROPERTY, metavar="NAME",
                        help=f"select property naming the kind of each page, which the index stores (default: "
                             f"{TYPE_PROPERTY}, the bakery's); a page without it has no type. Give a sync the same "
                             "one as its index: a sync with another reads every page again")
    parser.add_argument("--db", required=True, help="SQLite file of the index")
    parser.add_argument("--rate", type=RATE, default=3.0, help="requests per second (default 3)")
    parser.add_argument("--lock-wait", type=SECONDS, default=900.0, metavar="SECONDS",
                        help="wait this long for another index or sync of the same --db to end before giving up with "
                             "exit code 9 (default 900)")
    parser.add_argument("--max-wait", type=SECONDS, default=300.0,
                        help="give up at once if the server asks to wait longer than this, in seconds (default 300)")
    parser.add_argument("--embed-workers", type=WORKERS, default=1, metavar="N",
                        help="embed in N processes, each with its share of the cores (default 1: in this process)")
    parser.add_argument("--embed-queue", action="store_true",
                        help="PostgreSQL --db only: queue the texts to embed in the index, so that notion-lab embed "
                             "workers on other machines share the work; the run publishes once every chunk has its "
                             "vector")
    parser.add_argument("--recipe", choices=RECIPE_NAMES, default=DEFAULT_RECIPE,
                        help=f"how the index is searched (default {DEFAULT_RECIPE}: fuses multilingual-e5-small, which "
                             "embeds each chunk once, about a tenth of a second a chunk on one core; lexical does "
                             "without it). A sync keeps the recipe the index records")


def sync_command(args: argparse.Namespace) -> int:
    """``sync``, and with ``--status-file`` one line of JSON for a monitor, however the run ended."""
    if args.status_file is None:
        return indexer_command(args, "sync")
    try:
        code, report = _indexer_run(args, "sync")
    except CommandFailure as failure:
        _write_status(args, failure.code, failure.line)
        raise
    return _write_status(args, ExitCode(code), "", [page.id for page in report.retired], report.erased)


def _write_status(args: argparse.Namespace, code: ExitCode, line: str, retired: Sequence[str] = (),
                  erased: bool = True) -> int:
    """Write the status file for a run that ended with ``code`` (having retired the pages of ids ``retired``, and
    erased their text from the file or not); the exit code to return."""
    from lab.ingest.run_status import RunStatus, write_status_file

    token = os.environ.get(args.token_env, "").strip() or None
    run, watermark, chunks = _index_state(args.db)
    if code in (ExitCode.OK, ExitCode.REMOVED) and run is not None:
        status = RunStatus.from_run(run, exit_code=int(code), retired_pages=retired, erased=erased)
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
        return int(ExitCode.FAILED) if code in (ExitCode.OK, ExitCode.REMOVED) else int(code)
    return int(code)


def _index_state(path: str) -> tuple[dict | None, str | None, int | None]:
    """The index's last run, watermark and chunk count, or Nones when the file cannot say.

    Only an existing, non-empty file is opened, so that reading it never creates an index."""
    from lab.index import IndexStore, database_errors
    from lab.index.postgres import is_postgres_url

    try:
        if not is_postgres_url(path) and (not Path(path).is_file() or Path(path).stat().st_size == 0):
            return None, None, None
        with IndexStore(path) as store:
            runs = store.sync_runs()
            return (runs[-1] if runs else None), store.watermark("notion"), store.count_chunks()
    except (LabError, OSError, *database_errors()):
        return None, None, None


def add_indexer_parsers(sub: argparse._SubParsersAction) -> None:
    index = sub.add_parser("index", help="read every publishable page and build the index from scratch")
    _add_indexer_options(index)
    index.set_defaults(func=lambda args: indexer_command(args, "index"))
    sync = sub.add_parser("sync", help="bring an index up to date with what changed since its watermark")
    _add_indexer_options(sync)
    sync.add_argument("--force", action="store_true", help="allow a reconciliation over the deletion guardrail")
    sync.add_argument("--reconcile-every", type=HOURS, default=0.0, metavar="HOURS",
                      help="list every publishable page only when this many hours have passed since the last "
                           "reconciliation; the syncs in between read only what the watermark query returns, and "
                           "a trashed or unshared page leaves at the next reconciliation (default 0: every sync "
                           "reconciles; for a large workspace synced every 15 minutes, 24)")
    sync.add_argument("--reconcile", action="store_true",
                      help="reconcile this run (list every publishable page) whatever --reconcile-every says")
    sync.add_argument("--status-file", default=None, metavar="PATH",
                      help="replace PATH with one line of JSON saying how the run ended (for a monitor)")
    sync.add_argument("--alert-on-removal", action="store_true",
                      help="end with exit code 10, not 0, when the run removed pages from the index, so that a "
                           "scheduler acting on the exit code (systemd's OnFailure=) makes someone look; the "
                           "status file's alert names them either way (default: 0, a removal is legitimate)")
    sync.set_defaults(func=sync_command)
