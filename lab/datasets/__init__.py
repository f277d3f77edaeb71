"""The lab's data: page files and corpora under ``data/``, and the code that builds the lessons' inputs.

The two Notion workspaces are built from page files a teacher can edit without reading Python
(``data/pages/``, read by :mod:`~lab.datasets.notion_markdown`) and written to ``data/workspace/``
byte for byte, which a test checks: ``lab.datasets.bakery`` and ``lab.datasets.handbook``. The
docs corpus and the study notes are read from ``data/corpora/``.
"""
