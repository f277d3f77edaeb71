"""Replacing a file atomically: readers see the old file or the new one, never half of either.

The profile (lab.memory) and a sync's status file (lab.ingest) are both read by someone else
while they may be rewritten, so both are written here: a temporary file beside the target (so
the rename never crosses file systems) is flushed to disk and renamed over it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from lab.errors import LabError

__all__ = ["FileWriteError", "write_text_atomically"]


class FileWriteError(LabError, OSError):
    """A file could not be replaced (a full disk, a read-only folder); the previous file is unchanged.

    ``errno`` and ``strerror`` are the system's; the message names the file and the fix.
    """

    def __str__(self) -> str:  # the message, not OSError's "[Errno 28] ..." form
        return str(self.args[0]) if self.args else super().__str__()


def write_text_atomically(path: str | Path, text: str, *, mode: int | None = None) -> Path:
    """Replace ``path`` with ``text`` (UTF-8, ``\\n`` line ends) atomically; returns the path.

    The file is owner-only, as ``mkstemp`` creates it, unless ``mode`` says otherwise (0o644 for a
    file a monitor running as another user reads). The directory is fsynced too on POSIX, so the
    rename itself survives a power cut. A write that fails (a full disk, say) removes its
    temporary file and raises :class:`FileWriteError`, the previous file unchanged.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise _write_error(path, error) from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise _write_error(path, error) from None
        raise
    _fsync_directory(path.parent)
    return path


def _write_error(path: Path, error: OSError) -> FileWriteError:
    """The error that names the file, what the system said (a full disk, no permission) and the fix."""
    failure = FileWriteError(f"{path} could not be written ({error.strerror or error}): free some space or make "
                             "its folder writable, or choose another path; the previous file is unchanged")
    failure.errno, failure.strerror = error.errno, error.strerror
    return failure


def _fsync_directory(directory: Path) -> None:
    # Makes the rename itself durable on POSIX; Windows cannot open directories, and does not need it.
    if os.name != "posix":
        return
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
