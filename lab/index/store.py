"""The SQLite index: chunks with their text, each model's vectors, plus sync state, in one file.

One file holds everything retrieval and sync need, and :class:`IndexStore` is its one door. Its
parts live in modules of their own, each what changes together: the file and its transactions
(:mod:`~lab.index.database`, with the tables in :mod:`~lab.index.schema`), chunks and dense
vectors (:mod:`~lab.index.chunk_rows`), term counts (:mod:`~lab.index.term_count_rows`), pages,
watermark and runs (:mod:`~lab.index.sync_state`), what a run gathers before it publishes
(:mod:`~lab.index.staging`), files runs and the serving model
(:mod:`~lab.index.file_runs`), fitted search states (:mod:`~lab.index.searcher_states`) and
upkeep (:mod:`~lab.index.upkeep`).

The same store keeps an index in PostgreSQL when it is given a ``postgresql://`` URL instead of a
path (:mod:`~lab.index.postgres`): one workspace per schema, the same statements said in
PostgreSQL's SQL (:mod:`~lab.index.postgres_sql`).
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
    """An index in one SQLite file (``":memory:"`` for a throwaway one), or in a workspace of a PostgreSQL
    database (``"postgresql://user@host/db?workspace=bakery"``; the default workspace without one).

    Opening a file written by another schema version raises :class:`~lab.index.SchemaVersionError`
    instead of reading (or worse, writing) it with the wrong assumptions; one of the version before is
    migrated first (:mod:`~lab.index.migrations`).
    """
