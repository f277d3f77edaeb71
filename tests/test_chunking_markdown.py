"""Markdown header chunking: sections, sub-splitting with overlap, metadata, tables and fences."""

from __future__ import annotations

import re
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunking_strategies import markdown_page
from lab.chunking import ChunkerParameterError, Document, MarkdownHeaderChunker, parse_outline
from lab.datasets.docs_corpus import load_docs_corpus

PAGE = """<!-- url: /guides/quickstart | version: 2.3 | updated: 2026-03-02 -->
# Quickstart

Shiftloom plans shifts.

## Install

Run the installer.

```bash
# a comment, not a header
## also code
pip install shiftloom
```

### On Linux

Use the package manager.
"""


def chunk(markdown: str, path: str = "guides/quickstart.md", **params) -> list:
    return MarkdownHeaderChunker(**params).split(Document.from_markdown(markdown, path))


def test_sections_follow_the_headers_with_a_breadcrumb_prefix() -> None:
    lead, install, linux = chunk(PAGE)
    assert (lead.section, install.section, linux.section) == (None, "Install", "Install > On Linux")
    assert lead.text == "[Quickstart]\nShiftloom plans shifts."
    assert install.text.startswith("[Quickstart > Install]\nRun the installer.")
    assert linux.text == "[Quickstart > Install > On Linux]\nUse the package manager."


def test_a_fenced_hash_comment_stays_inside_its_section() -> None:
    install = chunk(PAGE)[1]
    assert "# a comment, not a header\n## also code\npip install shiftloom" in install.body
    assert [s.title for s in parse_outline(PAGE).sections] == [None, "Install", "On Linux"]


def test_tilde_fences_and_longer_fences_also_hide_headers() -> None:
    page = "# T\n\n## A\n\n~~~\n## inside\n~~~\n\n````\n```\n# inside too\n```\n````\n\n## B\n\nb"
    assert [c.section for c in chunk(page)] == ["A", "B"]


def test_an_unclosed_fence_runs_to_the_end_of_the_page() -> None:
    page = "# T\n\n## A\n\n```\n## not a header\n# nor this"
    (only,) = chunk(page)
    assert only.section == "A" and only.body.endswith("# nor this")


def test_the_publication_comment_gives_url_version_and_update() -> None:
    first = chunk(PAGE)[0]
    assert first.source == {"path": "guides/quickstart.md", "url": "/guides/quickstart", "version": "2.3",
                            "updated": "2026-03-02", "fallbacks": []}
    assert first.edited == "2026-03-02" and first.type == "guides" and first.page_id == "guides-quickstart"


def test_missing_publication_fields_fall_back_and_say_so() -> None:
    partial = chunk("<!-- url: /api/hooks -->\n# Hooks\n\ntext", "api/webhooks.md")[0]
    assert partial.source == {"path": "api/webhooks.md", "url": "/api/hooks", "version": "unversioned",
                              "updated": None, "fallbacks": ["version", "updated"]}
    bare = chunk("# Sync\n\ntext", "integrations/calendar-sync.md")[0]
    assert (bare.source["url"], bare.source["version"], bare.edited) == (
        "/integrations/calendar-sync", "unversioned", None)
    assert bare.source["fallbacks"] == ["url", "version", "updated"]


def test_a_page_without_a_title_line_is_named_after_its_file() -> None:
    assert chunk("## Intro\n\nhello", "guides/time-off.md")[0].title == "Time off"


def test_ids_are_deterministic_url_section_and_index() -> None:
    assert [c.id for c in chunk(PAGE)] == [
        "guides-quickstart--_--00", "guides-quickstart--install--00", "guides-quickstart--install-on-linux--00"]
    assert [c.id for c in chunk(PAGE)] == [c.id for c in chunk(PAGE)]


def test_a_repeated_section_title_gets_a_numbered_slug() -> None:
    ids = [c.id for c in chunk("# T\n\n## Example\n\na\n\n## Example\n\nb")]
    assert ids == ["guides-quickstart--example--00", "guides-quickstart--example-2--00"]


