"""Rich text as Notion returns it: a list of runs, each at most 2,000 characters."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["MAX_RUN_CHARS", "rich_text", "plain_text"]

MAX_RUN_CHARS = 2000

_DEFAULT_ANNOTATIONS = ("bold", "italic", "strikethrough", "underline", "code")


def _run(content: str, bold: bool = False, italic: bool = False, code: bool = False,
         link: str | None = None) -> dict[str, Any]:
    return {
        "type": "text",
        "text": {"content": content, "link": {"url": link} if link else None},
        "annotations": {"bold": bold, "italic": italic, "strikethrough": False, "underline": False,
                        "code": code, "color": "default"},
        "plain_text": content,
        "href": link,
    }


def rich_text(spec: str | list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Runs for a text given as a string or as ``[{"text": ..., "bold": True}, ...]``.

    A run longer than 2,000 characters is cut into several runs, as Notion does, so readers
    must concatenate ``plain_text`` rather than read the first run.
    """
    if spec is None or spec == "":
        return []
    pieces = [{"text": spec}] if isinstance(spec, str) else spec
    runs = []
    for piece in pieces:
        content = piece["text"]
        for start in range(0, len(content), MAX_RUN_CHARS):
            runs.append(_run(content[start:start + MAX_RUN_CHARS], bool(piece.get("bold")),
                             bool(piece.get("italic")), bool(piece.get("code")), piece.get("link")))
    return runs


def plain_text(runs: Iterable[Mapping[str, Any]] | None) -> str:
    """The text of a rich-text list: the concatenation of every run's ``plain_text``."""
    return "".join(run.get("plain_text", "") for run in runs or ())
