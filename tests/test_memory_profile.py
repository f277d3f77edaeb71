"""The persistent profile: whitelist, sensitive and third-party values, expiry, forget from disk, atomic writes."""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from lab import atomic_files
from lab.clock import SimulatedClock
from lab.memory import (DEFAULT_ALLOWED_FIELDS, DEFAULT_RETENTION, ProfileFileError, ProfileStore, refusal_reason,
                        sensitive_reason, third_party_reason)

MEXICO_CITY = timezone(timedelta(hours=-6))

SOFIA = {
    "name": "Sofía",
    "level": "postgraduate",
    "preferred_language": "Spanish",
    "topics": ["statistics", "python", "art history", "music"],
    "answer_style": "two sentences and an example",
    "email": "sofia@example.com",
    "wifi_password": "cuaderno2026",
    "note_about_diego": "Diego cannot stand jazz",
}


class FixedZoneClock:
    """A clock that answers in a given time zone, as a learner's local clock would."""

    def __init__(self, instant: datetime) -> None:
        self.instant = instant

    def datetime(self) -> datetime:
        return self.instant


@pytest.fixture
def store(tmp_path: Path) -> ProfileStore:
    return ProfileStore(tmp_path / "notebook" / "memory.json", clock=SimulatedClock())


def test_only_whitelisted_fields_are_stored_and_every_refusal_has_a_reason(store: ProfileStore) -> None:
    result = store.update(SOFIA)
    assert result.accepted == ("name", "level", "preferred_language", "topics", "answer_style")
    assert sorted(result.rejected) == ["email", "note_about_diego", "wifi_password"]
    assert all(reason.startswith("not an allowed field") for reason in result.rejected.values())
    assert set(store.fields()) == set(result.accepted)


def test_the_content_pattern_alone_would_have_stopped_only_the_email() -> None:
    verdicts = {name: sensitive_reason(SOFIA[name]) for name in ("email", "wifi_password", "note_about_diego")}
    assert verdicts["email"] is not None and "'@'" in verdicts["email"]
    assert verdicts["wifi_password"] is None and verdicts["note_about_diego"] is None


def test_an_allowed_field_with_a_sensitive_value_is_refused_and_says_why(store: ProfileStore) -> None:
    result = store.update({"goal": "call me on 612345678", "name": "Sofía"})
    assert result.accepted == ("name",)
    assert "six or more digits" in result.rejected["goal"]
    assert "goal" not in store.fields()


@pytest.mark.parametrize("value", [
    "sofia@example.com",
    "612345678",
    "card 4111111111111111",
    "my password is hunter",
    "PASSWORDS",
    "api_key=abc",
    "key: xyz",
    "token123",
    "a secret",
    "Contraseña: pan",
    "la clave del wifi",
    ["statistics", "tokens of mine"],
    1234567,
])
def test_values_that_look_sensitive_are_caught(value: object) -> None:
    assert sensitive_reason(value) is not None  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [
    "Sofía",
    "postgraduate",
    "Europe/Madrid",
    "exam on 2026-05-14",
    "12345",
    "monkey",
    "tokenization",
    "keynote speakers",
    ["statistics", "python"],
    2026,
    True,
])
def test_ordinary_values_pass_the_pattern(value: object) -> None:
    assert sensitive_reason(value) is None  # type: ignore[arg-type]


@pytest.mark.parametrize("value, blind_spot", [
    ("six one two three four five six seven eight", "a number spelled out"),
    ("612 345 678", "digits separated by spaces"),
    ("612-345-678", "digits separated by dashes"),
    ("sofia at example dot com", "an e-mail written in words"),
    ("cuaderno2026", "a secret without a keyword and with under six digits"),
    ("apikey abc", "a keyword glued to other letters"),
    ("mypassword", "a keyword glued to other letters"),
    ("Passwort: brot", "a keyword in another language"),
    ("p4ssw0rd", "a keyword with digits for letters"),
    ("appointment with the cardiologist tomorrow", "health data, sensitive by meaning"),
])
def test_blind_spot_pinned_the_pattern_lets_this_through(value: str, blind_spot: str) -> None:
    assert sensitive_reason(value) is None, blind_spot