def test_editing_one_section_leaves_the_other_sections_ids_and_fingerprints() -> None:
    longer = PAGE.replace("Run the installer.", "Run the installer. " * 200)
    before = {c.id: c.fingerprint for c in chunk(PAGE) if c.section != "Install"}
    after = {c.id: c.fingerprint for c in chunk(longer) if c.section != "Install"}
    assert before == after
    assert len([c for c in chunk(longer) if c.section == "Install"]) > 1


def test_a_long_section_is_cut_on_paragraphs_with_overlap_on_a_word_boundary() -> None:
    paragraphs = [f"Paragraph {k} talks about rule number {k} and why it matters for the team." for k in range(40)]
    page = "# Rules\n\n## All rules\n\n" + "\n\n".join(paragraphs) + "\n"
    chunks = chunk(page, max_chars=300, overlap_chars=60)
    assert len(chunks) > 5
    for prev, nxt in zip(chunks, chunks[1:]):
        shared = prev.end - nxt.start
        assert 0 < shared <= 60
        assert page[nxt.start - 1].isspace() and not page[nxt.start].isspace()
        assert nxt.body.startswith(page[nxt.start:prev.end])
    assert all(len(c.body) <= 300 for c in chunks)


def test_the_overlap_prefers_to_start_at_a_sentence() -> None:
    text = " ".join(f"Sentence {k} is short." for k in range(60))
    chunks = chunk(f"# T\n\n## S\n\n{text}", max_chars=200, overlap_chars=50)
    assert all(re.match(r"Sentence \d+ is short\.", c.body) for c in chunks)


def test_the_overlap_never_crosses_a_header() -> None:
    page = "# T\n\n## First\n\n" + "alpha " * 200 + "\n\n## Second\n\n" + "beta " * 200
    chunks = chunk(page, max_chars=250, overlap_chars=100)
    second = [c for c in chunks if c.section == "Second"]
    assert "alpha" not in second[0].body and second[0].start > page.index("## Second")
    assert all("beta" not in c.body for c in chunks if c.section == "First")


def test_a_table_split_across_pieces_repeats_its_header_row_and_rule() -> None:
    rows = "\n".join(f"| plan {k} | {k * 10} USD per seat |" for k in range(60))
    page = f"# Billing\n\n## Plans\n\nPrices below.\n\n| Plan | Price |\n| --- | --- |\n{rows}\n"
    chunks = chunk(page, max_chars=400, overlap_chars=50)
    assert len(chunks) > 3
    assert chunks[0].text.count("| Plan | Price |") == 1
    for piece in chunks[1:]:
        assert piece.text.startswith("[Billing > Plans]\n| Plan | Price |\n| --- | --- |\n| plan ")
        assert piece.body.startswith("| plan ")  # the overlap starts on a row, and body stays a slice


def test_a_long_paragraph_is_cut_on_sentences_then_words() -> None:
    paragraph = "This sentence is about shifts and rules. " * 40 + "word " * 100
    chunks = chunk(f"# T\n\n## S\n\n{paragraph}", max_chars=200, overlap_chars=0)
    sentence_pieces = [c for c in chunks if "word" not in c.body]
    assert all(c.body.endswith("rules.") for c in sentence_pieces)
    assert all(len(c.body) <= 200 for c in chunks)


def test_wrapped_prose_is_cut_at_sentence_ends_not_at_its_line_breaks() -> None:
    prose = " ".join(f"Sentence {k} explains one more detail of the weekly schedule." for k in range(30))
    wrapped = textwrap.fill(prose, width=70)  # hard-wrapped at 70 columns, as docs often are
    assert wrapped.count("\n") > 20
    chunks = chunk(f"# T\n\n## S\n\n{wrapped}\n", max_chars=300, overlap_chars=80)
    assert len(chunks) > 3
    assert all(c.body.endswith("schedule.") for c in chunks)
    assert all(c.body.startswith("Sentence") for c in chunks)


def test_a_long_list_is_cut_between_its_items() -> None:
    items = "\n".join(f"- Item {k}: a member can swap this shift with a colleague" for k in range(30))
    chunks = chunk(f"# T\n\n## S\n\n{items}\n", max_chars=300, overlap_chars=80)
    assert len(chunks) > 3
    assert all(line.startswith("- Item ") for c in chunks for line in c.body.split("\n"))


