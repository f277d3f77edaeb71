"""Command line: ``python -m lab serve`` (the simulator over HTTP)."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from typing import Sequence

from lab.clock import WallClock
from lab.notion import PLANS, LimitsConfig, NotionSimulator, Workspace

__all__ = ["main", "DEFAULT_SERVE_TOKEN"]

#: The knowledge-base integration's token when ``--token`` is not given. It is public: it
#: exists so that examples work out of the box against a local simulator, nothing else.
DEFAULT_SERVE_TOKEN = "ntn_lab_local_simulator_token"
KB_INTEGRATION = "indexador"


def _serve(args: argparse.Namespace) -> int:
    from lab.datasets.bakery import load_bakery_workspace
    from lab.notion.server import SimulatorHTTPServer

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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ValueError as exc:  # e.g. a probability outside [0, 1]
        print(f"error: {exc}", file=sys.stderr)
        return 2
