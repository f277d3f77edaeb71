"""The profile file as a file: checked entry by entry as it is read, left byte for byte when it is
refused, written atomically, and updated under a lock that several processes share."""

from __future__ import annotations

import errno
import json
import multiprocessing
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lab import atomic_files
from lab.atomic_files import FileWriteError
from lab.clock import SimulatedClock
from lab.errors import LabError
from lab.memory import MAX_FILE_BYTES, ProfileFileError, ProfileStore

GOOD = {"version": 2, "updated_at": "2026-04-09T16:00:00+00:00",
        "profile": {"goal": "pass the data exam", "level": "postgraduate", "name": "Sofía",
                    "topics": ["statistics", "python"]},
        "expires": {"goal": "2026-07-08T16:00:00+00:00", "level": "2027-04-09T16:00:00+00:00",
                    "topics": "2026-10-06T16:00:00+00:00"}}


def written(path: Path, document: object) -> Path:
    path.write_text(json.dumps(document, ensure_ascii=False) if not isinstance(document, str) else document,
                    encoding="utf-8")
    return path


def with_goal(raw: str) -> str:
    """The good profile with ``raw`` JSON text as the value of its ``goal`` field."""
    return json.dumps({**GOOD, "profile": {**GOOD["profile"], "goal": "@goal@"}}).replace('"@goal@"', raw)


def refused(path: Path, *fragments: str) -> ProfileFileError:
    """Every way of reading the file is refused with the file's name, and the file keeps every byte."""
    before = path.read_bytes()
    store = ProfileStore(path, clock=SimulatedClock())
    for read in (store.load, store.fields, store.expire, lambda: store.update({"name": "Ana"}),
                 lambda: store.forget("name")):
        with pytest.raises(ProfileFileError) as raised:
            read()
        assert str(path) in str(raised.value) and "delete it to start an empty profile" in str(raised.value)
        for fragment in fragments:
            assert fragment in str(raised.value)
    assert path.read_bytes() == before
    return raised.value


@pytest.mark.parametrize("until, problem", [
    ("next summer", "not an ISO 8601 time"),
    (1783526400, "a number, not an ISO 8601 time"),
    ("2026-07-08T16:00:00", "a time without a time zone"),
    (None, "null, not an ISO 8601 time"),
    (["2026-07-08T16:00:00+00:00"], "an array, not an ISO 8601 time"),
], ids=["words", "a number", "no time zone", "null", "a list"])
def test_an_expiry_that_is_not_a_time_with_its_zone_is_named_and_the_file_left_alone(tmp_path, until,
                                                                                    problem) -> None:
    path = written(tmp_path / "memory.json", {**GOOD, "expires": {**GOOD["expires"], "goal": until}})
    refused(path, "the expiry of 'goal'", problem)


def test_a_5000_digit_number_is_named_instead_of_ending_in_a_value_error(tmp_path) -> None:
    path = written(tmp_path / "memory.json", with_goal("9" * 5000))
    refused(path, "a number with 5000 digits")


@pytest.mark.parametrize("depth", [3, 40, 100_000])
def test_a_deeply_nested_value_is_named_instead_of_ending_in_a_recursion_error(tmp_path, depth) -> None:
    path = written(tmp_path / "memory.json", with_goal("[" * depth + "]" * depth))
    error = refused(path)
    assert ("deeper than 32 levels" if depth > 32 else "the field 'goal' holds [[[]]]") in str(error)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_stored_nan_is_named_when_read_rather_than_failing_every_later_update(tmp_path, constant) -> None:
    path = written(tmp_path / "memory.json", with_goal(constant))
    refused(path, f"holds {constant}")


@pytest.mark.parametrize("document, problem", [
    ({**GOOD, "version": True}, "its version is true"),
    ({**GOOD, "version": 2.0}, "its version is 2.0"),
    ({**GOOD, "version": "2"}, 'its version is "2"'),
    ({**GOOD, "updated_at": 5}, "its updated_at is a number"),
    ({**GOOD, "profile": {"name": {"first": "Sofía"}}}, "a dict cannot be stored"),
    ({**GOOD, "profile": {"name": None}}, "None is not stored"),
    ({**GOOD, "profile": ["Sofía"]}, "'profile' is an array"),
    ({**GOOD, "expires": "never"}, "'expires' is a string"),
    ({**GOOD, "owner": "Sofía"}, "the key 'owner'"),
    ([GOOD], "expected a JSON object, found an array"),
], ids=["version true", "version 2.0", "version text", "updated_at number", "object value", "null value",
        "profile list", "expires text", "unknown key", "a list"])
def test_every_entry_of_the_wrong_type_is_named(tmp_path, document, problem) -> None:
    refused(written(tmp_path / "memory.json", document), problem)


def test_a_file_larger_than_any_profile_is_refused_before_it_is_read_whole(tmp_path) -> None:
    path = written(tmp_path / "memory.json", {**GOOD, "profile": {"goal": "x" * MAX_FILE_BYTES}})
    refused(path, f"larger than {MAX_FILE_BYTES:,} bytes")


def test_a_hand_edited_field_the_store_would_refuse_is_not_given_to_a_prompt_but_can_be_forgotten(tmp_path) -> None:
    path = written(tmp_path / "memory.json", {**GOOD, "profile": {**GOOD["profile"], "email": "sofia@example.com",
                                                                   "goal": "call my sister at 5512345678"}})
    store = ProfileStore(path, clock=SimulatedClock())
    assert store.fields() == {"level": "postgraduate", "name": "Sofía", "topics": ["statistics", "python"]}
    assert sorted(store.refused_fields()) == ["email", "goal"]
    assert store.refused_fields()["email"].startswith("not an allowed field")
    assert store.forget("email") and store.forget("goal") and store.refused_fields() == {}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=400))
