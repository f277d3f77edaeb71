"""``embed``: a worker that embeds the texts an index run queued in a PostgreSQL index, from any machine.

A run started with ``notion-lab index --db postgresql://... --embed-queue`` queues every text its index
lacks a vector for; each ``notion-lab embed --db`` with the same URL claims a few at a time, embeds them
with its own copy of the model and keeps the vectors in the index's database, until the queue has stayed
empty for ``--idle-exit`` seconds. A worker killed at any moment loses nothing: its claims return to
the queue (:mod:`lab.index.embedding_queue`).
"""

from __future__ import annotations

import argparse
import os
import socket

from lab.cli.exits import CommandFailure, ExitCode
from lab.cli.options import SECONDS, in_range, interruptible

__all__ = ["add_embed_parser", "embed_command"]

WORKERS = in_range(int, 1, 64)
#: The offline dense models by their stored names, the recipe's first (lab.embedders' E5_VARIANTS, named here so that
#: parsing the command line does not load the embedders; a test holds them equal)
OFFLINE_DENSE_MODELS = ("multilingual-e5-small-q4", "portuguese-multilingual-e5-small-q4")
DEFAULT_DENSE_MODEL = OFFLINE_DENSE_MODELS[0]


def embed_command(args: argparse.Namespace) -> int:
    """Run one embedding worker until the queue stays empty; its exit code."""
    from lab.embedders import E5_VARIANTS
    from lab.index import IndexOpenError
    from lab.index.postgres import is_postgres_url

    interruptible()
    if not is_postgres_url(args.db):
        raise CommandFailure(ExitCode.USAGE, f"embed works on a PostgreSQL index (postgresql://...), not {args.db}: "
                                             "on one machine, give index or sync --embed-workers N instead")
    variant = next(v for v, name in E5_VARIANTS.items() if name == args.model)
    from lab.index.embedding_queue import EmbeddingQueue

    worker = f"{socket.gethostname()}:{os.getpid()}"
    try:
        queue = EmbeddingQueue(args.db, worker=worker)
    except IndexOpenError as exc:
        raise CommandFailure(ExitCode.DATABASE, str(exc)) from None
    try:
        return _work(args, queue, variant, worker)
    finally:
        queue.close()


def _work(args: argparse.Namespace, queue, variant: str, worker: str) -> int:
    from lab.embedders.named import load_e5
    from lab.embedders.workers import EmbeddingWorkers
    from lab.ingest.shared_embedding import embed_pending

    print(f"worker {worker}: loading {args.model} to embed the queue of {args.db} ({queue.pending(args.model)} texts "
          f"pending); stops after {args.idle_exit:g} s without work", flush=True)
    embedder = EmbeddingWorkers(args.embed_workers, variant) if args.embed_workers > 1 else load_e5(variant)
    print(f"  {args.model} loaded; waiting for texts", flush=True)
    done = 0

    def embedded(count: int) -> None:
        nonlocal done
        done += count
        print(f"  {done} texts embedded", flush=True)

    try:
        total = embed_pending(queue, embedder, idle_exit=args.idle_exit, poll=args.poll, on_embedded=embedded)
    finally:
        if isinstance(embedder, EmbeddingWorkers):
            embedder.close()
    print(f"done: worker {worker} embedded {total} texts; the queue has been empty for {args.idle_exit:g} s")
    return int(ExitCode.OK)


def add_embed_parser(sub: argparse._SubParsersAction) -> None:
    embed = sub.add_parser("embed", help="embed the texts an index run queued in a PostgreSQL index (index "
                                         "--embed-queue), as one of any number of workers on any machines")
    embed.add_argument("--db", required=True, help="the PostgreSQL index's URL, as the run was given it")
    embed.add_argument("--model", choices=OFFLINE_DENSE_MODELS, default=DEFAULT_DENSE_MODEL,
                       help=f"the dense model of the run's recipe (default {DEFAULT_DENSE_MODEL})")
    embed.add_argument("--idle-exit", type=SECONDS, default=60.0, metavar="SECONDS",
                       help="stop once the queue has had no pending text for this long (default 60): start the "
                            "workers before or during the run")
    embed.add_argument("--poll", type=SECONDS, default=1.0, metavar="SECONDS",
                       help="while the queue is empty, look again after this long (default 1)")
    embed.add_argument("--embed-workers", type=WORKERS, default=1, metavar="N",
                       help="embed in N processes on this machine (default 1)")
    embed.set_defaults(func=embed_command)
