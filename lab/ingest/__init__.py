"""The indexer: read the knowledge base through the client, store chunks and vectors in SQLite,
fit the models over them, and keep the index in sync, transactionally; ingest a folder of files
the same way, and switch the model that serves searches without a gap. Dense vectors come from a
paid service, the offline LSA, or multilingual-e5-small run in process (:class:`E5Embedder`).

>>> from lab.ingest import IndexStore, full_index, incremental_sync
"""

from lab.ingest.deletion_guardrail import GuardrailError
from lab.ingest.e5_embedder import E5Embedder, EmbeddingInputError, ModelUnavailableError, ProgressBar, e5_unavailable_reason
from lab.ingest.embedding_batches import EmbeddedTexts, EmbeddingError, embed_in_batches
from lab.ingest.files import (ChunkerRecipe, ChunkIdCollisionError, FileChunkers, FileNotReadableError, FileNotTextError, FolderNotFoundError, IngestReport,
                              ingest_folder, stale_chunks)
from lab.ingest.indexing import OfflineIndex, ask_index
from lab.ingest.models import TFIDF_MODEL, CorpusModels, DenseVectors, lsa_model_name, stored_tfidf
from lab.ingest.offline_embedder import LsaEmbedder
from lab.ingest.reading import find_data_source, page_title, read_knowledge_base, request_breakdown
from lab.ingest.replanning import ConcurrentSyncError
from lab.ingest.serving import (ModelNotServingError, ModelSwitch, NoSwitchError, QueryVector, SwitchPendingError,
                                SwitchReport, search_serving)
from lab.ingest.store import IndexStore, ModelMismatchError, SchemaVersionError, StoreError
from lab.ingest.sync import SyncConfig, SyncReport, cost_table, full_index, incremental_sync

__all__ = ["TFIDF_MODEL", "CorpusModels", "DenseVectors", "lsa_model_name", "stored_tfidf", "OfflineIndex",
           "ask_index", "find_data_source", "page_title", "read_knowledge_base", "request_breakdown", "IndexStore",
           "ModelMismatchError", "SchemaVersionError", "StoreError", "ConcurrentSyncError", "GuardrailError",
           "SyncConfig", "SyncReport", "cost_table", "full_index", "incremental_sync",
           "EmbeddedTexts", "EmbeddingError", "embed_in_batches", "ChunkerRecipe", "ChunkIdCollisionError", "FileChunkers", "FileNotReadableError", "FileNotTextError",
           "FolderNotFoundError", "IngestReport", "ingest_folder", "stale_chunks", "LsaEmbedder", "E5Embedder",
           "EmbeddingInputError", "ModelUnavailableError", "ProgressBar", "e5_unavailable_reason", "ModelNotServingError", "ModelSwitch", "NoSwitchError",
           "QueryVector", "SwitchPendingError", "SwitchReport", "search_serving"]