@pytest.mark.parametrize("value", ["piano keys", "token budgets", "palabra clave"])
def test_false_alarm_pinned_the_pattern_refuses_this_harmless_value(value: str) -> None:
    assert sensitive_reason(value) is not None


def test_values_that_are_not_plain_data_are_refused_with_a_reason(store: ProfileStore) -> None:
    result = store.update({"goal": None, "level": {"nested": 1}, "topics": [float("nan")]})
    assert result.accepted == ()
    assert "forget" in result.rejected["goal"]
    assert "dict cannot be stored" in result.rejected["level"]
    assert "finite" in result.rejected["topics"]


def test_forget_deletes_the_field_from_the_file_on_disk(store: ProfileStore) -> None:
    store.update(SOFIA)
    assert store.forget("answer_style") is True
    on_disk = json.loads(store.path.read_text(encoding="utf-8"))
    assert "answer_style" not in on_disk["profile"]
    assert b"two sentences and an example" not in store.stored_bytes()
    again = ProfileStore(store.path, clock=SimulatedClock())
    assert again.fields() == {k: SOFIA[k] for k in ("level", "name", "preferred_language", "topics")}


def test_forgetting_an_absent_field_reports_false_and_leaves_the_file_untouched(store: ProfileStore) -> None:
    store.update({"name": "Sofía"})
    before = store.stored_bytes()
    store.clock.sleep(60)
    assert store.forget("goal") is False
    assert store.stored_bytes() == before


def test_forget_works_on_fields_written_under_an_older_whitelist(tmp_path: Path) -> None:
    path = tmp_path / "memory.json"
    ProfileStore(path, allowed_fields=("name", "phone_model"), clock=SimulatedClock()).update({"phone_model": "X"})
    narrower = ProfileStore(path, allowed_fields=("name",), clock=SimulatedClock())
    assert narrower.forget("phone_model") is True
    assert narrower.fields() == {}


