"""The docs corpus: markdown pages of a fictional team-scheduling product, Shiftloom.

Eleven pages under ``lab/datasets/data/corpora/docs/`` (``guides/``, ``admin/``, ``api/``,
``integrations/``), each normally opening with a publication comment
``<!-- url: ... | version: ... | updated: ... -->``; one page has no comment and one a
partial one, so the chunker's fallbacks show. Written by hand.
"""

from __future__ import annotations

from pathlib import Path

from lab.datasets.package_data import PACKAGE_DATA

__all__ = ["DOCS_DIR", "load_docs_corpus"]

DOCS_DIR = PACKAGE_DATA / "corpora" / "docs"


def load_docs_corpus(root: Path = DOCS_DIR) -> list[tuple[str, str]]:
    """``(path, markdown)`` for every ``.md`` file under ``root``, paths relative and POSIX, sorted."""
    root = Path(root)
    files = sorted(root.rglob("*.md"), key=lambda p: p.relative_to(root).as_posix())
    # Decoding the bytes (no newline translation) keeps the text as written, so chunk offsets match the files exactly.
    return [(p.relative_to(root).as_posix(), p.read_bytes().decode("utf-8")) for p in files]
