"""Paid services the lab calls only when their key is set: Voyage AI embeddings and reranking, and
the Anthropic Messages API (a reply can also be played back from a file, offline). Each retries
as :mod:`lab.retry` decides and never shows its key.

>>> from lab.services import voyage_from_env, missing_key_message, call_model
"""

from lab.services.anthropic import (DEFAULT_MODEL, ModelAnswer, ModelCallError, ModelRefusal, Skipped,
                                    call_model)
from lab.services.embedding_bill import EmbeddingBill, embedding_bill
from lab.services.pricing import (DEFAULT_PRICE, VOYAGE_PRICES, VOYAGE_RERANK_PRICES, EmbeddingPrice, ModelPrice,
                                  RerankPrice)
from lab.services.recorded import (RecordedReplies, RecordedReply, RecordedSession, RecordingError,
                                   RecordingExhausted, RecordingMismatch, read_replies)
from lab.services.voyage_rerank import (VOYAGE_RERANK_URL, RerankError, RerankReplyError, VoyageReranker,
                                        read_scores, rerank_tokens, reranker_from_env)
from lab.services.voyage import (VOYAGE_INPUT_TOKENS, VOYAGE_REQUEST_TEXTS, VOYAGE_REQUEST_TOKENS, EmbeddingError,
                                 EmbeddingResult, VoyageEmbedder, missing_key_message, request_batches,
                                 same_vector_space, voyage_family, voyage_from_env)

__all__ = ["DEFAULT_MODEL", "DEFAULT_PRICE", "ModelPrice", "ModelAnswer", "ModelCallError", "ModelRefusal", "Skipped",
           "call_model", "EmbeddingBill", "embedding_bill", "EmbeddingError", "EmbeddingResult", "VoyageEmbedder", "missing_key_message",
           "voyage_from_env", "VOYAGE_INPUT_TOKENS", "EmbeddingPrice", "VOYAGE_PRICES", "VOYAGE_REQUEST_TEXTS",
           "VOYAGE_REQUEST_TOKENS", "request_batches", "same_vector_space", "voyage_family", "VOYAGE_RERANK_URL", "RerankError", "VoyageReranker",
           "reranker_from_env", "RecordedSession", "RecordingExhausted", "RecordedReplies", "RecordedReply",
           "RecordingError", "RecordingMismatch", "read_replies", "RerankReplyError", "read_scores", "rerank_tokens",
           "RerankPrice", "VOYAGE_RERANK_PRICES"]
