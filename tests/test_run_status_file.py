"""A sync's status file read back: every field checked, any damage a StatusFileError, and a write
that fails (a full disk) leaves the previous status whole."""

from __future__ import annotations

import errno
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lab import atomic_files
from lab.atomic_files import FileWriteError
from lab.ingest.run_status import RunStatus, StatusFileError, read_status_file, write_status_file

STATUS = RunStatus(command="sync", outcome="ok", exit_code=0, finished_at="2026-04-08T14:05:00.000Z",
                   watermark="2026-04-08T13:55:00.000Z", counts={"chunks_total": 316, "requests": 5},
                   message="incremental run")
LINE = json.loads(STATUS.to_line())


@pytest.mark.parametrize("field, value, problem", [
    ("outcome", "fine", "the outcome 'fine'"), ("outcome", None, "'outcome' as a NoneType"),
    ("exit_code", "0", "'exit_code' as a str"), ("exit_code", False, "'exit_code' as a bool"),
    ("exit_code", 1000, "exit code 1000, outside 0 to 255"), ("exit_code", 0.5, "'exit_code' as a float"),
    ("command", 7, "'command' as a int"), ("finished_at", None, "'finished_at' as a NoneType"),
    ("watermark", 5, "'watermark' as a int"), ("counts", [316], "'counts' as a list"),
    ("counts", {"chunks_total": "316"}, "a count that is not a whole number"),
    ("counts", {"chunks_total": -1}, "a count that is not a whole number"), ("message", None, "'message' as a"),
])
def test_every_field_of_the_wrong_type_or_range_is_named(tmp_path, field, value, problem) -> None:
    path = tmp_path / "status.json"
    path.write_text(json.dumps({**LINE, field: value}), encoding="utf-8")
    with pytest.raises(StatusFileError, match="is not a status file written by sync") as raised:
        read_status_file(path)
    assert problem in str(raised.value) and str(path) in str(raised.value)


@pytest.mark.parametrize("document, problem", [
    ({k: v for k, v in LINE.items() if k != "outcome"}, "lacks outcome"),
    ({**LINE, "token": "x"}, "unknown key 'token'"), ([LINE], "is not a JSON object"),
])
def test_a_missing_or_unknown_key_is_named(tmp_path, document, problem) -> None:
    path = tmp_path / "status.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(StatusFileError, match=problem):
        read_status_file(path)


def test_a_status_cut_at_every_offset_is_a_status_file_error(tmp_path) -> None:
    path = write_status_file(tmp_path / "status.json", STATUS)
    whole = path.read_bytes()
    assert read_status_file(path) == STATUS
    for size in range(len(whole.rstrip())):
        path.write_bytes(whole[:size])
        with pytest.raises(StatusFileError):
            read_status_file(path)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300))
def test_random_bytes_are_a_status_file_error(tmp_path, data) -> None:
    path = tmp_path / "status.json"
    path.write_bytes(data)
    with pytest.raises(StatusFileError):
        read_status_file(path)


def test_a_missing_status_file_or_a_folder_is_a_status_file_error(tmp_path) -> None:
    with pytest.raises(StatusFileError, match="cannot be read"):
        read_status_file(tmp_path / "missing.json")
    with pytest.raises(StatusFileError, match="cannot be read"):
        read_status_file(tmp_path)


def test_a_full_disk_while_writing_a_status_keeps_the_previous_one_whole(tmp_path, monkeypatch) -> None:
    path = write_status_file(tmp_path / "status.json", STATUS)
    before = path.read_bytes()

    def no_space(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic_files.os, "fsync", no_space)
    failed = RunStatus(command="sync", outcome="failed", exit_code=1, finished_at="later", watermark=None)
    with pytest.raises(FileWriteError, match=r"status\.json could not be written \(No space left on device\)"):
        write_status_file(path, failed)
    monkeypatch.undo()
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["status.json"]
