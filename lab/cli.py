"""Command line: ``python -m lab serve`` (the simulator over HTTP), ``index`` and ``sync``.

``index`` and ``sync`` run the lab's indexer against the real Notion API by default, or
against any base URL (the served simulator): the token is read from an environment variable
whose name you give (``NOTION_TOKEN`` by default), never from the command line.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Sequence

from lab.clock import WallClock
from lab.errors import LabError
from lab.notion import PLANS
from lab.simulator import KB_INTEGRATION, LimitsConfig, NotionSimulator, Workspace

__all__ = ["main", "DEFAULT_SERVE_TOKEN"]

#: The knowledge-base integration's token when ``--token`` is not given. It is public: it
#: exists so that examples work out of the box against a local simulator, nothing else.
DEFAULT_SERVE_TOKEN = "ntn_lab_local_simulator_token"


def _serve(args: argparse.Namespace) -> int:
    from lab.datasets.bakery import load_bakery_workspace
    from lab.simulator.server import SimulatorHTTPServer

    limits = LimitsConfig(plan=args.plan, window_seconds=args.window_seconds,
                          workspace_window_seconds=args.window_seconds, p_workspace=args.p_workspace,
                          p_overload=args.p_overload)
    workspace = Workspace.from_spec(load_bakery_workspace(), WallClock())
    token = args.token or DEFAULT_SERVE_TOKEN
    simulator = NotionSimulator(workspace, clock=workspace.clock, limits=limits, seed=args.seed,
                                tokens={KB_INTEGRATION: token})
    try:
        server = SimulatorHTTPServer(simulator, args.host, args.port, verbose=args.verbose)
    except OSError as exc:
        print(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"Notion API simulator for '{workspace.name}' at {server.base_url}  (plan {args.plan}: "
          f"{limits.budget} requests per {args.window_seconds:g}-s window, seed {args.seed})")
    for key, integration in sorted(workspace.integrations.items()):
        if key == KB_INTEGRATION:
            shown = f"token {token}" if token == DEFAULT_SERVE_TOKEN else "token given with --token (not shown)"
        else:
            shown = "token not shown"
        print(f"  integration {integration.name!r} ({key}): {shown}")
    print("Use base_url without /v1 with the official SDK. Ctrl-C or SIGTERM stops the server.", flush=True)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        while not stop.wait(0.2):
            pass
    except KeyboardInterrupt:
        pass
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)
    print("simulator stopped", flush=True)
    return 0


def _indexer(args: argparse.Namespace, kind: str) -> int:
    from lab.client import FixedRate, NotionClient
    from lab.ingest.store import IndexStore
    from lab.ingest.sync import SyncConfig, full_index, incremental_sync

    token = os.environ.get(args.token_env, "").strip()
    if not token:
        print(f"error: the environment variable {args.token_env} is not set; export the integration's token "
              f"there (the token is never passed on the command line)", file=sys.stderr)
        return 2
    clock = WallClock()
    client = NotionClient(token, base_url=args.base_url, clock=clock, pacer=FixedRate(args.rate))
    read = 0

    def progress(page) -> None:
        nonlocal read
        read += 1
        waited = client.log.frame()["wait_s"].sum() if len(client.log) else 0.0
        print(f"  [{read:3d}] {page.title}  ({len(page.blocks)} blocks; {len(client.log)} requests so far, "
              f"{waited:.0f} s waited on the server)", flush=True)

    config = SyncConfig(title=args.title, publishable_property=args.publishable_property,
                        data_source_id=args.data_source, on_page=progress)
    try:
        Path(args.db).parent.mkdir(parents=True, exist_ok=True)
        store = IndexStore(args.db)
    except (LabError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{kind} of '{args.title if not args.data_source else args.data_source}' from {args.base_url} "
          f"into {args.db} at {args.rate:g} requests/s", flush=True)
    try:
        if kind == "index":
            report = full_index(client, store, clock, config)
        else:
            report = incremental_sync(client, store, clock, config, force=args.force)
    except (LabError, LookupError) as exc:  # every lab error, pagination's included
        print(f"error: {exc}", file=sys.stderr)
        print("the index was left as it was", file=sys.stderr)
        return 1
    log = client.log.frame()
    print(f"done: {report.kind} run, {report.requests} requests ({int((log['status'] != 200).sum())} retried), "
          f"{log['wait_s'].sum():.0f} s waited on the server")
    print(f"  pages re-read {len(report.pages_reread)}, removed {len(report.pages_removed)}; chunks new "
          f"{report.chunks_new}, updated {report.chunks_updated}, unchanged {report.chunks_unchanged}, deleted "
          f"{report.chunks_deleted}; {report.chunks_total} chunks in the index")
    print(f"  watermark {report.watermark}; {report.tokens_embedded} tokens would go to an embedding API")
    return 0


def _add_indexer_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base-url", default="https://api.notion.com",
                        help="API host without /v1 (default: the real Notion API)")
    parser.add_argument("--token-env", default="NOTION_TOKEN",
                        help="name of the environment variable holding the token (default NOTION_TOKEN)")
    parser.add_argument("--data-source", default=None, help="data source id (default: search by --title)")
    parser.add_argument("--title", default="Base de conocimiento", help="title of the data source to search for")
    parser.add_argument("--publishable-property", default="Publicable", help="checkbox that marks indexable pages")
    parser.add_argument("--db", required=True, help="SQLite file of the index")
    parser.add_argument("--rate", type=float, default=3.0, help="requests per second (default 3)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m lab", description="Tools of the RAG ingestion lab.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the simulated Notion API over HTTP")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (loopback by default)")
    serve.add_argument("--port", type=int, default=8787)
    serve.add_argument("--seed", type=int, default=0, help="seeds latency draws, faults and request ids")
    serve.add_argument("--plan", choices=sorted(PLANS), default="free")
    serve.add_argument("--window-seconds", type=float, default=60.0, help="rate-limit window length")
    serve.add_argument("--p-workspace", type=float, default=0.0, help="probability of a workspace 429")
    serve.add_argument("--p-overload", type=float, default=0.0, help="probability of a 529")
    serve.add_argument("--token", default=None,
                       help=f"token of the knowledge-base integration (default: {DEFAULT_SERVE_TOKEN})")
    serve.add_argument("--verbose", action="store_true", help="print one line per request")
    serve.set_defaults(func=_serve)

    index = sub.add_parser("index", help="read every publishable page and build the index from scratch")
    _add_indexer_options(index)
    index.set_defaults(func=lambda args: _indexer(args, "index"))
    sync = sub.add_parser("sync", help="bring an index up to date with what changed since its watermark")
    _add_indexer_options(sync)
    sync.add_argument("--force", action="store_true", help="allow a reconciliation over the deletion guardrail")
    sync.set_defaults(func=lambda args: _indexer(args, "sync"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (LabError, ValueError) as exc:  # e.g. a probability outside [0, 1]
        print(f"error: {exc}", file=sys.stderr)
        return 2
