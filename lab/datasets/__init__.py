"""The lab's data, shipped inside the package, and the code that builds the lessons' inputs.

Everything the library reads at run time lives under ``lab/datasets/data/`` and is found with
:mod:`importlib.resources`, so it is the same in a checkout and in an installed wheel (as
scikit-learn ships ``sklearn/datasets/data/``): the page files a teacher edits (``pages/``,
read by :mod:`~lab.datasets.notion_markdown`), the workspace specs built from them
(``workspace/``, written byte for byte by ``lab.datasets.bakery`` and ``lab.datasets.handbook``,
which a test checks), the docs corpus and the study notes (``corpora/``), and the labelled
questions (``questions/``). What the lessons write (tables, figures, samples) is not package
data: it stays in the repository's ``data/`` (see :mod:`lab.course.paths`).
"""

from lab.datasets.package_data import PACKAGE_DATA, PackageDataError

from lab.datasets.docs_corpus import load_docs_corpus  # noqa: E402
from lab.datasets.study_notes import load_study_notes, load_study_session, note_documents  # noqa: E402

__all__ = ["PACKAGE_DATA", "PackageDataError", "load_docs_corpus", "load_study_notes", "load_study_session",
           "note_documents"]
