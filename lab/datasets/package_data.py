"""Where the package's own data is: ``lab/datasets/data/``, found through :mod:`importlib.resources`.

A checkout (the editable install ``make`` sets up) and an installed wheel give the same answer,
so the lessons, the tests and a user's ``bakery_workspace()`` in another folder read the same
files. The page builders write the workspace specs back to the same place in a checkout.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from lab.errors import LabError

__all__ = ["PACKAGE_DATA", "PackageDataError"]


class PackageDataError(LabError, FileNotFoundError):
    """The package's data is missing or not on disk (an install that left it out, or a zip import)."""


def _data_root() -> Path:
    root = files("lab.datasets") / "data"
    if not isinstance(root, Path):  # a zip import gives a Traversable: the loaders need real files
        raise PackageDataError(f"lab's data is inside an archive ({root}); install the package as files, "
                               "e.g. with pip install, rather than importing it from a zip")
    return root


#: ``lab/datasets/data/``: page files, workspace specs, corpora and labelled questions.
PACKAGE_DATA: Path = _data_root()

