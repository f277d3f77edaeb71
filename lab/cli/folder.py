"""``ingest-folder``: a folder of documents (markdown, PDF, Word, HTML) into the index a knowledge base
lives in, so that ``search`` and ``ask`` find them beside its pages.

The files go into the same index as the Notion pages, under a source name of their own (``--source``,
``docs`` by default): their chunks are searched with the recipe the index records, like any other, and
a hit names the file's title (a page's url only where a markdown file declares one). They are embedded with multilingual-e5-small, the one dense model the command
line runs (the model ``index`` embeds with): an index that serves, or holds the vectors of, another
model is refused before anything is read (exit code 4), since vectors of two models cannot be ranked
together. On an index searched with the lexical recipe the files are found by their words; their e5
vectors are kept, unused by that recipe.

A file the run refuses (not text, too large, a document past a converter's limit: a Word file unpacking
to more than 64 MiB, HTML nested more than 100 elements deep, a PDF converting for more than 60 s, a
cut or encrypted PDF, a file giving a chunk longer than the 512 tokens e5 reads) is skipped and named on
stderr, the others are ingested, and the command ends with exit code 8; a skipped file's chunks from an
earlier run stay as they were. ``--strict`` keeps
the run all or nothing: the first refused file ends it (exit code 1) and nothing is written. A run
that would delete more than half of the source's chunks (a wrong path, a partial checkout) is refused
with exit code 7, unless ``--force``. ``index`` rebuilds an index from Notion alone: it deletes the
files' chunks, and the next ``ingest-folder`` adds them again.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lab.cli.exits import CommandFailure, ExitCode, one_line
from lab.cli.index_file import database_problem, index_file_exists, open_index
from lab.cli.indexer import one_run_at_a_time
from lab.cli.options import SECONDS, interruptible, not_blank

if TYPE_CHECKING:
    from lab.index import IndexStore
    from lab.ingest.files import IngestReport

__all__ = ["add_folder_parser", "folder_command", "DEFAULT_SOURCE"]

#: The source name a folder's files are kept under in the index (``ingest_folder``'s default).
DEFAULT_SOURCE = "docs"

_RUNS = "index, sync or ingest-folder"  # the runs that take turns on one index file


def folder_command(args: argparse.Namespace) -> int:
    """Ingest the folder ``args.folder`` into ``args.db``; print what the run did and return its exit code
    (8 when some files were skipped, each named on stderr)."""
    interruptible()
    folder = Path(args.folder)
    if not folder.is_dir():  # before the index is opened: a mistyped path creates no index
        raise CommandFailure(ExitCode.USAGE, f"{args.folder} is not a folder: give the folder of documents to "
                                             "ingest (nothing was read or written)")
    index_file_exists(args.db)  # a folder, or a path it may not look into, is refused before the lock
    with one_run_at_a_time(args.db, args.lock_wait, _RUNS, on_stderr=True):
        report = _locked_run(args, folder)
    code = ExitCode.SKIPPED if report.files_skipped else ExitCode.OK
    from lab.ingest.folder_reading import shown_path  # here: a run refused on its arguments imports no ingestion

    for path, why in report.files_skipped:
        named = why.startswith((path, shown_path(path)))  # most reasons start with the file's name
        print(one_line(f"skipped: {why if named else f'{shown_path(path)}: {why}'}"), file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(report_json(report, args, code), ensure_ascii=False), flush=True)
    else:
        _print_summary(report, args)
    return code


def report_json(report: "IngestReport", args: argparse.Namespace, code: ExitCode) -> dict[str, Any]:
    """What ``--json`` prints: the run's counts, each skipped file with its reason, the links not followed,
    and the exit code, so that a script reads one object."""
    return {"folder": str(args.folder), "db": args.db, "source": args.source, **report.as_row(),
            "files_skipped": [{"path": path, "reason": why} for path, why in report.files_skipped],
            "links_skipped": list(report.links_skipped), "exit_code": int(code)}


def _print_summary(report: "IngestReport", args: argparse.Namespace) -> None:
    print(f"done: {report.files_read} files read, {report.files_cut} cut, {len(report.files_skipped)} skipped, "
          f"{report.files_removed} removed; chunks new {report.chunks_new}, changed {report.chunks_changed}, "
          f"unchanged {report.chunks_unchanged}, deleted {report.chunks_deleted}; {report.chunks_total} chunks of "
          f"{args.source!r} in {args.db}")
    print(f"  {report.texts_embedded} texts embedded with {report.model} in {report.batches} calls")
    if report.links_skipped:
        first = one_line(report.links_skipped[0])
        print(f"  not followed: {len(report.links_skipped)} symbolic links (first: {first})")
    if report.files_skipped:
        print(f"  {len(report.files_skipped)} files skipped, named on stderr; the others were ingested (exit code "
              f"{int(ExitCode.SKIPPED)}); --strict refuses the whole run instead")


def _locked_run(args: argparse.Namespace, folder: Path) -> "IngestReport":
    """The run, once this process holds the index's run lock; a first index that fails leaves no file."""
    created = not index_file_exists(args.db)
    store = open_index(args.db)
    finished = False
    try:
        report = _ingest(args, folder, store)
        finished = True
        return report
    finally:
        store.close()
        if created and not finished:
            Path(args.db).unlink(missing_ok=True)