def test_random_bytes_are_a_profile_error_and_are_left_alone(tmp_path, data) -> None:
    path = tmp_path / "memory.json"
    path.write_bytes(data)
    with pytest.raises(ProfileFileError):
        ProfileStore(path).load()
    assert path.read_bytes() == data


def test_a_profile_cut_at_every_offset_is_a_profile_error_and_is_left_alone(tmp_path) -> None:
    whole = json.dumps(GOOD, ensure_ascii=False, indent=2).encode("utf-8")
    path = tmp_path / "memory.json"
    for size in range(len(whole)):  # every cut but the whole file (a cut after the last brace is still whole)
        path.write_bytes(whole[:size])
        with pytest.raises(ProfileFileError):
            ProfileStore(path, clock=SimulatedClock()).fields()
        assert path.read_bytes() == whole[:size]


_JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=False)
                            | st.text(max_size=30), lambda inner: st.lists(inner, max_size=3)
                            | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(["version", "updated_at", "profile", "expires"]), value=_JSON_VALUES,
       inner=st.sampled_from(["goal", "level", "name", "topics"]))
def test_any_value_at_any_entry_is_read_as_a_profile_or_refused_and_a_read_profile_can_be_updated(tmp_path, key, value,
                                                                                                inner) -> None:
    document = json.loads(json.dumps(GOOD))
    if key in ("profile", "expires") and isinstance(value, (str, int, float, bool, list)) and value is not None:
        document[key][inner] = value  # a wrong type inside the entry as well as for the whole entry
    else:
        document[key] = value
    path = written(tmp_path / "memory.json", document)
    store = ProfileStore(path, clock=SimulatedClock())
    try:
        store.fields()
    except ProfileFileError:
        return
    store.update({"answer_style": "short answers"})  # a file the store reads, it can always write again
    assert store.fields()["answer_style"] == "short answers"


def test_a_full_disk_during_an_update_keeps_the_previous_file_and_names_it(tmp_path, monkeypatch) -> None:
    store = ProfileStore(tmp_path / "memory.json", clock=SimulatedClock())
    store.update({"name": "Sofía"})
    before = store.stored_bytes()

    def no_space(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic_files.os, "fsync", no_space)
    with pytest.raises(FileWriteError, match=r"memory\.json could not be written \(No space left on device\)") as raised:
        store.update({"level": "postgraduate"})
    monkeypatch.undo()
    assert isinstance(raised.value, LabError) and raised.value.errno == errno.ENOSPC
    assert store.stored_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_profile_in_a_folder_that_cannot_be_created_is_a_lab_error(tmp_path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the profile's folder would be\n", encoding="utf-8")
    store = ProfileStore(blocker / "memory.json", clock=SimulatedClock())
    with pytest.raises(ProfileFileError, match="cannot be read"):
        store.load()
    with pytest.raises(LabError, match="not-a-folder"):
        store.update({"name": "Sofía"})
    assert blocker.read_text(encoding="utf-8") == "a file where the profile's folder would be\n"


@pytest.mark.parametrize("blocked, fix", [
    (lambda folder: (folder / "notebook" / ".memory.json.lock").mkdir(parents=True),
     "a folder has that name: move it away"),
    (lambda folder: (folder / "notebook").write_text("a file\n", encoding="utf-8"),
     "a part of its path is a file, not a folder"),
])
def test_a_lock_file_that_cannot_be_created_says_why_and_the_fix_and_nothing_is_written(tmp_path, blocked,
                                                                                         fix) -> None:
    from lab.file_lock import FileLockError

    blocked(tmp_path)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    with pytest.raises(FileLockError, match=f"cannot create the lock file .*; {fix}"):
        ProfileStore(tmp_path / "notebook" / "memory.json", clock=SimulatedClock()).update({"name": "Sofía"})
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_reading_or_a_change_that_changes_nothing_creates_no_folder_lock_or_file(tmp_path) -> None:
    store = ProfileStore(tmp_path / "notebook" / "memory.json", clock=SimulatedClock())
    assert store.fields() == {} and store.expire() == () and not store.forget("name")
    assert store.update({"email": "sofia@example.com"}).accepted == ()
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------- processes updating one profile

_FIELDS = {"name": "Sofía", "preferred_language": "Spanish", "level": "postgraduate", "topics": ["statistics"],
           "timezone": "America/Mexico_City", "goal": "pass the data exam"}
ROUNDS = 20


def _update_one_field(folder: str, field: str, start: multiprocessing.synchronize.Barrier) -> None:
    for round_ in range(ROUNDS):
        start.wait()  # every process updates the same round's profile at the same moment
        ProfileStore(Path(folder) / f"round-{round_:02d}.json", clock=SimulatedClock()).update({field: _FIELDS[field]})


@pytest.mark.slow
def test_six_processes_updating_one_profile_at_once_keep_every_field_in_every_round(tmp_path) -> None:
    context = multiprocessing.get_context("fork")
    start = context.Barrier(len(_FIELDS))
    workers = [context.Process(target=_update_one_field, args=(str(tmp_path), field, start)) for field in _FIELDS]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [worker.exitcode for worker in workers] == [0] * len(_FIELDS)
    kept = [ProfileStore(tmp_path / f"round-{r:02d}.json", clock=SimulatedClock()).fields() for r in range(ROUNDS)]
    assert [sorted(fields) for fields in kept] == [sorted(_FIELDS)] * ROUNDS
