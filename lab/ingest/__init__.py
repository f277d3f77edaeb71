"""The indexer: read the knowledge base through the client, chunk it and write chunks and vectors
into the index (:mod:`lab.index`), and keep it in sync, transactionally; ingest a folder of files
the same way, and switch the model that serves searches without a gap. Dense vectors come from
:mod:`lab.embedders` (multilingual-e5-small in process, the offline LSA) or a paid service.

>>> from lab.index import IndexStore
>>> from lab.ingest import full_index, incremental_sync
"""

from lab.ingest.deletion_guardrail import GuardrailError
from lab.ingest.files import (ChunkerRecipe, ChunkIdCollisionError, FileChunkers, FileNameError, FileNotReadableError,
                              FileNotTextError, FileTooLargeError, FolderNotFoundError, IngestReport, ingest_folder,
                              stale_chunks)
from lab.ingest.quick_sync import MissingPropertyError
from lab.ingest.reading import find_data_source, page_title, read_knowledge_base, request_breakdown
from lab.ingest.replanning import ConcurrentSyncError
from lab.ingest.serving import ModelSwitch, SwitchReport
from lab.ingest.sync import SyncConfig, SyncReport, cost_table, full_index, incremental_sync

__all__ = ["find_data_source", "page_title", "read_knowledge_base", "request_breakdown", "ConcurrentSyncError",
           "GuardrailError", "MissingPropertyError", "SyncConfig", "SyncReport", "cost_table", "full_index", "incremental_sync",
           "ChunkerRecipe", "ChunkIdCollisionError", "FileChunkers", "FileNameError", "FileNotReadableError",
           "FileNotTextError", "FileTooLargeError", "FolderNotFoundError", "IngestReport", "ingest_folder", "stale_chunks",
           "ModelSwitch", "SwitchReport"]
