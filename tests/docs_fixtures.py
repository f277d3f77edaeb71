"""Fixtures shared by the tests that ingest the docs corpus (a folder of markdown, PDF and HTML files):
an embedder fitted once per test process, a fresh copy of the folder and an empty index for each test.

A test module imports the fixtures it uses (``from tests.docs_fixtures import embedder, folder``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lab.datasets.docs_corpus import DOCS_DIR, load_docs_corpus
from lab.embedders import LsaEmbedder
from lab.index import IndexStore

__all__ = ["embedder", "folder", "store"]


@pytest.fixture(scope="session")
def embedder() -> LsaEmbedder:
    """A small LSA model fitted on the corpus's paragraphs: deterministic and fast, enough to tell chunks apart."""
    paragraphs = [p for _, text in load_docs_corpus() for p in text.split("\n\n") if p.strip()]
    return LsaEmbedder(n_components=16).fit(paragraphs)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A copy of the docs corpus the test may edit."""
    return Path(shutil.copytree(DOCS_DIR, tmp_path / "docs"))


@pytest.fixture
def store() -> IndexStore:
    """An empty in-memory index."""
    return IndexStore(":memory:")
