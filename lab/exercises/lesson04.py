"""The checkers of lesson 04's exercises (expected values computed, never typed)."""

from __future__ import annotations

from collections import Counter

from lab.chunking import Document, MarkdownHeaderChunker
from lab.chunking.markdown_outline import find_fences
from lab.datasets.docs_corpus import load_docs_corpus
from lab.exercises.checking import Exercises

__all__ = ["exercise"]

AUDITED = "guides/building-a-schedule.md"
INFLATED = "### Weekly hours"


#: The checkers of the exercises at the end of lesson 04: ``exercise(1).check(...)``.
exercise = Exercises("lesson04")


def _markdown() -> MarkdownHeaderChunker:
    return MarkdownHeaderChunker(max_chars=1200, overlap_chars=150)


def _docs() -> dict[str, str]:
    return dict(load_docs_corpus())


@exercise.define(1)
def _audit() -> dict:
    chunks = _markdown().split(Document.from_markdown(_docs()[AUDITED], AUDITED))
    pieces = Counter(c.section for c in chunks)
    split = {section for section, n in pieces.items() if n > 1}
    return {"chunks": len(chunks), "split_section": split.pop() if len(split) == 1 else split,
            "longest_chars": max(len(c.body) for c in chunks)}


@exercise.define(2)
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


@exercise.define(3)
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
