"""Lesson 04's checkers of its exercises (expected values computed, never typed).

The lesson draws nothing at random, so it has no seed.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from lab.chunking import Document, MarkdownHeaderChunker
from lab.chunking.markdown_outline import find_fences
from lab.course.exercises import Exercise
from lab.datasets.docs_corpus import load_docs_corpus

__all__ = ["exercise"]

AUDITED = "guides/building-a-schedule.md"
INFLATED = "### Weekly hours"


def _markdown() -> MarkdownHeaderChunker:
    return MarkdownHeaderChunker(max_chars=1200, overlap_chars=150)


def _docs() -> dict[str, str]:
    return dict(load_docs_corpus())


def _audit() -> dict:
    chunks = _markdown().split(Document.from_markdown(_docs()[AUDITED], AUDITED))
    pieces = Counter(c.section for c in chunks)
    split = {section for section, n in pieces.items() if n > 1}
    return {"chunks": len(chunks), "split_section": split.pop() if len(split) == 1 else split,
            "longest_chars": max(len(c.body) for c in chunks)}


def _inflated_section() -> dict:
    text = _docs()[AUDITED]
    start = text.index(INFLATED)
    end = text.index("\n### ", start + 1)
    body = text[start:end].split("\n", 1)[1].strip()
    inflated = text[:end] + ("\n\n" + body) * 9 + text[end:]  # the section ten times as long
    heading = INFLATED.lstrip("# ")
    pieces = [c for c in _markdown().split(Document.from_markdown(inflated, AUDITED))
              if (c.section or "").endswith(heading)]
    return {"pieces": len(pieces), "largest_chars": max(len(c.body) for c in pieces)}


def _comments_in_code() -> dict:
    markdown, files, lines, named = _markdown(), 0, 0, 0
    for path, text in _docs().items():
        comments = [line.strip() for start, end in find_fences(text)
                    for line in text[start:end].splitlines()[1:-1] if line.startswith("#")]
        files += bool(comments)
        lines += len(comments)
        breadcrumbs = [c.text.splitlines()[0] for c in markdown.split(Document.from_markdown(text, path))]
        named += sum(comment.lstrip("# ") in crumb for comment in comments for crumb in breadcrumbs)
    return {"files": files, "comment_lines": lines, "breadcrumbs_naming_a_comment": named}


@lru_cache(maxsize=None)
def exercise(number: int) -> Exercise:
    """The checker of exercise ``number`` (1 to 3) at the end of lesson 04."""
    exercises = {
        1: Exercise("Exercise 1", _audit,
                    hint="one row per chunk of markdown.split(document); a section cut into several pieces "
                         "shows up as consecutive ids ending --00, --01, ..."),
        2: Exercise("Exercise 2", _inflated_section,
                    hint="the section's paragraphs accumulate until the next one would pass 1,200 characters; "
                         "then a new piece starts with the last ~150 characters of the previous one."),
        3: Exercise("Exercise 3", _comments_in_code,
                    hint="fences open with ``` or with ~~~ (lab.chunking.markdown_outline.find_fences gives the "
                         "spans of both); count the lines inside whose first character is #, then read the "
                         "first line of every chunk's text."),
    }
    if number not in exercises:
        raise ValueError(f"lesson 04 has exercises 1 to 3, not {number}")
    return exercises[number]
