"""The memory tool's application side: six commands, their exact answers, and every way out of the folder refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lab.errors import LabError
from lab.memory import MEMORY_TOOL, MemoryDirectory, MemoryLimits, MemoryToolError, ToolResult, memory_parts


@pytest.fixture
def memory(tmp_path: Path) -> MemoryDirectory:
    return MemoryDirectory(tmp_path / "user-1")


def visible_files(memory: MemoryDirectory) -> dict[str, str]:
    return {path.relative_to(memory.root).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted(memory.root.rglob("*")) if path.is_file() and not path.name.startswith(".")}


def test_the_tool_is_declared_as_the_api_names_it() -> None:
    assert MEMORY_TOOL == {"type": "memory_20250818", "name": "memory"}


def test_create_then_view_numbers_the_lines(memory: MemoryDirectory) -> None:
    assert memory.create("/memories/learner.md", "# Learner\n- exam: Thursday\n") == \
        "File created successfully at: /memories/learner.md"
    assert memory.view("/memories/learner.md") == (
        "Here's the content of /memories/learner.md with line numbers:\n"
        "     1\t# Learner\n     2\t- exam: Thursday\n     3\t")
    assert memory.view("/memories/learner.md", [2, 2]) == (
        "Here's the content of /memories/learner.md with line numbers:\n     2\t- exam: Thursday")
    assert memory.view("/memories/learner.md", [2, -1]).endswith("     2\t- exam: Thursday\n     3\t")


def test_view_of_a_folder_lists_two_levels_with_sizes_and_hides_dot_files(memory: MemoryDirectory) -> None:
    memory.create("/memories/a.md", "x" * 10)
    memory.create("/memories/notes/b.md", "y" * 2048)
    memory.create("/memories/notes/deep/c.md", "z")
    memory.create("/memories/notes/deep/deeper/d.md", "w")
    (memory.root / ".hidden").write_text("secret-ish", encoding="utf-8")
    listing = memory.view("/memories")
    assert listing.split("\n") == [
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items:",
        "2.0K\t/memories",
        "10B\t/memories/a.md",
        "2.0K\t/memories/notes/",
        "2K\t/memories/notes/b.md",
        "2B\t/memories/notes/deep/",
    ]
    assert memory.view("/memories/notes/").split("\n")[1:] == [
        "2.0K\t/memories/notes", "2K\t/memories/notes/b.md", "2B\t/memories/notes/deep/",
        "1B\t/memories/notes/deep/c.md", "1B\t/memories/notes/deep/deeper/"]


def test_sizes_are_the_files_bytes_not_the_file_system_s_folder_size(memory: MemoryDirectory) -> None:
    memory.create("/memories/one/a.md", "é" * 700)  # 1,400 bytes in UTF-8
    assert "1.4K\t/memories/one/" in memory.view("/memories")


def test_create_refuses_an_existing_file_and_keeps_it(memory: MemoryDirectory) -> None:
    memory.create("/memories/a.md", "first")
    with pytest.raises(MemoryToolError, match="already exists"):
        memory.create("/memories/a.md", "second")
    assert visible_files(memory) == {"a.md": "first"}


def test_str_replace_changes_the_one_occurrence_and_shows_the_lines_around_it(memory: MemoryDirectory) -> None:
    memory.create("/memories/a.md", "one\ntwo\nthree\nfour\nfive\nsix\n")
    answer = memory.str_replace("/memories/a.md", "four", "FOUR")
    assert answer == ("The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
                      "     2\ttwo\n     3\tthree\n     4\tFOUR\n     5\tfive\n     6\tsix")
    assert visible_files(memory) == {"a.md": "one\ntwo\nthree\nFOUR\nfive\nsix\n"}


def test_str_replace_refuses_none_or_several_occurrences_and_names_the_lines(memory: MemoryDirectory) -> None:
    memory.create("/memories/a.md", "exam\nexam\nother\n")
    with pytest.raises(MemoryToolError, match=r"did not appear verbatim in /memories/a.md"):
        memory.str_replace("/memories/a.md", "missing", "x")
    with pytest.raises(MemoryToolError, match=r"Multiple occurrences of old_str `exam` in lines: 1, 2"):
        memory.str_replace("/memories/a.md", "exam", "x")
    with pytest.raises(MemoryToolError, match="old_str is empty"):
        memory.str_replace("/memories/a.md", "", "x")
    assert visible_files(memory) == {"a.md": "exam\nexam\nother\n"}


def test_insert_puts_text_after_the_line_and_checks_the_line_number(memory: MemoryDirectory) -> None:
    memory.create("/memories/a.md", "one\nthree\n")
    assert memory.insert("/memories/a.md", 1, "two\n") == "The file /memories/a.md has been edited."
    memory.insert("/memories/a.md", 0, "zero")
    memory.insert("/memories/a.md", 4, "four\nfive")
    assert visible_files(memory) == {"a.md": "zero\none\ntwo\nthree\nfour\nfive\n"}
    for bad in (-1, 7, True, "2", 1.0):
        with pytest.raises(MemoryToolError, match="Invalid `insert_line`"):
            memory.insert("/memories/a.md", bad, "x")  # type: ignore[arg-type]


def test_delete_removes_a_file_or_a_folder_but_never_the_root(memory: MemoryDirectory) -> None:
    memory.create("/memories/a.md", "a")
    memory.create("/memories/old/b.md", "b")
    assert memory.delete("/memories/a.md") == "Successfully deleted /memories/a.md"
    assert memory.delete("/memories/old") == "Successfully deleted /memories/old"
    assert visible_files(memory) == {}
    for root in ("/memories", "/memories/"):
        with pytest.raises(MemoryToolError, match="Cannot delete the /memories directory itself"):
            memory.delete(root)
    with pytest.raises(MemoryToolError, match="does not exist"):
        memory.delete("/memories/a.md")


def test_rename_moves_files_and_folders_inside_the_memory_folder(memory: MemoryDirectory) -> None:
    memory.create("/memories/a.md", "a")
    memory.create("/memories/b.md", "b")
    assert memory.rename("/memories/a.md", "/memories/archive/a.md") == \
        "Successfully renamed /memories/a.md to /memories/archive/a.md"
    with pytest.raises(MemoryToolError, match="The destination /memories/archive/a.md already exists"):
        memory.rename("/memories/b.md", "/memories/archive/a.md")
    with pytest.raises(MemoryToolError, match="into itself"):
        memory.rename("/memories/archive", "/memories/archive/inner")
    with pytest.raises(MemoryToolError, match="cannot be renamed"):
        memory.rename("/memories", "/memories/x")
    with pytest.raises(MemoryToolError, match="outside the memory folder"):
        memory.rename("/memories/b.md", "/tmp/b.md")
    assert visible_files(memory) == {"archive/a.md": "a", "b.md": "b"}


@pytest.mark.parametrize("path", [
    "/memories/../secret.txt", "/memories/notes/../../x", "/memories/./a.md", "/memories//a.md",
    "/memories/%2e%2e/x", "/memories/..%2fx", "/memories\\..\\x", "/memories/a\\b", "/memories/a\x00b",
    "/memories/.memories.lock", "/memories/.bashrc", "/etc/passwd", "memories/a.md", "/memoriesx/a.md",
    "/Memories/a.md", "", "/memories/" + "a" * 200, "/memories/a\nb",
])
def test_paths_that_leave_or_hide_in_the_folder_are_refused(memory: MemoryDirectory, path: str) -> None:
    for command in ({"command": "view", "path": path}, {"command": "create", "path": path, "file_text": "x"},
                    {"command": "delete", "path": path}):
        result = memory.execute(command)
        assert result.is_error and result.text.startswith("Error: ")
    assert visible_files(memory) == {}
    assert sorted(os.listdir(memory.root.parent)) == ["user-1"]


def test_a_symbolic_link_anywhere_on_the_path_is_refused(tmp_path: Path, memory: MemoryDirectory) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.txt").write_text("untouched", encoding="utf-8")
    os.symlink(outside, memory.root / "escape")
    os.symlink(outside / "victim.txt", memory.root / "file-link.md")
    for command in ({"command": "view", "path": "/memories/escape/victim.txt"},
                    {"command": "create", "path": "/memories/escape/new.md", "file_text": "x"},
                    {"command": "str_replace", "path": "/memories/file-link.md", "old_str": "untouched", "new_str": "x"},
                    {"command": "insert", "path": "/memories/file-link.md", "insert_line": 0, "insert_text": "x"},
                    {"command": "delete", "path": "/memories/escape"},
                    {"command": "rename", "old_path": "/memories/file-link.md", "new_path": "/memories/real.md"}):
        result = memory.execute(command)
        assert result.is_error and "symbolic link" in result.text, command
    assert sorted(os.listdir(outside)) == ["victim.txt"]
    assert (outside / "victim.txt").read_text(encoding="utf-8") == "untouched"
    assert "escape" not in memory.view("/memories")  # links are not listed either


def test_size_limits_per_file_per_folder_and_in_files(tmp_path: Path) -> None:
    memory = MemoryDirectory(tmp_path / "m", MemoryLimits(max_file_bytes=100, max_total_bytes=250, max_files=3))
    with pytest.raises(MemoryToolError, match="would hold 101 bytes; a memory file holds at most 100"):
        memory.create("/memories/big.md", "x" * 101)
    memory.create("/memories/a.md", "x" * 100)
    memory.create("/memories/b.md", "x" * 100)
    with pytest.raises(MemoryToolError, match="the memory folder would hold 251 bytes"):
        memory.create("/memories/c.md", "x" * 51)
    memory.create("/memories/c.md", "x" * 50)
    with pytest.raises(MemoryToolError, match="already holds 3 files"):
        memory.create("/memories/d.md", "x")
    with pytest.raises(MemoryToolError, match="a memory file holds at most 100"):
        memory.insert("/memories/c.md", 0, "y" * 60)
    memory.str_replace("/memories/c.md", "x" * 50, "y" * 50)  # replacing a file counts its new size only
    assert sorted(visible_files(memory)) == ["a.md", "b.md", "c.md"]
    with pytest.raises(ValueError, match="max_files must be a whole number >= 1"):
        MemoryLimits(max_files=0)


def test_text_that_looks_secret_is_not_written(memory: MemoryDirectory) -> None:
    for text in ("my password is hunter2", "phone 612345678", "mail me at sofia@example.com"):
        with pytest.raises(MemoryToolError, match="never keep secrets or identifiers"):
            memory.create("/memories/a.md", text)
    memory.create("/memories/a.md", "prefers short answers")
    with pytest.raises(MemoryToolError, match="looks sensitive"):
        memory.str_replace("/memories/a.md", "short", "short; api token abc")
    assert visible_files(memory) == {"a.md": "prefers short answers"}
    permissive = MemoryDirectory(memory.root, refuse=None)
    permissive.create("/memories/b.md", "password hint: the usual")
    assert "b.md" in visible_files(memory)


def test_execute_runs_tool_inputs_and_turns_refusals_into_error_results(memory: MemoryDirectory) -> None:
    created = memory.execute({"command": "create", "path": "/memories/a.md", "file_text": "hello\n"})
    assert created == ToolResult("File created successfully at: /memories/a.md")
    assert created.block("toolu_1") == {"type": "tool_result", "tool_use_id": "toolu_1",
                                        "content": "File created successfully at: /memories/a.md"}
    missing = memory.execute({"command": "view", "path": "/memories/nope.md"})
    assert missing.is_error
    assert missing.block("toolu_2")["is_error"] is True
    assert missing.text == "Error: The path /memories/nope.md does not exist. Please provide a valid path."
    for bad in ({"command": "format", "path": "/memories"}, {"path": "/memories"}, ["view"],
                {"command": "create", "path": "/memories/b.md"},
                {"command": "view", "path": "/memories", "recursive": True},
                {"command": "create", "path": "/memories/b.md", "file_text": 7},
                {"command": "view", "path": "/memories/a.md", "view_range": [3, 1]},
                {"command": "view", "path": "/memories/a.md", "view_range": "1-2"},
                {"command": "view", "path": "/memories", "view_range": [1, 2]},
                {"command": "view", "path": 3}):
        result = memory.execute(bad)  # type: ignore[arg-type]
        assert result.is_error, bad
    assert visible_files(memory) == {"a.md": "hello\n"}


def test_a_refusal_is_a_lab_error_and_a_value_error() -> None:
    assert issubclass(MemoryToolError, LabError) and issubclass(MemoryToolError, ValueError)


def test_a_path_through_a_file_is_refused(memory: MemoryDirectory) -> None:
    memory.create("/memories/a.md", "a")
    result = memory.execute({"command": "create", "path": "/memories/a.md/b.md", "file_text": "b"})
    assert result.is_error and "is a file, not a folder" in result.text


def test_non_utf8_files_are_reported_not_crashed_on(memory: MemoryDirectory) -> None:
    (memory.root / "legacy.md").write_bytes(b"caf\xe9\n")
    result = memory.execute({"command": "view", "path": "/memories/legacy.md"})
    assert result.is_error and "not UTF-8 text" in result.text


def test_clear_forgets_everything_but_keeps_the_folder(memory: MemoryDirectory) -> None:
    memory.create("/memories/a.md", "a")
    memory.create("/memories/x/b.md", "b")
    memory.clear()
    assert visible_files(memory) == {} and memory.root.is_dir()
    assert repr(memory).endswith("files=0)")


def test_changes_leave_no_temporary_files_behind(memory: MemoryDirectory) -> None:
    memory.create("/memories/a.md", "one\n")
    memory.insert("/memories/a.md", 1, "two")
    memory.str_replace("/memories/a.md", "two", "2")
    assert sorted(path.name for path in memory.root.iterdir()) == [".memories.lock", "a.md"]


_NAME = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=0, max_size=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_NAME, st.sampled_from(["..", ".", "", "%2e%2e", "\\..", "~", "..."])),
                min_size=0, max_size=5))
def test_any_accepted_path_stays_inside_the_folder(parts: list[str]) -> None:
    path = "/memories/" + "/".join(parts)
    try:
        names = memory_parts(path)
    except MemoryToolError:
        return
    root = Path("/srv/memory-root")
    resolved = Path(os.path.normpath(root.joinpath(*names)))
    assert resolved == root or root in resolved.parents
    assert all(name and not name.startswith(".") and "/" not in name for name in names)


@pytest.mark.parametrize("command", [
    {"command": "create", "path": "/memories/a.md", "file_text": "café \udcff"},
    {"command": "create", "path": "/memories/\udcff.md", "file_text": "hola"},
    {"command": "str_replace", "path": "/memories/kept.md", "old_str": "hola", "new_str": "\ud800"},
    {"command": "insert", "path": "/memories/kept.md", "insert_line": 0, "insert_text": "\udcff"},
])
def test_a_lone_surrogate_in_any_field_is_an_error_result_that_changes_nothing(memory: MemoryDirectory,
                                                                                command: dict) -> None:
    memory.create("/memories/kept.md", "hola\n")
    before = sorted((p.relative_to(memory.root).as_posix(), p.read_bytes()) for p in memory.root.rglob("*")
                    if p.is_file())
    result = memory.execute(command)
    assert result.is_error and "lone surrogate" in result.text
    result.text.encode("utf-8")  # the error itself is text a tool loop can send back
    assert sorted((p.relative_to(memory.root).as_posix(), p.read_bytes()) for p in memory.root.rglob("*")
                  if p.is_file()) == before
