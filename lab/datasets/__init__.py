"""The lab's data: page files and corpora under ``data/``, and the code that builds the lessons' inputs.

The two Notion workspaces are built from page files a teacher can edit without reading Python
(``data/pages/``, read by :mod:`~lab.datasets.notion_markdown`) and written to ``data/workspace/``
byte for byte, which a test checks: ``lab.datasets.bakery`` and ``lab.datasets.handbook``. The
docs corpus and the study notes are read from ``data/corpora/``.
"""

from pathlib import Path

#: The repository's root, and its ``data/`` folder, where every input lives (defined before the
#: loaders below, which read it).
REPO_ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = REPO_ROOT / "data"

from lab.datasets.docs_corpus import load_docs_corpus  # noqa: E402
from lab.datasets.study_notes import load_study_notes, load_study_session, note_documents  # noqa: E402

__all__ = ["REPO_ROOT", "DATA_DIR", "load_docs_corpus", "load_study_notes", "load_study_session", "note_documents"]
