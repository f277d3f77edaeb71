"""One process at a time: an exclusive lock, across processes, around a read-modify-write of a shared file.

Replacing a file atomically (:mod:`lab.atomic_files`) keeps a reader from seeing half of it, but
two processes that each read the file, change it and write it back still lose one change: the
second write replaces a file that no longer holds what the second process read. Each such
update runs under this lock. The lock is taken on a small file beside the one it guards
(``.memory.json.lock`` for ``memory.json``): the guarded file is replaced by every write, and a
lock on it would guard a file that is no longer there. The lock file is left in place; it is
empty, and deleting it while another process waits would let two processes in at once.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from lab.errors import LabError

if os.name == "posix":
    import fcntl
else:  # pragma: no cover - Windows
    import msvcrt

__all__ = ["FileLockError", "LOCK_TIMEOUT_S", "lock_path_for", "exclusive_lock"]

#: How long an update waits for another process's update to end before it gives up.
LOCK_TIMEOUT_S = 30.0


class FileLockError(LabError, OSError):
    """The lock beside a shared file cannot be created or was held by another process for too long."""


def lock_path_for(path: str | os.PathLike[str]) -> Path:
    """The lock file that guards ``path``: a hidden file beside it, ``.name.lock``."""
    path = Path(path)
    return path.with_name(f".{path.name}.lock")


@contextmanager
def exclusive_lock(path: str | os.PathLike[str], timeout: float = LOCK_TIMEOUT_S,
                   on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the lock that guards ``path`` for the block (other processes wait up to ``timeout`` seconds;
    ``on_wait`` is called once if this one has to wait)."""
    lock = lock_path_for(path)
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as error:
        raise FileLockError(f"cannot create the lock file {lock} ({error.strerror or error}); "
                            f"{_lock_fix(lock, error)}") from None
    try:
        _acquire(descriptor, lock, timeout, on_wait)
        try:
            yield
        finally:
            _release(descriptor)
    finally:
        os.close(descriptor)


def _lock_fix(lock: Path, error: OSError) -> str:
    """What to do about a lock file that cannot be created, from why."""
    if isinstance(error, IsADirectoryError):
        return "a folder has that name: move it away (the lock is an empty file), or choose another path"
    if isinstance(error, (NotADirectoryError, FileExistsError)):
        return "a part of its path is a file, not a folder: choose another path"
    return "make its folder writable, or choose another path"


def _acquire(descriptor: int, lock: Path, timeout: float, on_wait: Callable[[], None] | None = None) -> None:
    deadline, pause = time.monotonic() + timeout, 0.001
    while True:
        try:
            if os.name == "posix":
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            else:  # pragma: no cover - Windows locks a byte range instead
                msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
            return
        except (BlockingIOError, PermissionError):  # held by another process (Windows says PermissionError)
            if on_wait is not None:
                on_wait()
                on_wait = None
            if time.monotonic() > deadline:
                raise FileLockError(f"another process has held {lock} for more than {timeout:g} s (a process that "
                                    "ends releases it, even if it crashed): wait for that update to end") from None
            time.sleep(pause)
            pause = min(pause * 2, 0.05)


def _release(descriptor: int) -> None:
    if os.name == "posix":
        fcntl.flock(descriptor, fcntl.LOCK_UN)
    else:  # pragma: no cover - Windows
        os.lseek(descriptor, 0, os.SEEK_SET)
        msvcrt.locking(descriptor, msvcrt.LK_UNLCK, 1)