def test_the_stored_file_is_sorted_indented_utf8_json_ending_in_a_newline(store: ProfileStore) -> None:
    store.update(SOFIA)
    store.forget("answer_style")
    stored = store.stored_bytes()
    assert stored.endswith(b"}\n") and "Sofía".encode() in stored
    document = json.loads(stored)
    assert list(document) == ["version", "updated_at", "profile", "expires"]
    assert list(document["profile"]) == sorted(document["profile"]) and list(document["expires"]) == ["level", "topics"]
    assert stored == (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode()
    assert len(stored) == 369


def test_two_stores_fed_the_same_edits_write_identical_bytes(tmp_path: Path) -> None:
    files = []
    for name in ("a", "b"):
        store = ProfileStore(tmp_path / name / "memory.json", clock=SimulatedClock())
        store.update(SOFIA)
        store.forget("answer_style")
        files.append(store.stored_bytes())
    assert files[0] == files[1]


def test_update_time_is_iso_8601_with_the_time_zone_of_the_clock(tmp_path: Path) -> None:
    clock = SimulatedClock()
    store = ProfileStore(tmp_path / "memory.json", clock=clock)
    store.update({"name": "Sofía"})
    assert store.load()["updated_at"] == "2026-04-09T16:00:00+00:00"
    clock.sleep(90)
    store.update({"level": "postgraduate"})
    stamp = datetime.fromisoformat(store.load()["updated_at"])
    assert stamp.tzinfo is not None and stamp == datetime(2026, 4, 9, 16, 1, 30, tzinfo=timezone.utc)

    local = ProfileStore(tmp_path / "local.json", clock=FixedZoneClock(datetime(2026, 1, 7, 22, 0, tzinfo=MEXICO_CITY)))
    local.update({"name": "Sofía"})
    assert local.load()["updated_at"] == "2026-01-07T22:00:00-06:00"


def test_a_clock_without_a_time_zone_is_refused(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "memory.json", clock=FixedZoneClock(datetime(2026, 1, 7, 22, 0)))
    with pytest.raises(ValueError, match="naive datetime"):
        store.update({"name": "Sofía"})
    assert not store.path.exists()


def test_an_update_that_accepts_nothing_does_not_touch_the_file(store: ProfileStore) -> None:
    assert store.update({"email": "sofia@example.com"}).accepted == ()
    assert not store.path.exists()


def test_load_before_any_write_gives_an_empty_profile(store: ProfileStore) -> None:
    assert store.load() == {"version": 2, "updated_at": None, "profile": {}, "expires": {}}
    with pytest.raises(FileNotFoundError, match="call update"):
        store.stored_bytes()


def test_a_crash_while_writing_json_leaves_the_previous_file_intact(store: ProfileStore,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    store.update(SOFIA)
    before = store.stored_bytes()

    def disk_full(descriptor: int) -> None:  # the new text is written but never reaches the disk
        raise OSError("disk full")

    monkeypatch.setattr(atomic_files.os, "fsync", disk_full)
    with pytest.raises(OSError, match="disk full"):
        store.update({"goal": "pass the statistics exam"})
    monkeypatch.undo()
    assert store.stored_bytes() == before
    assert json.loads(before)["profile"]["name"] == "Sofía"
    assert sorted(p.name for p in store.path.parent.iterdir()) == [".memory.json.lock", "memory.json"]  # no temporary


def test_a_crash_at_the_rename_leaves_the_previous_file_intact(store: ProfileStore,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    store.update(SOFIA)
    before = store.stored_bytes()

    def crash(src: str, dst: str) -> None:
        raise OSError("power cut before the rename")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="power cut"):
        store.forget("name")
    monkeypatch.undo()
    assert store.stored_bytes() == before and "name" in store.fields()
    assert sorted(p.name for p in store.path.parent.iterdir()) == [".memory.json.lock", "memory.json"]


def test_the_profile_file_is_readable_by_its_owner_only(store: ProfileStore) -> None:
    store.update({"name": "Sofía"})
    assert store.path.stat().st_mode & 0o077 == 0


def test_a_corrupt_file_is_reported_with_its_path_and_what_to_do(store: ProfileStore) -> None:
    store.path.parent.mkdir(parents=True)
    store.path.write_text('{"version": 1, "profile": {', encoding="utf-8")
    with pytest.raises(ProfileFileError, match=r"memory\.json is not valid JSON .* delete it"):
        store.load()
    store.path.write_text('{"version": 3, "profile": {}}', encoding="utf-8")
    with pytest.raises(ProfileFileError, match="not a version-2 profile"):
        store.update({"name": "Sofía"})
    store.path.write_text('{"version": 2, "profile": {}, "expires": []}', encoding="utf-8")
    with pytest.raises(ProfileFileError, match="'expires' object"):
        store.fields()


def test_the_default_whitelist_covers_stable_study_facts_and_nothing_identifying() -> None:
    assert {"name", "preferred_language", "level", "topics", "timezone", "goal"} <= set(DEFAULT_ALLOWED_FIELDS)
    assert not {"email", "phone", "address", "password"} & set(DEFAULT_ALLOWED_FIELDS)


def test_update_needs_a_mapping_and_the_store_needs_a_whitelist(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="mapping"):
        ProfileStore(tmp_path / "m.json", clock=SimulatedClock()).update([("name", "Sofía")])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="allowed_fields"):
        ProfileStore(tmp_path / "m.json", allowed_fields=())


def test_repr_names_the_file_and_the_whitelist(store: ProfileStore) -> None:
    assert repr(store).startswith("ProfileStore(path=") and "memory.json" in repr(store) and "'topics'" in repr(store)


DAY = 24 * 3600


@pytest.mark.parametrize("value", [
    "help my friend Diego with statistics",
    "my sister's thesis data",
    "she fails every quiz",
    "call his manager",
    "Her answers are better",
    "mi amiga Lucía",
    "el examen de mi hermano",
    ["pandas", "my colleague's SQL"],
])
def test_values_about_someone_else_are_caught(value: object) -> None:
    assert third_party_reason(value).startswith("about someone else")  # type: ignore[arg-type, union-attr]


@pytest.mark.parametrize("value", ["Sofía", "postgraduate", "pass the data exam in June", "short answers",
                                   "theme", "shell scripting", "brotherhood of the rose", ["pandas", "SQL"], 2026])
def test_values_about_the_owner_pass_the_third_party_check(value: object) -> None:
    assert third_party_reason(value) is None  # type: ignore[arg-type]


def test_blind_spot_pinned_a_bare_name_gets_past_the_third_party_check() -> None:
    assert third_party_reason("Diego cannot stand jazz") is None  # the whitelist stops it as a field


def test_false_alarm_pinned_spanish_son_reads_as_english_son() -> None:
    assert third_party_reason("las clases son los lunes") is not None


def test_what_not_to_store_checks_the_whitelist_then_the_shape_then_secrets_then_other_people() -> None:
    assert refusal_reason("note_about_diego", "Diego cannot stand jazz").startswith("not an allowed field")
    assert "forget" in refusal_reason("goal", None)  # type: ignore[arg-type, operator]
    assert "'password'" in refusal_reason("goal", "my friend's password is x")  # type: ignore[operator]
    assert "'friend'" in refusal_reason("goal", "help my friend")  # type: ignore[operator]
    assert refusal_reason("goal", "pass the data exam in June") is None
    assert refusal_reason("pet", "a cat", allowed_fields=("pet",)) is None


def test_an_allowed_field_about_someone_else_is_refused(store: ProfileStore) -> None:
    result = store.update({"goal": "help my friend Diego pass statistics", "name": "Sofía"})
    assert result.accepted == ("name",) and "mentions 'friend'" in result.rejected["goal"]


def test_each_field_with_a_retention_is_stamped_with_when_it_expires(store: ProfileStore) -> None:
    store.update({"name": "Sofía", "goal": "pass the data exam", "topics": ["pandas"]})
    assert store.load()["expires"] == {"goal": "2026-07-08T16:00:00+00:00", "topics": "2026-10-06T16:00:00+00:00"}
    assert DEFAULT_RETENTION["name"] is None and "name" not in store.load()["expires"]


def test_an_expired_field_is_deleted_from_the_file_before_it_can_be_read(tmp_path: Path) -> None:
    clock = SimulatedClock()
    store = ProfileStore(tmp_path / "memory.json", clock=clock)
    store.update({"name": "Sofía", "goal": "pass the data exam", "topics": ["pandas"]})
    clock.sleep(90 * DAY - 1)
    assert set(store.fields()) == {"name", "goal", "topics"}
    clock.sleep(1)
    assert store.fields() == {"name": "Sofía", "topics": ["pandas"]}
    assert b"data exam" not in store.stored_bytes() and "goal" not in store.load()["expires"]
    clock.sleep(365 * DAY)
    assert store.expire() == ("topics",) and store.expire() == ()
    assert store.fields() == {"name": "Sofía"}


def test_writing_a_field_again_restarts_its_retention_and_forget_drops_its_expiry(tmp_path: Path) -> None:
    clock = SimulatedClock()
    store = ProfileStore(tmp_path / "memory.json", clock=clock)
    store.update({"goal": "pass the data exam"})
    clock.sleep(60 * DAY)
    store.update({"goal": "pass the data exam"})
    clock.sleep(60 * DAY)
    assert "goal" in store.fields()
    assert store.forget("goal") and store.load()["expires"] == {}


def test_a_version_1_file_is_read_as_a_profile_whose_fields_never_expire(store: ProfileStore) -> None:
    store.path.parent.mkdir(parents=True)
    store.path.write_text('{"version": 1, "updated_at": null, "profile": {"goal": "exam"}}', encoding="utf-8")
    assert store.fields() == {"goal": "exam"}
    store.update({"name": "Sofía"})
    assert store.load()["version"] == 2 and "goal" not in store.load()["expires"]


def test_a_retention_must_be_a_positive_period_or_none(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="retention of 'goal'"):
        ProfileStore(tmp_path / "m.json", retention={"goal": timedelta(0)})
    with pytest.raises(ValueError, match="retention of 'goal'"):
        ProfileStore(tmp_path / "m.json", retention={"goal": 90})  # type: ignore[dict-item]
