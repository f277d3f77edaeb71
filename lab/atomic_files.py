"""Replacing a file atomically: readers see the old file or the new one, never half of either.

The profile (lab.memory) and a sync's status file (lab.ingest) are both read by someone else
while they may be rewritten, so both are written here: a temporary file beside the target (so
the rename never crosses file systems) is flushed to disk and renamed over it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_text_atomically"]


def write_text_atomically(path: str | Path, text: str, *, mode: int | None = None) -> Path:
    """Replace ``path`` with ``text`` (UTF-8, ``\\n`` line ends) atomically; returns the path.

    The file is owner-only, as ``mkstemp`` creates it, unless ``mode`` says otherwise (0o644 for a
    file a monitor running as another user reads). The directory is fsynced too on POSIX, so the
    rename itself survives a power cut.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _fsync_directory(path.parent)
    return path


def _fsync_directory(directory: Path) -> None:
    # Makes the rename itself durable on POSIX; Windows cannot open directories, and does not need it.
    if os.name != "posix":
        return
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
