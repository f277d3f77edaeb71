"""What an ingestion run over a folder reads: which files, and their bytes as text, checked as read.

The run reads the regular files under the folder whose suffix has a chunker, and nothing else:

- **Symbolic links are not followed**, to a file or to a folder, inside the folder or out of it.
  A link inside the folder points at a file the run already reads under its own path; a link out
  of it would put into the index (and into answers citing it) a file nobody put in the folder,
  and could loop. Each link found is listed in the run's report (``links_skipped``), not read.
- A folder the run cannot list stops the run: its files would otherwise read as deleted.
- A file name that is not UTF-8 is refused (a path in the index, an id and a citation are
  text), as is a file larger than :data:`MAX_FILE_BYTES`, one that cannot be read, and one that
  is not text: bytes that are not UTF-8, a NUL byte (a binary file, or UTF-16 text), or more than
  one control character in a hundred (a single one is let through).

Each refusal is an error that names the file and the fix. A strict run raises it before anything
is embedded or written; otherwise the file is skipped and listed with the reason
(:attr:`FolderFiles.refused`), so that one bad file does not keep every other from the index.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from lab.errors import LabError, escaped_controls

__all__ = ["MAX_FILE_BYTES", "FolderNotFoundError", "FileNotReadableError", "FileNotTextError", "FileNameError",
           "FileTooLargeError", "FolderFiles", "read_folder", "file_text", "refusal_reason", "shown_path"]

#: Larger than any page of documentation; a larger file is a dump or a build output, not a page to cut.
MAX_FILE_BYTES = 16 * 2**20
#: Control characters (other than tab, line and page breaks) that plain text holds at most one of per hundred.
_CONTROL_SHARE = 0.01
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")
_NOTHING_WRITTEN = "Nothing was embedded or written."


class FolderNotFoundError(LabError, FileNotFoundError):
    """The folder to ingest does not exist (or is not a folder)."""


class FileNotReadableError(LabError, OSError):
    """A file or folder the run would read cannot be (its permissions, or it vanished while the run listed it)."""


class FileNotTextError(LabError, ValueError):
    """A file the run would cut is not UTF-8 text (a binary file, or text saved in another encoding)."""


class FileNameError(LabError, ValueError):
    """A file the run would cut has a name (or a folder on its path) that is not UTF-8."""


class FileTooLargeError(LabError, ValueError):
    """A file the run would cut is larger than :data:`MAX_FILE_BYTES`."""


class _Suffixes(Protocol):
    def chunker(self, path: str) -> object | None: ...


@dataclass(frozen=True)
class FolderFiles:
    """A folder as a run reads it: each file's relative path and bytes, and the links it did not follow."""

    files: dict[str, bytes]
    links_skipped: tuple[str, ...]
    refused: dict[str, str] = field(default_factory=dict)  # relative path -> why it was skipped (not strict)


def read_folder(root: Path, chunkers: _Suffixes, *, strict: bool = True) -> FolderFiles:
    """The bytes of every regular file under ``root`` that ``chunkers`` claims, by relative path in order,
    and the symbolic links found (not followed). ``strict``: a refused file raises; else it is skipped and
    listed in ``refused`` with the reason."""
    if not root.is_dir():  # an empty listing would read as "every file was deleted"
        raise FolderNotFoundError(f"{root} is not a folder: check the path (nothing was read or written)")
    refused: dict[str, str] = {}
    paths, links = _list(root, chunkers, None if strict else refused)
    files = {}
    for path in paths:
        try:
            files[path] = _read_bytes(root, path)
        except (FileNotReadableError, FileTooLargeError) as error:
            if strict:
                raise
            refused[path] = refusal_reason(error)
    return FolderFiles(files=files, links_skipped=tuple(links), refused=dict(sorted(refused.items())))


def refusal_reason(error: BaseException) -> str:
    """A refusal's message without the sentence a strict run adds (a skipping run writes the other files)."""
    return str(error).replace(f" {_NOTHING_WRITTEN}", "")


