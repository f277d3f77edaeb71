"""How a command ends: its exit code, and the one-line failure that carries it."""

from __future__ import annotations

from enum import IntEnum

from lab.errors import LabError, escaped_controls

__all__ = ["ExitCode", "CommandFailure", "WaitTooLong", "one_line", "printable"]


class ExitCode(IntEnum):
    """How a command ended; scripts can tell the failures apart without reading the message."""

    OK = 0
    FAILED = 1  # Notion refused, the network failed, or ingest-folder --strict refused a file: nothing was written
    USAGE = 2  # an option is missing, malformed or out of range (argparse's own code)
    TOKEN = 3  # the token is missing or cannot be sent
    DATABASE = 4  # --db cannot hold an index (a folder, not SQLite, damaged, read-only, in memory)
    WAIT = 5  # the server asked to wait longer than --max-wait
    LISTEN = 6  # serve: the address cannot be bound
    GUARDRAIL = 7  # sync: a reconciliation would delete more than allowed and was refused (--force if intended)
    SKIPPED = 8  # some inputs were refused and skipped, each named on stderr; the others were done (search:
    #              questions on stdin; ingest-folder: files, whose chunks from an earlier run stay as they were)
    BUSY = 9  # index, sync, ingest-folder: another run on the same index did not end within --lock-wait; nothing was written
    REMOVED = 10  # sync --alert-on-removal: done, the index is up to date, and pages were removed from it: look
    #               (retired is legitimate, lost access looks the same; the ids are in --status-file)
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as shells report it)
    PIPE = 141  # the reader of the output went away (| head): the rest was not printed (128 + SIGPIPE)

class CommandFailure(LabError):
    """Ends a command: one line on stderr and an exit code."""

    def __init__(self, code: ExitCode, message: str, prefix: str = "error") -> None:
        super().__init__(message)
        self.code = code
        self.line = f"{prefix}: {one_line(message)}"  # one line, whatever the message held


def one_line(text: str) -> str:
    """``text`` as one printable line: each run of whitespace (line breaks included) one space, and any other
    control character written as an escape (``\\x1b``), so that a file name or a title in a message can neither
    break the line a script reads nor send the terminal an escape sequence."""
    return escaped_controls(" ".join(text.split()))


def printable(text: str) -> str:
    """``text`` with its lines kept and every other control character written as an escape (``\\x1b``): an
    answer quotes pages anyone who may edit the workspace wrote, and prints them on the operator's terminal."""
    return escaped_controls(text, keep="\t\n")


class WaitTooLong(LabError):
    """The server asked for a longer wait than ``--max-wait`` allows."""
