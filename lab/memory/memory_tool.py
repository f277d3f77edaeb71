"""The client side of Claude's memory tool: a ``/memories`` folder the model edits through six commands.

With ``{"type": "memory_20250818", "name": "memory"}`` in a request's tools, the model asks for
``view``, ``create``, ``str_replace``, ``insert``, ``delete`` or ``rename`` on paths under
``/memories``; the application runs each command on storage it chooses and returns the result
as a ``tool_result``. :class:`MemoryDirectory` is that application side on a local folder,
answering with the texts the API's documentation gives, and it is careful about what it runs:

- paths stay inside the folder (:mod:`lab.memory.memory_paths`: no ``..``, no links, no hidden names);
- sizes are bounded (:class:`MemoryLimits`: bytes per file, bytes and files in all);
- text that looks like a secret or an identifier is refused, as the profile refuses it
  (:func:`lab.memory.sensitive_reason`), because the documentation warns never to keep keys there;
- every change replaces the file atomically, under a lock, so a crash or a second process never
  leaves half a file.

Called from Python, a refused command raises :class:`MemoryToolError`; through :meth:`execute`
(what a tool loop calls) it becomes an error result the model reads and can correct.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lab.atomic_files import write_text_atomically
from lab.file_lock import exclusive_lock
from lab.memory.memory_paths import MEMORY_ROOT, MemoryToolError, resolve_memory_path
from lab.memory.profile import sensitive_reason

__all__ = ["MEMORY_TOOL", "MemoryDirectory", "MemoryLimits", "ToolResult"]

#: The tool as a Messages API request declares it.
MEMORY_TOOL: dict[str, str] = {"type": "memory_20250818", "name": "memory"}
_NUMBER_WIDTH = 6  # line numbers are right-aligned in six columns, as the API's tools print them


@dataclass(frozen=True)
class MemoryLimits:
    """How much the model may keep: bytes in one file, bytes in all files, and files in all."""

    max_file_bytes: int = 16 * 1024
    max_total_bytes: int = 256 * 1024
    max_files: int = 100

    def __post_init__(self) -> None:
        for name in ("max_file_bytes", "max_total_bytes", "max_files"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")


@dataclass(frozen=True)
class ToolResult:
    """What one command answered: the text the model reads, and whether it is an error."""

    text: str
    is_error: bool = False

    def block(self, tool_use_id: str) -> dict[str, Any]:
        """The ``tool_result`` content block that answers the ``tool_use`` block ``tool_use_id``."""
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool_use_id, "content": self.text}
        if self.is_error:
            block["is_error"] = True
        return block


class MemoryDirectory:
    """The ``/memories`` folder of one user, kept in ``root`` on disk (created if missing)."""

    def __init__(self, root: str | Path, limits: MemoryLimits = MemoryLimits(),
                 refuse: Callable[[str], str | None] | None = sensitive_reason) -> None:
        root = Path(root)
        root.mkdir(parents=True, exist_ok=True)
        self.root = root.resolve()
        self.limits = limits
        self._refuse = refuse

    def __repr__(self) -> str:
        return f"MemoryDirectory({str(self.root)!r}, files={len(self._files())})"

    # -- the six commands -------------------------------------------------------------------
    def view(self, path: str, view_range: tuple[int, int] | list[int] | None = None) -> str:
        """A folder's files two levels deep with their sizes, or a file's lines numbered from 1."""
        target = self._existing(path)
        if target.is_dir():
            if view_range is not None:
                raise MemoryToolError(f"view_range applies to files; {path} is a folder")
            return self._listing(path, target)
        lines = self._read(target, path).split("\n")
        first, last = _line_range(view_range, len(lines), path)
        numbered = [f"{number:>{_NUMBER_WIDTH}}\t{lines[number - 1]}" for number in range(first, last + 1)]
        return f"Here's the content of {path} with line numbers:\n" + "\n".join(numbered)

    def create(self, path: str, file_text: str) -> str:
        """Write a new file (its folders are made as needed); an existing file is refused, not overwritten."""
        with self._writing():
            target = resolve_memory_path(self.root, path)
            if target == self.root or target.exists():
                raise MemoryToolError(f"File {path} already exists; change it with str_replace or insert, "
                                      "or delete it first")
            self._check_text(file_text, path, replacing=None)
            self._make_parents(target, path)
            write_text_atomically(target, file_text)
        return f"File created successfully at: {path}"

    def str_replace(self, path: str, old_str: str, new_str: str) -> str:
        """Replace the one occurrence of ``old_str``; none or several are refused, with where they are."""
        with self._writing():
            target = self._existing_file(path)
            content = self._read(target, path)
            _check_string(old_str, "old_str")
            _check_string(new_str, "new_str")
            at = _unique_occurrence(content, old_str, path)
            updated = content[:at] + new_str + content[at + len(old_str):]
            self._check_text(updated, path, replacing=target)
            write_text_atomically(target, updated)
        changed = content[:at].count("\n")
        lines = updated.split("\n")
        shown = range(max(0, changed - 2), min(len(lines), changed + 3 + new_str.count("\n")))
        snippet = "\n".join(f"{index + 1:>{_NUMBER_WIDTH}}\t{lines[index]}" for index in shown)
        return "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n" + snippet

    def insert(self, path: str, insert_line: int, insert_text: str) -> str:
        """Insert ``insert_text`` after line ``insert_line`` (0: at the top)."""
        with self._writing():
            target = self._existing_file(path)
            content = self._read(target, path)
            _check_string(insert_text, "insert_text")
            lines = content.splitlines()
            if isinstance(insert_line, bool) or not isinstance(insert_line, int) or not 0 <= insert_line <= len(lines):
                raise MemoryToolError(f"Invalid `insert_line` parameter: {insert_line!r}. It should be within the "
                                      f"range [0, {len(lines)}].")
            lines[insert_line:insert_line] = insert_text.rstrip("\n").split("\n")
            updated = "\n".join(lines) + "\n"
            self._check_text(updated, path, replacing=target)
            write_text_atomically(target, updated)
        return f"The file {path} has been edited."

    def delete(self, path: str) -> str:
        """Delete a file, or a folder with everything in it; the memory folder itself cannot be deleted."""
        with self._writing():
            target = self._existing(path)
            if target == self.root:
                raise MemoryToolError(f"Cannot delete the {MEMORY_ROOT} directory itself")
            if target.is_dir():
                shutil.rmtree(target)
            else:
                target.unlink()
        return f"Successfully deleted {path}"

    def rename(self, old_path: str, new_path: str) -> str:
        """Move a file or folder to a new path inside the memory folder; an existing destination is refused."""
        with self._writing():
            source = self._existing(old_path)
            destination = resolve_memory_path(self.root, new_path)
            if source == self.root or destination == self.root:
                raise MemoryToolError(f"the {MEMORY_ROOT} directory itself cannot be renamed or replaced")
            if destination.exists():
                raise MemoryToolError(f"The destination {new_path} already exists")
            if source.is_dir() and destination.is_relative_to(source):
                raise MemoryToolError(f"cannot move {old_path} into itself ({new_path})")
            self._make_parents(destination, new_path)
            source.rename(destination)
        return f"Successfully renamed {old_path} to {new_path}"

    # -- what a tool loop calls -------------------------------------------------------------
    def execute(self, command: Mapping[str, Any]) -> ToolResult:
        """Run one ``tool_use`` input (``{"command": "view", "path": ...}``); a refusal becomes an error result."""
        try:
            return ToolResult(self._dispatch(command))
        except MemoryToolError as error:
            return ToolResult(f"Error: {error}", is_error=True)

    def clear(self) -> None:
        """Delete every memory (the folder stays, empty): what a user's "forget everything" runs."""
        with self._writing():
            for entry in self.root.iterdir():
                if entry.name.startswith("."):
                    continue
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry)
                else:
                    entry.unlink()

    def _dispatch(self, command: Mapping[str, Any]) -> str:
        if not isinstance(command, Mapping):
            raise MemoryToolError(f"a memory command is an object with a 'command' field, got {type(command).__name__}")
        name = command.get("command")
        fields = _COMMANDS.get(name) if isinstance(name, str) else None
        if fields is None:
            raise MemoryToolError(f"unknown command {name!r}; the memory tool runs {', '.join(_COMMANDS)}")
        missing = [field for field, required in fields.items() if required and field not in command]
        unknown = sorted(set(command) - set(fields) - {"command"})
        if missing or unknown:
            raise MemoryToolError(f"{name} takes {', '.join(fields)}; "
                                  + (f"missing {', '.join(missing)}" if missing else f"unknown {', '.join(unknown)}"))
        arguments = {field: command[field] for field in fields if field in command}
        for field, value in arguments.items():
            _check_encodable(value, field)
        return getattr(self, name)(**arguments)

    # -- helpers ----------------------------------------------------------------------------
    @contextmanager
    def _writing(self) -> Iterator[None]:
        with exclusive_lock(self.root / "memories"):  # the lock file is .memories.lock, hidden from view
            yield

    def _existing(self, path: str) -> Path:
        target = resolve_memory_path(self.root, path)
        if not target.exists():
            raise MemoryToolError(f"The path {path} does not exist. Please provide a valid path.")
        return target

    def _existing_file(self, path: str) -> Path:
        target = self._existing(path)
        if not target.is_file():
            raise MemoryToolError(f"The path {path} is not a file.")
        return target

    def _read(self, target: Path, path: str) -> str:
        try:
            return target.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise MemoryToolError(f"{path} is not UTF-8 text; the memory tool reads and writes text only") from None

    def _files(self) -> list[Path]:
        return [entry for entry in self.root.rglob("*")
                if entry.is_file() and not entry.is_symlink() and not any(part.startswith(".") for part in entry.relative_to(self.root).parts)]

    def _check_text(self, text: object, path: str, replacing: Path | None) -> None:
        """Refuse text that is not a string, too large for a file or for the folder, or that looks secret."""
        _check_string(text, "file_text")
        size = len(text.encode("utf-8"))  # type: ignore[union-attr]
        if size > self.limits.max_file_bytes:
            raise MemoryToolError(f"{path} would hold {size:,} bytes; a memory file holds at most "
                                  f"{self.limits.max_file_bytes:,}: keep what matters, in fewer words")
        files = self._files()
        if replacing is None and len(files) >= self.limits.max_files:
            raise MemoryToolError(f"the memory folder already holds {len(files)} files, the most it keeps; "
                                  "merge or delete some first")
        others = sum(entry.stat().st_size for entry in files if entry != replacing)
        if others + size > self.limits.max_total_bytes:
            raise MemoryToolError(f"the memory folder would hold {others + size:,} bytes; at most "
                                  f"{self.limits.max_total_bytes:,} are kept: delete or shorten old memories first")
        reason = self._refuse(text) if self._refuse is not None else None  # type: ignore[arg-type]
        if reason:
            raise MemoryToolError(f"{path} was not written: the text {reason}; never keep secrets or identifiers "
                                  "in memory")

    def _make_parents(self, target: Path, path: str) -> None:
        parent = target.parent
        if parent.exists() and not parent.is_dir():
            raise MemoryToolError(f"{path} cannot be made: a part of it is a file, not a folder")
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise MemoryToolError(f"{path} cannot be made: a part of it is a file, not a folder") from None

    def _listing(self, path: str, folder: Path) -> str:
        shown = path.rstrip("/") or MEMORY_ROOT
        rows = [f"{_size(_bytes_under(folder))}\t{shown}"]
        for entry, depth in _entries(folder, 1):
            name = f"{shown}/{entry.relative_to(folder).as_posix()}"
            if entry.is_dir():
                rows.append(f"{_size(_bytes_under(entry))}\t{name}/")
            else:
                rows.append(f"{_size(entry.stat().st_size)}\t{name}")
        header = f"Here're the files and directories up to 2 levels deep in {shown}, excluding hidden items:"
        return header + "\n" + "\n".join(rows)