def _list(root: Path, chunkers: _Suffixes, refused: dict[str, str] | None) -> tuple[list[str], list[str]]:
    """Relative paths of the files to read and of the links skipped, each sorted; folders are walked
    without recursion, so no depth of nesting can exhaust the stack."""
    files, links, pending = [], [], [root]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError as error:
            where = shown_path(folder.relative_to(root).as_posix() if folder != root else str(root))
            raise FileNotReadableError(
                f"the folder {where} cannot be listed ({error.strerror or error}): "
                f"give the run read access to it or move it out of the folder (its files would read as deleted). "
                f"{_NOTHING_WRITTEN}") from None
        for entry in entries:
            path = Path(entry.path)
            relative = path.relative_to(root).as_posix()
            try:
                if entry.is_symlink():
                    links.append(relative)
                elif entry.is_dir(follow_symlinks=False):
                    pending.append(path)
                elif entry.is_file(follow_symlinks=False) and chunkers.chunker(entry.name):
                    _check_name(relative)
                    files.append(relative)
            except FileNameError as error:
                if refused is None:
                    raise
                refused[shown_path(relative)] = refusal_reason(error)
            except OSError as error:  # it vanished, or cannot be looked at, since the folder was listed
                problem = FileNotReadableError(f"{shown_path(relative)} cannot be read ({error.strerror or error}): "
                                               f"give the run read access to it or move it out of the folder. "
                                               f"{_NOTHING_WRITTEN}")
                if refused is None:
                    raise problem from None
                refused[shown_path(relative)] = refusal_reason(problem)
    return sorted(files), sorted(links)


def _check_name(relative: str) -> None:
    try:
        relative.encode("utf-8")
    except UnicodeEncodeError:  # os.scandir keeps undecodable bytes as lone surrogates
        raise FileNameError(
            f"{shown_path(relative)} has a name that is not UTF-8 (shown with \\x escapes): rename it (or the folder "
            f"holding it) in UTF-8, as its path becomes text in the index, in chunk ids and in citations. "
            f"{_NOTHING_WRITTEN}") from None


def shown_path(path: str) -> str:
    """A path fit for a message: bytes that are not UTF-8 shown as ``\\xe9`` escapes, and control characters
    (a line break, an escape sequence in a file name) as ``\\n`` or ``\\x1b``, so that the name can neither cut
    the message's line nor drive the terminal it is printed on."""
    text = os.fsencode(path).decode("utf-8", "backslashreplace")
    return escaped_controls(text)


def _read_bytes(root: Path, relative: str) -> bytes:
    """A file's bytes, opened without following a link (one swapped in since the listing is refused too)."""
    try:
        descriptor = os.open(root / relative, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(descriptor, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise FileNotReadableError(
            f"{shown_path(relative)} cannot be read ({error.strerror or type(error).__name__}): give the run read "
            f"access to it or move it out of the folder. {_NOTHING_WRITTEN}") from None
    if len(data) > MAX_FILE_BYTES:
        raise FileTooLargeError(
            f"{shown_path(relative)} is larger than {MAX_FILE_BYTES:,} bytes, more than any page to cut: split it, or "
            f"move it out of the folder. {_NOTHING_WRITTEN}")
    return data


def file_text(path: str, data: bytes) -> str:
    """A file's bytes as text: UTF-8, with a byte order mark (as some editors write) dropped, and
    refused if the content is binary whatever it decodes as."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FileNotTextError(
            f"{shown_path(path)} is not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start}): save it "
            f"as UTF-8 or move it out of the folder. {_NOTHING_WRITTEN}") from None
    if "\x00" in text:
        raise FileNotTextError(
            f"{shown_path(path)} is not text: it holds a NUL byte (offset {data.index(0)}), as binary files and UTF-16 "
            f"text do: save it as UTF-8 text or move it out of the folder. {_NOTHING_WRITTEN}")
    controls = len(_CONTROL.findall(text))
    if controls > max(1.0, _CONTROL_SHARE * len(text)):  # one stray escape code does not make a file binary
        raise FileNotTextError(
            f"{shown_path(path)} is not text: {controls} of its {len(text)} characters are control characters, as in a "
            f"binary file: move it out of the folder. {_NOTHING_WRITTEN}")
    return text
