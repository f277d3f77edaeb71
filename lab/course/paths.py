"""Where the lessons live and where they write what they generate: the repository's ``data/``.

The lessons run from a checkout: the notebooks, their exercises (``data/exercises/``) and their
outputs are the repository's, not the package's (the package's own data is
:data:`lab.datasets.PACKAGE_DATA`). Generated files (tables, figures, saved samples) go under
``data/`` by default. Setting the environment variable ``LAB_OUTPUT_DIR`` sends them elsewhere,
which is how the test suite regenerates every table into a temporary folder and compares it with
the committed one.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["REPO_ROOT", "DATA_DIR", "NOTEBOOKS_DIR", "output_dir", "tables_dir", "figures_dir", "samples_dir",
           "index_dir"]

#: The checkout's root (this file is ``lab/course/paths.py``), its lessons and its ``data/`` folder.
REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
DATA_DIR = REPO_ROOT / "data"

OUTPUT_ENV = "LAB_OUTPUT_DIR"


def output_dir() -> Path:
    """Root of generated outputs: ``$LAB_OUTPUT_DIR`` if set, else ``data/``."""
    override = os.environ.get(OUTPUT_ENV)
    return Path(override) if override else DATA_DIR


def _sub(name: str) -> Path:
    path = output_dir() / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def tables_dir() -> Path:
    """Folder for the CSV tables the lessons print (``data/tables/``)."""
    return _sub("tables")


def figures_dir() -> Path:
    """Folder for the charts the lessons draw (``data/figures/``)."""
    return _sub("figures")


def samples_dir() -> Path:
    """Folder for raw API responses a lesson saves for reading (``data/samples/``)."""
    return _sub("samples")


def index_dir() -> Path:
    """Folder for the SQLite indexes lessons build (``data/index/``, not committed)."""
    return _sub("index")
