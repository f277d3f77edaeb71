"""lab: a teaching lab for the ingestion half of retrieval-augmented generation.

The lessons in ``notebooks/`` import this package; every piece of logic they show lives here,
in a module whose name says what it does (``lab.notion``, ``lab.client``, ``lab.chunking``...).
"""

__version__ = "0.1.0"
