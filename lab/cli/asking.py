"""``search`` and ``ask``: questions to an index, answered with the recipe it serves.

``search`` prints each question's ranked sections (title > section, url, score), or one JSON
object per question with ``--json``; with no question, or ``-``, it reads one question per line
from standard input and answers each in the same process (the index is read and its search
loaded once). ``ask`` answers one question from the sources it cites, or says that it abstains
and why; an allergy question it never answers: it goes to a person with its sources.

Both take ``--audience NAME``: only the pages the index stores for that audience are searched,
filtered before ranking. Without it every page is searched (the owner's view,
:mod:`lab.retrieval.corpus`); on an index whose pages carry audiences a note on stderr says so.

Both also take ``--doc-version VERSION``, ``--edited-from DATE`` and ``--edited-until DATE``
(:class:`~lab.retrieval.filters.ChunkFilter`): only the chunks of that version of the documentation,
or last edited between those days (``YYYY-MM-DD``, both included), are searched, filtered before
ranking too; a chunk without a version or a date is left out by the filter on it. The version
option is not ``--version``, which prints the lab's own version. A malformed date, or a version no
chunk has, is one line on stderr and exit code 2, before any question is answered.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from lab.cli.exits import CommandFailure, ExitCode, one_line, printable
from lab.cli.index_file import database_problem, open_existing_index, rebuild_hint
from lab.cli.options import in_range, not_blank

if TYPE_CHECKING:
    from lab.index import IndexStore
    from lab.retrieval import ChunkFilter, IndexSearcher

__all__ = ["add_asking_parsers", "search_command", "ask_command"]

_K = in_range(int, 1, 1_000)
_SHARE = in_range(float, 0.0, 1.0)


def _searcher(store: "IndexStore") -> "IndexSearcher":
    """The index's search, or a one-line refusal naming the command that builds a searchable index."""
    from lab.index import ModelMismatchError, StoreError
    from lab.retrieval import IndexSearcher

    try:
        return IndexSearcher(store)
    except (StoreError, ModelMismatchError) as exc:
        raise CommandFailure(ExitCode.DATABASE, str(exc)) from None


def _note_unfiltered(store: "IndexStore", audience: str | None) -> None:
    """Say on stderr that a search without ``--audience`` sees every audience's pages, if the index has any."""
    audiences = sorted(set(store.audiences().values()))
    if audience is None and audiences:
        print(f"note: no --audience: searching the pages of every audience ({', '.join(audiences)}); an agent "
              "that serves one audience passes --audience NAME", file=sys.stderr)


def _date(text: str) -> str:
    """An argparse type: a date written ``YYYY-MM-DD`` (the check :class:`~lab.retrieval.ChunkFilter` makes)."""
    from lab.retrieval.filters import InvalidDateError, parse_date

    try:
        return parse_date(text, "the date")
    except InvalidDateError:
        raise argparse.ArgumentTypeError(f"expected a date written YYYY-MM-DD (such as 2026-03-01), got "
                                         f"{ascii(text)}") from None


def _where(args: argparse.Namespace) -> "ChunkFilter | None":
    """The filter the options ask for (``None`` without any); an empty window of dates is one line, exit code 2."""
    from lab.retrieval import ChunkFilter, InvalidDateError

    if args.doc_version is None and args.edited_from is None and args.edited_until is None:
        return None
    try:
        return ChunkFilter(version=args.doc_version, edited_from=args.edited_from, edited_until=args.edited_until)
    except InvalidDateError as exc:
        raise CommandFailure(ExitCode.USAGE, str(exc).replace("edited_", "--edited-")) from None


def _filtered_searcher(store: "IndexStore", audience: str | None, where: "ChunkFilter | None") -> "IndexSearcher":
    """The index's search, once the audience and filters asked for are known to the index; a note on stderr
    when a search without ``--audience`` will see every audience's pages."""
    searcher = _searcher(store)
    _check_filters(searcher, audience, where)
    _note_unfiltered(store, audience)
    return searcher


def _check_filters(searcher: "IndexSearcher", audience: str | None, where: "ChunkFilter | None") -> None:
    """Refuse an audience or version no chunk of the index has in one line (exit code 2), before the first
    question: each question on standard input would otherwise be refused and skipped in turn."""
    from lab.retrieval import UnknownAudienceError, UnknownVersionError

    try:
        searcher.corpus_.visible(audience, where)
    except (UnknownVersionError, UnknownAudienceError) as exc:
        raise CommandFailure(ExitCode.USAGE, str(exc).replace("this corpus", "the index")) from None


