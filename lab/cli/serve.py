"""``serve``: the simulated Notion API over HTTP, until Ctrl-C or SIGTERM."""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path
from typing import Any

from lab.cli.exits import CommandFailure, ExitCode
from lab.cli.options import PORT, PROBABILITY, SECONDS, SEED, check_token, in_range, not_blank, token_from_env
from lab.clock import WallClock
from lab.notion import PLANS
from lab.simulator import LimitsConfig, NotionSimulator, Workspace, derived_token
from lab.simulator.server import IDLE_TIMEOUT, SimulatorHTTPServer
from lab.simulator.spec import load_workspace_spec

__all__ = ["DEFAULT_SERVE_TOKEN", "add_serve_parser", "serve_command"]

#: The token of the workspace's first integration (the bakery's knowledge-base indexer) when
#: ``--token`` is not given. It is public: it exists so that examples work out of the box against a
#: local simulator, nothing else.
DEFAULT_SERVE_TOKEN = "ntn_lab_local_simulator_token"
#: ``--search-delay``: from none (the default) up to a day
DELAY = in_range(float, 0.0, 86_400.0)


def serve_command(args: argparse.Namespace) -> int:
    """Serve the bakery, or the workspace spec given with ``--workspace``, until Ctrl-C or SIGTERM."""
    # a token on the command line shows in the process list; --token-env keeps it out of it
    given = token_from_env(args.token_env) if args.token_env is not None else args.token
    token = given if given is not None else DEFAULT_SERVE_TOKEN
    check_token(token, "--token")
    limits = LimitsConfig(plan=args.plan, window_seconds=args.window_seconds,
                          workspace_window_seconds=args.window_seconds, p_workspace=args.p_workspace,
                          p_overload=args.p_overload, search_delay=args.search_delay)
    workspace = Workspace.from_spec(_spec(args.workspace), WallClock())
    first = next(iter(workspace.integrations))  # the bakery's is the knowledge-base indexer
    # Every other integration's token derives from this token, not from the seed.
    simulator = NotionSimulator(workspace, clock=workspace.clock, limits=limits, seed=args.seed,
                                tokens={first: token}, secret=token)
    try:
        server = SimulatorHTTPServer(simulator, args.host, args.port, verbose=args.verbose,
                                     idle_timeout=args.idle_timeout)
    except OSError as exc:
        raise CommandFailure(ExitCode.LISTEN, f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}; "
                                        "choose another --port (0 lets the system pick one)") from None
    print(f"Notion API simulator for '{workspace.name}' at {server.base_url}  (plan {args.plan}: "
          f"{limits.budget} requests per {args.window_seconds:g}-s window, seed {args.seed}"
          + (f"; search shows a page {args.search_delay:g} s after its last edit" if args.search_delay else "") + ")")
    for key, integration in sorted(workspace.integrations.items()):
        print(f"  integration {integration.name!r} ({key}): {_how_to_get_token(key, first, given)}")
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


def _spec(path: Path | None) -> dict[str, Any]:
    """The workspace spec to serve: a file someone wrote (checked first), or the bakery."""
    if path is not None:
        return load_workspace_spec(path)
    from lab.datasets.bakery import load_bakery_workspace

    return load_bakery_workspace()


def _how_to_get_token(key: str, first: str, given: str | None) -> str:
    if given is None:  # the public default: every token derived from it is public too
        token = DEFAULT_SERVE_TOKEN if key == first else derived_token(DEFAULT_SERVE_TOKEN, key)
        return f"token {token}"
    if key == first:
        return "the token given with --token or --token-env (not shown)"
    return f"token not shown: lab.simulator.derived_token(<your --token>, {key!r}) computes it"


def add_serve_parser(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser("serve", help="serve the simulated Notion API over HTTP")
    serve.add_argument("--workspace", type=Path, default=None, metavar="SPEC.json",
                       help="serve the workspace this JSON spec describes (see docs/workspace-spec.md) instead of "
                            "the bakery's")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (loopback by default)")
    serve.add_argument("--port", type=PORT, default=8787, help="0 lets the system choose")
    serve.add_argument("--seed", type=SEED, default=0, help="seeds latency draws, faults and request ids")
    serve.add_argument("--plan", choices=sorted(PLANS), default="free")
    serve.add_argument("--window-seconds", type=SECONDS, default=60.0, help="rate-limit window length")
    serve.add_argument("--p-workspace", type=PROBABILITY, default=0.0, help="probability of a workspace 429")
    serve.add_argument("--p-overload", type=PROBABILITY, default=0.0, help="probability of a 529")
    serve.add_argument("--search-delay", type=DELAY, default=0.0, metavar="SECONDS",
                       help="leave a page out of /v1/search until this many seconds after it was created or "
                            "edited, as Notion's search index lags (data source queries see it at once; default 0)")
    serve.add_argument("--idle-timeout", type=SECONDS, default=IDLE_TIMEOUT,
                       help="close a connection that stays silent, or sends only part of a request, this many "
                            f"seconds (default {IDLE_TIMEOUT:g})")
    chosen = serve.add_mutually_exclusive_group()
    chosen.add_argument("--token", default=None,
                        help=f"token of the workspace's first integration, the bakery's knowledge-base indexer "
                             f"(default: {DEFAULT_SERVE_TOKEN}); the other integrations' tokens derive from it")
    chosen.add_argument("--token-env", type=not_blank, default=None, metavar="NAME",
                        help="read that token from the environment variable NAME instead, so that it does not show "
                             "in the process list")
    serve.add_argument("--verbose", action="store_true", help="print one line per request")
    serve.set_defaults(func=serve_command)
