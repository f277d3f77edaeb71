"""Command line: ``notion-lab serve`` (the simulator over HTTP), ``index``, ``sync``, ``audit``,
``ingest-folder`` (a folder of documents into an index), ``search`` and ``ask`` (questions to an
index), and ``embed`` (a worker that shares a PostgreSQL index's embedding). ``notion-lab`` is the
console script an install puts on ``PATH``; ``python -m lab`` runs the same commands.

``index`` and ``sync`` run the lab's indexer against the real Notion API by default, or
against any base URL (the served simulator): the token is read from an environment variable
whose name you give (``NOTION_TOKEN`` by default), never from the command line. ``search`` and
``ask`` search an index with the recipe it records (:class:`~lab.retrieval.IndexSearcher`).

Every failure is one line on stderr that names what was wrong and what to do, and ends the
command with its own exit code (:class:`ExitCode`). The index file is opened, and checked
writable, before the first request; a failed or interrupted run leaves it as it was, except that
a first index keeps the pages it had read, so that running it again resumes.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from lab import __version__
from lab.cli.asking import add_asking_parsers
from lab.cli.audit import add_audit_parser
from lab.cli.embed_worker import add_embed_parser
from lab.cli.exits import CommandFailure, ExitCode
from lab.cli.folder import add_folder_parser
from lab.cli.indexer import add_indexer_parsers
from lab.cli.options import Parser
from lab.cli.serve import DEFAULT_SERVE_TOKEN, add_serve_parser
from lab.errors import LabError

__all__ = ["main", "build_parser", "ExitCode", "DEFAULT_SERVE_TOKEN", "SCRIPT"]

#: The console script's name: "lab" alone is taken on PATH (a GitLab command line) and on PyPI,
#: and the name says what the commands are about.
SCRIPT = "notion-lab"


def build_parser(prog: str = SCRIPT) -> argparse.ArgumentParser:
    """The parser with every command, named ``prog`` in its usage and errors."""
    codes = ", ".join(f"{code.value} {code.name.lower()}" for code in ExitCode)
    parser = Parser(prog=prog, description="Tools of the RAG ingestion lab: a Notion API simulator to serve, "
                                           "an indexer, a sync and a search for Notion knowledge bases, and an "
                                           "ingestion of folders of documents into the same index.",
                    epilog=f"exit codes: {codes}")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    add_serve_parser(sub)
    add_indexer_parsers(sub)
    add_audit_parser(sub)
    add_folder_parser(sub)
    add_asking_parsers(sub)
    add_embed_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None, prog: str = SCRIPT) -> int:
    """Run one command; return its :class:`ExitCode` (a usage error exits through argparse)."""
    try:
        args = build_parser(prog).parse_args(argv)
        if str(getattr(args, "db", "")).lower().startswith(("postgresql://", "postgres://")):
            from lab.index.postgres import password_to_environment
            try:
                args.db = password_to_environment(args.db)  # no message can print it
            except ValueError as exc:  # the URL cannot be taken apart, so no form of it without its password is known
                raise CommandFailure(ExitCode.DATABASE, f"--db is not a PostgreSQL URL that can be read ({exc}); write "
                                                        "it postgresql://user@host:port/database?workspace=NAME (the "
                                                        "URL is not shown: it may hold a password)") from None
        return int(args.func(args))
    except CommandFailure as failure:
        print(failure.line, file=sys.stderr)
        return int(failure.code)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return int(ExitCode.INTERRUPTED)
    except BrokenPipeError:
        _stop_writing_stdout()
        try:  # stderr may be the same closed pipe (2>&1 | head): then the exit code says it alone
            print("stopped: the reader of the output closed it (| head?); the rest was not printed", file=sys.stderr)
        except BrokenPipeError:
            _stop_writing(sys.stderr)
        return int(ExitCode.PIPE)
    except (LabError, ValueError) as exc:  # e.g. a limit the options allow but the simulator refuses
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return int(ExitCode.USAGE)


def _stop_writing_stdout() -> None:
    """Point standard output at the null device: what is still buffered for a reader that went away must not
    fail again when Python flushes it on exit."""
    _stop_writing(sys.stdout)


def _stop_writing(stream: object) -> None:
    """Point ``stream``'s file descriptor at the null device (nothing, where it has none)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())  # type: ignore[attr-defined]
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no file descriptor behind it (captured in a test)
        pass
