"""A folder story: a step run again starts from the folder and index as they were, and data/ is never touched."""

from __future__ import annotations

from lab.answering import AnswerCache
from lab.course.folder_story import FolderStory
from lab.datasets.docs_corpus import DOCS_DIR

QUICKSTART = "guides/quickstart.md"


def test_a_step_run_again_starts_from_the_files_index_and_objects_as_they_were() -> None:
    story = FolderStory(DOCS_DIR, cache=AnswerCache())
    folder, store = story.step("edit")
    (folder / QUICKSTART).write_text("changed", encoding="utf-8")
    store.set_meta("note", "written")
    story.kept["cache"].answer("q", 1, lambda q: "a")
    story.record("first")
    folder, store = story.step("edit")
    assert (folder / QUICKSTART).read_bytes() == (DOCS_DIR / QUICKSTART).read_bytes()
    assert store.get_meta("note") is None and len(story.kept["cache"]) == 0 and story.records == {}


def test_running_an_earlier_step_again_forgets_the_later_ones() -> None:
    story = FolderStory(DOCS_DIR)
    for name in ("one", "two", "three"):
        story.step(name)
        story.record(name)
    story.step("two")
    assert list(story.records) == ["one"]


def test_the_story_works_on_a_copy_and_leaves_the_corpus_alone() -> None:
    story = FolderStory(DOCS_DIR)
    folder, _ = story.step("delete")
    (folder / QUICKSTART).unlink()
    assert folder != DOCS_DIR and (DOCS_DIR / QUICKSTART).exists()