def _ingest(args: argparse.Namespace, folder: Path, store: "IndexStore") -> "IngestReport":
    """``ingest_folder`` with multilingual-e5-small and every document type, each failure one line with its code."""
    from lab.chunking.conversion import DocumentConversionError
    from lab.embedders import E5_MODEL, e5_embedder
    from lab.errors import LabError
    from lab.index import ModelMismatchError, StoreError, database_errors, require_dense_model
    from lab.ingest import FileChunkers, GuardrailError, ingest_folder
    from lab.ingest.files import FileChunksTooLongError
    from lab.ingest.folder_reading import (FileNameError, FileNotReadableError, FileNotTextError,
                                           FileTooLargeError, FolderNotFoundError, refusal_reason)

    unchanged = f"{args.db} is unchanged"
    try:
        require_dense_model(store, E5_MODEL)  # vectors of another model: refused before the folder is read
        embedder = e5_embedder()
        if hasattr(embedder, "load"):  # the model loads at the first text its kept vectors lack
            embedder.load = _announced(embedder.load, embedder.name)
        print(f"ingest-folder of {args.folder} into {args.db} as source {args.source!r}"
              f"{' (strict)' if args.strict else ''}", file=sys.stderr, flush=True)
        return ingest_folder(store, folder, embedder, source=args.source, chunkers=FileChunkers.with_documents(),
                             force=args.force, strict=args.strict, skip_oversized=True)
    except KeyboardInterrupt:
        raise CommandFailure(ExitCode.INTERRUPTED, unchanged, prefix="interrupted") from None
    except database_errors() as exc:
        raise CommandFailure(ExitCode.DATABASE, f"{database_problem(args.db, exc)}; the index is unchanged") from None
    except GuardrailError as exc:
        raise CommandFailure(ExitCode.GUARDRAIL, f"{exc} (on the command line: --force); {unchanged}",
                             prefix="refused") from None
    except (ModelMismatchError, StoreError) as exc:  # another model serves, a switch is prepared, ...
        raise CommandFailure(ExitCode.DATABASE, f"{exc}; {unchanged}") from None
    except FolderNotFoundError as exc:  # the folder went between the check and the run
        raise CommandFailure(ExitCode.USAGE, str(exc)) from None
    except (FileNotTextError, FileTooLargeError, FileNameError, FileNotReadableError,
            DocumentConversionError, FileChunksTooLongError) as exc:
        # with --strict, the first refused file (or a folder it cannot list)
        raise CommandFailure(ExitCode.FAILED, f"{refusal_reason(exc).rstrip('.')}; nothing was written ({unchanged})",
                             prefix="refused") from None
    except (LabError, LookupError, ValueError) as exc:  # colliding ids, ...
        raise CommandFailure(ExitCode.FAILED, f"{exc} ({unchanged})") from None


def _announced(load, name: str):
    """``load``, saying on stderr before it runs that the model now embeds what the lab has not embedded before."""
    def announce():
        print(f"  embedding new and changed chunks with {name} (about a tenth of a second a chunk on one core)",
              file=sys.stderr, flush=True)
        return load()
    return announce


def add_folder_parser(sub: argparse._SubParsersAction) -> None:
    folder = sub.add_parser(
        "ingest-folder", help="ingest a folder of documents (markdown, PDF, Word, HTML) into an index",
        description="Ingest the documents under FOLDER (.md, .pdf, .docx, .html, .htm) into the index, beside its "
                    "Notion pages: search and ask find them with the recipe the index records. They are embedded "
                    "with multilingual-e5-small, the model index embeds with; an index that serves another model "
                    "is refused (exit code 4). Only new and changed files are cut and embedded again, and the "
                    "chunks of a file that left the folder are deleted. A file the run refuses (not text, too "
                    "large, past a converter's limit, a cut PDF) is skipped and named on stderr, the others are "
                    "ingested, and the command ends with exit code 8. index rebuilds an index from Notion alone: "
                    "run ingest-folder again after it.")
    folder.add_argument("folder", metavar="FOLDER", help="the folder of documents (symbolic links are not followed)")
    folder.add_argument("--db", required=True, help="SQLite file of the index (created if missing), or a "
                                                    "postgresql:// URL")
    folder.add_argument("--source", type=not_blank, default=DEFAULT_SOURCE, metavar="NAME",
                        help=f"the name the folder's files are kept under in the index (default {DEFAULT_SOURCE}); "
                             "another folder goes under another name")
    folder.add_argument("--strict", action="store_true",
                        help="all or nothing: a refused file ends the run with exit code 1 and nothing is written")
    folder.add_argument("--force", action="store_true",
                        help="allow a run that deletes more than half of the source's chunks (the files really went)")
    folder.add_argument("--json", action="store_true", help="print the run's report as one JSON object")
    folder.add_argument("--lock-wait", type=SECONDS, default=900.0, metavar="SECONDS",
                        help="wait this long for another index, sync or ingest-folder of the same --db to end before "
                             "giving up with exit code 9 (default 900)")
    folder.set_defaults(func=folder_command)
