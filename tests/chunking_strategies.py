"""Hypothesis strategies for the chunking tests: prose, markdown pages and Notion block streams."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from notion_blocks import Blocks

WORDS = st.sampled_from([
    "pan", "masa", "horno", "canela", "nuez", "48", "horas", "shift", "team", "rule", "café", "año",
    "x", "a", "y", "ÜBER", "naïve", "3.5", "e-mail", "(nota)", "¿qué?", "¡sí!", "$38", "50 %", "退款", "审批",
])
PUNCT = st.sampled_from([".", "?", "!", "。", "？", "！", ",", ";", ":", ""])
SPACES = st.sampled_from([" ", " ", " ", "  ", "\t"])


@st.composite
def sentence(draw: st.DrawFn, max_words: int = 14) -> str:
    words = draw(st.lists(WORDS, min_size=1, max_size=max_words))
    return draw(SPACES).join(words) if len(words) > 1 and draw(st.booleans()) else " ".join(words)


@st.composite
def paragraph(draw: st.DrawFn, max_sentences: int = 8) -> str:
    parts = draw(st.lists(st.tuples(sentence(), PUNCT), min_size=1, max_size=max_sentences))
    joiner = draw(st.sampled_from([" ", "\n", ""]))
    return joiner.join(text + mark for text, mark in parts)


@st.composite
def fence(draw: st.DrawFn) -> str:
    marker = draw(st.sampled_from(["```", "~~~", "````"]))
    lines = draw(st.lists(st.sampled_from([
        "# a comment", "## not a header", "def f(x):", "    return x + 1", "\tindented with a tab", "",
        "print('hola')", "### still code",
    ]), min_size=1, max_size=12))
    return f"{marker}{draw(st.sampled_from(['', 'python', 'bash']))}\n" + "\n".join(lines) + f"\n{marker}"


@st.composite
def table(draw: st.DrawFn) -> str:
    rows = draw(st.integers(1, 25))
    width = draw(st.integers(2, 4))
    header = "| " + " | ".join(f"col {k}" for k in range(width)) + " |"
    rule = "| " + " | ".join("---" for _ in range(width)) + " |"
    body = [f"| " + " | ".join(draw(sentence(3)) for _ in range(width)) + " |" for _ in range(rows)]
    return "\n".join([header, rule, *body])


BLOCK_GAP = st.sampled_from(["\n\n", "\n\n\n", "\n  \n", "\n\t\n\n"])


@st.composite
def markdown_page(draw: st.DrawFn) -> str:
    """A markdown page with an optional publication comment, a title, and ## / ### sections."""
    parts = []
    comment = draw(st.sampled_from([
        "", "<!-- url: /guides/x | version: 1.0 | updated: 2026-03-02 -->\n", "<!-- url: /api/y -->\n",
    ]))
    if draw(st.booleans()):
        parts.append("# " + draw(sentence(4)))
    blocks = st.one_of(paragraph(), fence(), table(), st.builds(lambda s: "- " + s, sentence()))
    for _ in range(draw(st.integers(0, 5))):
        if draw(st.booleans()):
            parts.append(draw(st.sampled_from(["## ", "### "])) + draw(sentence(3)))
        parts.extend(draw(st.lists(blocks, min_size=0, max_size=4)))
    text = ""
    for part in parts:
        text += (draw(BLOCK_GAP) if text else "") + part
    return comment + text + draw(st.sampled_from(["", "\n", "\n\n"]))


TEXT_TYPES = ["paragraph", "bulleted_list_item", "numbered_list_item", "to_do", "toggle", "callout", "quote"]


@st.composite
def block_stream(draw: st.DrawFn) -> list[tuple[int, dict[str, Any]]]:
    """A page traversal: headings, text blocks, code and tables at valid depths."""
    factory = Blocks()
    stream: list[tuple[int, dict[str, Any]]] = []
    depth_limit = 0
    for _ in range(draw(st.integers(0, 30))):
        depth = draw(st.integers(0, depth_limit))
        kind = draw(st.sampled_from(TEXT_TYPES + ["heading", "code", "table", "divider"]))
        if kind == "heading":
            node = factory.heading(draw(st.integers(1, 3)), draw(sentence(4)))
        elif kind == "code":
            node = factory.code(draw(fence())[4:-4] or "x = 1")
        elif kind == "table":
            node = factory.table([[draw(sentence(3)) for _ in range(2)] for _ in range(draw(st.integers(1, 6)))])
        elif kind == "divider":
            node = factory.divider()
        else:
            node = factory.text_block(kind, draw(st.one_of(paragraph(4), st.just(""))))
        stream.append((depth, node.block))
        stream.extend((depth + 1, child.block) for child in node.children)
        depth_limit = depth + 1 if kind in TEXT_TYPES else depth
    return stream
