"""Where a memory-tool path may point: inside one folder, never through a link, never at a hidden file.

The model names files as ``/memories/notes/exam.md``; the application maps that name onto a
real folder. A name is a request written by a model that may have read anything (a web page,
a document planted for it), so it is checked as untrusted input before any file is touched:

- it starts with ``/memories`` and its parts are plain names: no ``..`` or ``.``, no empty part
  (``//``), no backslash, no control character, no ``%`` (a URL-encoded ``..`` is still ``..``
  to some layer), no name that starts with ``.`` (the tool's own lock and temporary files);
- no part of the path as it exists on disk is a symbolic link, so a link planted in the folder
  cannot lead a write outside it.
"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

from lab.errors import LabError

__all__ = ["MEMORY_ROOT", "MAX_PATH_CHARS", "MemoryToolError", "memory_parts", "resolve_memory_path"]

#: The folder the model sees; every path it sends starts here.
MEMORY_ROOT = "/memories"
#: Longest path accepted, in characters (the model's path, not the one on disk).
MAX_PATH_CHARS = 200


class MemoryToolError(LabError, ValueError):
    """A memory command was refused or failed; the message is what the model is told, and names the fix."""


def memory_parts(path: object) -> tuple[str, ...]:
    """The names below ``/memories`` in ``path`` (``()`` for the folder itself), or a refusal that says why."""
    if not isinstance(path, str):
        raise MemoryToolError(f"a memory path must be a string such as {MEMORY_ROOT}/notes.md, got {type(path).__name__}")
    if len(path) > MAX_PATH_CHARS:
        raise MemoryToolError(f"the path is {len(path)} characters long; at most {MAX_PATH_CHARS} are accepted")
    if path != MEMORY_ROOT and not path.startswith(MEMORY_ROOT + "/"):
        raise MemoryToolError(f"the path {path!r} is outside the memory folder: every path must start with {MEMORY_ROOT}/")
    relative = path[len(MEMORY_ROOT) + 1:]
    if relative.endswith("/"):
        relative = relative[:-1]
    if not relative:
        return ()
    for character in relative:
        if character in "\\%" or unicodedata.category(character).startswith("C"):
            raise MemoryToolError(f"the path {path!r} contains {character!r}, which memory paths may not contain "
                                  "(backslashes, percent signs and control characters are refused)")
    parts = tuple(relative.split("/"))
    for part in parts:
        if part in ("", ".", ".."):
            raise MemoryToolError(f"the path {path!r} has an empty, '.' or '..' part; name each folder plainly, "
                                  f"as in {MEMORY_ROOT}/notes/exam.md")
        if part.startswith("."):
            raise MemoryToolError(f"the path {path!r} names a hidden file ({part!r}); memory names may not start with '.'")
    return parts


def resolve_memory_path(root: Path, path: object) -> Path:
    """The file or folder on disk that ``path`` names under ``root``, after checking that no part is a link.

    ``root`` is the real folder (already resolved); the check walks each existing part of the
    path with ``lstat``, so a symbolic link anywhere on the way is refused, wherever it points.
    """
    target = root
    for part in memory_parts(path):
        target = target / part
        if os.path.islink(target):
            raise MemoryToolError(f"{_shown(root, target)} is a symbolic link; the memory tool does not follow links")
    return target


def _shown(root: Path, target: Path) -> str:
    """How the model named ``target``: ``/memories/...``."""
    relative = target.relative_to(root).as_posix()
    return MEMORY_ROOT if relative == "." else f"{MEMORY_ROOT}/{relative}"