_COMMANDS: dict[str, dict[str, bool]] = {
    "view": {"path": True, "view_range": False},
    "create": {"path": True, "file_text": True},
    "str_replace": {"path": True, "old_str": True, "new_str": True},
    "insert": {"path": True, "insert_line": True, "insert_text": True},
    "delete": {"path": True},
    "rename": {"old_path": True, "new_path": True},
}


def _check_string(value: object, name: str) -> None:
    if not isinstance(value, str):
        raise MemoryToolError(f"{name} must be a string, got {type(value).__name__}")


def _check_encodable(value: object, name: str) -> None:
    """Refuse a string that is not text: a lone surrogate (what a JSON ``\\udcff`` escape decodes to) has no
    UTF-8 form, so no file can hold it and no message may quote it."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            raise MemoryToolError(f"{name} holds a lone surrogate ({ascii(value[error.start])} at character "
                                  f"{error.start}), which is not text; send it as UTF-8 text") from None


def _unique_occurrence(content: str, old: str, path: str) -> int:
    """Where the one occurrence of ``old`` starts; none or several is a refusal naming the lines."""
    if not old:
        raise MemoryToolError("old_str is empty; give the exact text to replace")
    starts, at = [], content.find(old)
    while at != -1:
        starts.append(at)
        at = content.find(old, at + 1)
    if not starts:
        raise MemoryToolError(f"No replacement was performed, old_str `{old}` did not appear verbatim in {path}.")
    if len(starts) > 1:
        lines = ", ".join(str(content[:start].count("\n") + 1) for start in starts)
        raise MemoryToolError(f"No replacement was performed. Multiple occurrences of old_str `{old}` in lines: "
                              f"{lines}. Please ensure it is unique")
    return starts[0]


def _line_range(view_range: object, count: int, path: str) -> tuple[int, int]:
    """The first and last line numbers to show (1-based, inclusive); ``[start, -1]`` runs to the end."""
    if view_range is None:
        return 1, count
    valid = (isinstance(view_range, (list, tuple)) and len(view_range) == 2
             and all(isinstance(n, int) and not isinstance(n, bool) for n in view_range))
    if not valid:
        raise MemoryToolError(f"view_range must be two line numbers [start, end], got {view_range!r}")
    first, last = view_range  # type: ignore[misc]
    last = count if last == -1 else last
    if not 1 <= first <= last <= count:
        raise MemoryToolError(f"Invalid view_range {list(view_range)!r} for {path}: lines run from 1 to {count}, "  # type: ignore[arg-type]
                              "and the end (or -1 for the last line) is not before the start")
    return first, last


def _entries(folder: Path, depth: int) -> Iterator[tuple[Path, int]]:
    """Visible files and folders under ``folder``, sorted by name, two levels deep."""
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.name.startswith(".") or entry.is_symlink():
            continue
        yield entry, depth
        if entry.is_dir() and depth < 2:
            yield from _entries(entry, depth + 1)


def _bytes_under(folder: Path) -> int:
    """Bytes in the visible files under ``folder`` (a folder's own size on disk varies by file system)."""
    return sum(entry.stat().st_size for entry in folder.rglob("*")
               if entry.is_file() and not entry.is_symlink()
               and not any(part.startswith(".") for part in entry.relative_to(folder).parts))


def _size(count: int) -> str:
    """``512B``, ``1.5K``, ``2M``: sizes as the tool's listing prints them."""
    for unit, scale in (("M", 1 << 20), ("K", 1 << 10)):
        if count >= scale:
            value = count / scale
            return f"{value:.0f}{unit}" if value == int(value) else f"{value:.1f}{unit}"
    return f"{count}B"