def test_chinese_sentences_are_cut_after_their_full_stops() -> None:
    text = ("退款需要主管审批。审批通过后三个工作日到账！" "如何查询进度？请在后台查看。") * 12
    chunks = chunk(f"# 手册\n\n## 退款\n\n{text}", max_chars=60, overlap_chars=0)
    assert len(chunks) > 1
    assert all(c.body[-1] in "。？！" for c in chunks)


def test_a_word_longer_than_the_budget_is_cut_as_a_last_resort() -> None:
    url = "https://example.com/" + "x" * 500
    chunks = chunk(f"# T\n\n## Links\n\n{url}", max_chars=100, overlap_chars=10)
    assert "".join(c.body for c in chunks) == url and all(len(c.body) <= 100 for c in chunks)


def test_a_fenced_block_longer_than_the_budget_is_kept_whole_and_alone() -> None:
    code = "```python\n" + "\n".join(f"x{k} = {k}  # step {k}" for k in range(40)) + "\n```"
    page = f"# T\n\n## Code\n\nBefore the code.\n\n{code}\n\nAfter the code."
    chunks = chunk(page, max_chars=200, overlap_chars=50)
    assert [c.body for c in chunks] == ["Before the code.", code, "After the code."]


def test_whitespace_and_code_indentation_are_preserved() -> None:
    code = "```python\ndef f(x):\n\tif x:\n\t\treturn  x\n    return 0\n```"
    page = f"# T\n\n## S\n\n  - nested  item\n\n{code}\n"
    (only,) = chunk(page)
    assert only.body == f"  - nested  item\n\n{code}"


@pytest.mark.parametrize(("size", "overlap"), [(0, 0), (100, 100), (100, -5)])
def test_budgets_that_cannot_advance_are_refused(size: int, overlap: int) -> None:
    with pytest.raises(ChunkerParameterError, match="overlap_chars|max_chars"):
        chunk(PAGE, max_chars=size, overlap_chars=overlap)


def _structure_lines(page: str) -> list[tuple[int, int]]:
    outline = parse_outline(page)
    return [*outline.headers, (0, outline.comment_end)]


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(markdown_page(), st.integers(20, 400), st.data())
def test_every_character_lands_in_a_chunk_within_its_section_and_budget(page, size, data) -> None:
    overlap = data.draw(st.integers(0, size - 1))
    chunks = chunk(page, max_chars=size, overlap_chars=overlap)
    outline = parse_outline(page)
    assert len({c.id for c in chunks}) == len(chunks)
    covered = bytearray(len(page))
    for c in chunks:
        assert page[c.start:c.end] == c.body
        if len(c.body) > size:  # only a single fenced block may exceed the budget
            assert (c.start, c.end) in outline.fences
        for k in range(c.start, c.end):
            covered[k] = 1
    for start, end in _structure_lines(page):
        for k in range(start, end):
            covered[k] = 1
    assert all(covered[k] or ch.isspace() for k, ch in enumerate(page))
    for c in chunks:  # the chunk stays inside its section's region, so no overlap crosses a header
        assert any(low <= c.start and c.end <= high for name, low, high in
                   ((" > ".join(s.path) or None, s.body_start, s.body_end) for s in outline.sections)
                   if name == c.section)
    for prev, nxt in zip(chunks, chunks[1:]):
        if prev.section == nxt.section and prev.id.split("--")[1] == nxt.id.split("--")[1]:
            assert nxt.start > prev.start and prev.end - nxt.start <= overlap


def test_the_docs_corpus_chunks_within_budget_with_two_long_sections_split() -> None:
    chunker = MarkdownHeaderChunker()
    chunks = [c for path, text in load_docs_corpus() for c in chunker.split(Document.from_markdown(text, path))]
    assert all(len(c.body) <= 1200 for c in chunks)
    per_section = {}
    for c in chunks:
        per_section.setdefault((c.page_id, c.section), []).append(c)
    split = sorted(key for key, pieces in per_section.items() if len(pieces) > 1)
    assert len(split) >= 2
    assert ("admin-members-and-roles", "Permission matrix") in split
    matrix = per_section[("admin-members-and-roles", "Permission matrix")]
    assert all(piece.text.split("\n")[1].startswith("| Permission | Owner |") for piece in matrix[1:])
