"""The SQLite index: chunks with their text, each model's vectors, plus sync state, in one file.

One file holds everything retrieval and sync need, and :class:`IndexStore` is its one door. Its
parts live in modules of their own, each what changes together: the file and its transactions
(:mod:`~lab.index.database`, with the tables in :mod:`~lab.index.schema`), chunks and dense
vectors (:mod:`~lab.index.chunk_rows`), term counts (:mod:`~lab.index.term_count_rows`), pages,
watermark and runs (:mod:`~lab.index.sync_state`), what a run gathers before it publishes
(:mod:`~lab.index.staging`), files runs and the serving model
(:mod:`~lab.index.file_runs`), fitted search states (:mod:`~lab.index.searcher_states`) and
upkeep (:mod:`~lab.index.upkeep`).
"""

from __future__ import annotations

from lab.index.chunk_rows import ChunkRows
from lab.index.database import IndexDatabase
from lab.index.file_runs import FileRuns
from lab.index.searcher_states import SearcherStates
from lab.index.staging import Staging
from lab.index.sync_state import SyncState
from lab.index.term_count_rows import TermCountRows
from lab.index.upkeep import Upkeep

__all__ = ["IndexStore"]


class IndexStore(ChunkRows, TermCountRows, SyncState, Staging, FileRuns, SearcherStates, Upkeep, IndexDatabase):
    """An index in one SQLite file (``":memory:"`` for a throwaway one).

    Opening a file written by another schema version raises :class:`~lab.index.SchemaVersionError`
    instead of reading (or worse, writing) it with the wrong assumptions.
    """