def _questions(given: Sequence[str]) -> Iterator[tuple[int, str | None]]:
    """Each question with its line number (0 on the command line): the question on the command line, or one per
    non-blank line of standard input (none, or ``-``); a line that is not UTF-8 comes as None, to be skipped."""
    if given and list(given) != ["-"]:
        question = " ".join(given).strip()
        if not question:  # the search would rank every section for nothing, or the model refuse an empty text
            raise CommandFailure(ExitCode.USAGE, "search needs a question, e.g. python -m lab search --db kb.sqlite "
                                                 "'¿Abren el 1 de mayo?' (or - to read one per line from standard "
                                                 "input)")
        yield 0, question
        return
    text_only = getattr(sys.stdin, "buffer", None) is None  # a text stream without bytes (in a notebook, a test)
    lines = (line.encode("utf-8", "surrogatepass") for line in sys.stdin) if text_only else sys.stdin.buffer
    for number, raw in enumerate(lines, 1):
        try:
            line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError:
            yield number, None
            continue
        if line.strip():
            yield number, line.strip()


def _refusal(exc: BaseException) -> str:
    """Why the search refused a question, in one line: a question past the model's input limit is named as
    such (the embedder's own message speaks of chunks and texts, which the person asking never gave)."""
    from lab.chunking import InputTooLongError

    if isinstance(exc, InputTooLongError) and exc.report.over:
        return (f"the question is {exc.report.over[0][1]:,} tokens long, more than the {exc.report.max_tokens:,} "
                "the index's model reads: shorten it")
    return " ".join(str(exc).split())


def _skip(number: int, why: str) -> None:
    """Say on stderr that line ``number`` of standard input was skipped, and why; the batch goes on."""
    print(f"skipped: line {number} of standard input {why}", file=sys.stderr, flush=True)


def search_command(args: argparse.Namespace) -> int:
    """Print the ``-k`` best sections of each question, as text or as one JSON object per question; with
    ``--check``, only say whether the index is sound."""
    from lab.errors import LabError
    from lab.index import database_errors

    if args.check:
        return _check_command(args)
    skipped = 0
    where = _where(args)
    with open_existing_index(args.db) as store:
        try:
            searcher = _filtered_searcher(store, args.audience, where)
        except database_errors() as exc:
            raise CommandFailure(ExitCode.DATABASE, database_problem(args.db, exc)) from None
        for number, question in _questions(args.question):
            if question is None:
                skipped += 1
                _skip(number, "is not UTF-8 text")
                continue
            try:
                hits = searcher.search(question, k=args.k, audience=args.audience, where=where)
            except database_errors() as exc:
                raise CommandFailure(ExitCode.DATABASE, database_problem(args.db, exc)) from None
            except (LabError, ValueError) as exc:
                if not number:
                    raise CommandFailure(ExitCode.USAGE, _refusal(exc)) from None
                skipped += 1
                _skip(number, f"was refused ({_refusal(exc)})")
                continue
            if args.json:
                print(json.dumps({"question": question, "hits": [
                    {"page_id": h.page_id, "title": h.title, "section": h.section, "url": h.url,
                     "edited": h.edited, "version": h.version, "score": round(h.score, 6), "chunk_id": h.id}
                    for h in hits]},
                    ensure_ascii=False), flush=True)
                continue
            print(one_line(question))  # a title or a question from others cannot drive the terminal
            for rank, hit in enumerate(hits, 1):
                version = f"  (version {one_line(hit.version)})" if hit.version else ""
                print(f"  {rank:2d}. {one_line(hit.label)}  ({hit.score:.4f})\n      {one_line(hit.url or '(no url)')}"
                      f"{version}")
            print(flush=True)
    return ExitCode.SKIPPED if skipped else ExitCode.OK


def _check_command(args: argparse.Namespace) -> int:
    """``search --check``: read the whole index file and say whether it is sound, without searching."""
    from lab.index import database_errors

    if args.question:
        raise CommandFailure(ExitCode.USAGE, "search --check verifies the index and answers no question; leave the "
                                             "question out")
    with open_existing_index(args.db) as store:
        try:
            problems = store.integrity_problems()
            chunks = store.count_chunks()
        except database_errors() as exc:
            raise CommandFailure(ExitCode.DATABASE, database_problem(args.db, exc)) from None
    if problems:
        raise CommandFailure(ExitCode.DATABASE, rebuild_hint(
            f"--db {args.db} is damaged ({problems[0]}); move it aside or delete it, then build the index again",
            args.db, True))
    print(f"ok: {args.db} is a sound index ({chunks} chunks)")
    return ExitCode.OK


