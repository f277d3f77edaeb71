"""The index: one SQLite file (or a PostgreSQL workspace) of chunks, each model's vectors or term counts, pages and sync state,
and the models an index stores (TF-IDF as term counts, LSA and dense embedders as float32 rows).

The indexer (:mod:`lab.ingest`) writes it and retrieval (:mod:`lab.retrieval`) reads it; both
import it from here.

>>> from lab.index import IndexStore
"""

from lab.index.errors import (IndexOpenError, ModelMismatchError, SchemaVersionError, StoreError, database_errors,
                              is_damaged, open_failure)
from lab.index.file_runs import IngestedFile
from lab.index.models import TFIDF_MODEL, CorpusModels, DenseVectors, stored_tfidf
from lab.index.schema import CHUNK_FIELDS, SCHEMA_VERSION
from lab.index.store import IndexStore
from lab.index.serving import (ModelNotServingError, NoSwitchError, QueryVector, SwitchPendingError, dense_models,
                               require_dense_model, require_serving)
from lab.index.staging import StagedPage
from lab.index.sync_state import IndexedPage, IndexSnapshot
from lab.index.term_count_rows import TermCounts

__all__ = ["IndexStore", "IndexedPage", "IndexSnapshot", "StagedPage", "TermCounts", "IngestedFile", "StoreError",
           "SchemaVersionError", "IndexOpenError", "ModelMismatchError", "SCHEMA_VERSION", "CHUNK_FIELDS",
           "open_failure", "is_damaged", "database_errors", "TFIDF_MODEL", "CorpusModels", "DenseVectors", "stored_tfidf", "QueryVector", "ModelNotServingError",
           "SwitchPendingError", "NoSwitchError", "require_serving", "dense_models", "require_dense_model"]