def ask_command(args: argparse.Namespace) -> int:
    """Print the cited answer to one question and its sources, or the abstention and why."""
    from lab.answering import ALLERGY_RULE, Answerer
    from lab.chunking import InputTooLongError
    from lab.index import database_errors

    question = " ".join(args.question).strip()
    if not question:
        raise CommandFailure(ExitCode.USAGE, "ask needs a question, e.g. python -m lab ask --db kb.sqlite "
                                             "'¿Abren el 1 de mayo?'")
    where = _where(args)
    with open_existing_index(args.db) as store:
        try:
            searcher = _filtered_searcher(store, args.audience, where)
            answerer = Answerer(searcher, k=args.k, threshold=args.threshold, escalate=(ALLERGY_RULE,),
                                audience=args.audience, where=where).fit()
            answer = answerer.answer(question)
        except database_errors() as exc:
            raise CommandFailure(ExitCode.DATABASE, database_problem(args.db, exc)) from None
        except InputTooLongError as exc:
            raise CommandFailure(ExitCode.USAGE, _refusal(exc)) from None
    print(printable(answer.text))  # sentences quoted from the pages
    if answer.escalated:
        print(f"\n(escalated: {answer.escalated} always go to a person; these sources go with the question)")
    elif answer.abstained:
        print(f"\n(abstained: the best sentence of the sources covers {answer.confidence:.0%} of the question, "
              f"below the threshold {args.threshold:g}; these were the closest sources)")
    print("\nsources (* cited):")
    for source in answer.sources:
        print(f" {'*' if source.number in answer.cited else ' '}{one_line(source.label())}")
    for flag in answer.flags:
        print(f"\nleft out of the answer, source [{flag.number}] reads like an instruction: {flag.sentence!r}")
    return ExitCode.OK


#: lab.answering's ANSWER_THRESHOLD, calibrated in lesson 11, named here so that parsing the command line does
#: not import the answering (a test holds the two equal)
ANSWER_THRESHOLD = 0.506


def _add_filter_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--audience``, ``--doc-version``, ``--edited-from`` and ``--edited-until``: which chunks ``what`` draws on."""
    parser.add_argument("--audience", type=not_blank, default=None, metavar="NAME",
                        help=f"{what} only the pages the index stores for this audience (default: every page)")
    parser.add_argument("--doc-version", type=not_blank, default=None, metavar="VERSION",
                        help=f"{what} only the chunks of this version of the documentation, e.g. 3.2 (default: every "
                             "version; a chunk without one is left out by this filter)")
    parser.add_argument("--edited-from", type=_date, default=None, metavar="DATE",
                        help=f"{what} only the chunks last edited on or after this day, YYYY-MM-DD (a chunk without "
                             "a date is left out by this filter)")
    parser.add_argument("--edited-until", type=_date, default=None, metavar="DATE",
                        help=f"{what} only the chunks last edited on or before this day, YYYY-MM-DD (a chunk without "
                             "a date is left out by this filter)")


def add_asking_parsers(sub: argparse._SubParsersAction) -> None:
    search = sub.add_parser("search", help="rank an index's sections for questions (one per line on stdin too)")
    search.add_argument("--db", required=True, help="SQLite file of the index")
    search.add_argument("-k", type=_K, default=8, help="sections per question (default 8)")
    search.add_argument("--json", action="store_true", help="one JSON object per question")
    _add_filter_options(search, "search")
    search.add_argument("--check", action="store_true",
                        help="verify the index file, every page of it, without searching: 'ok' and exit code 0, or "
                             "one line saying what is damaged and the command that rebuilds it (exit code 4)")
    search.add_argument("question", nargs="*", help="the question; none or - reads one per line from stdin (a line "
                                                    "that is not text or is refused is skipped, named on stderr, and "
                                                    "the search ends with exit code 8)")
    search.set_defaults(func=search_command)
    ask = sub.add_parser("ask", help="answer a question from an index with cited sources, or abstain")
    ask.add_argument("--db", required=True, help="SQLite file of the index")
    ask.add_argument("-k", type=_K, default=5, help="sources the answer may cite (default 5)")
    ask.add_argument("--threshold", type=_SHARE, default=ANSWER_THRESHOLD,
                     help=f"the lowest confidence still answered (default {ANSWER_THRESHOLD:g}, calibrated in "
                          "lesson 11)")
    _add_filter_options(ask, "answer from")
    ask.add_argument("question", nargs="+", help="the question")
    ask.set_defaults(func=ask_command)
