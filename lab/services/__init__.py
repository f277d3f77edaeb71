"""Paid services the lab calls only when their key is set: Voyage AI embeddings and the
Anthropic Messages API. Both retry as :mod:`lab.retry` decides and never show their key.

>>> from lab.services import voyage_from_env, missing_key_message, call_model
"""

from lab.services.anthropic import (DEFAULT_MODEL, ModelAnswer, ModelCallError, ModelRefusal, Skipped,
                                    call_model)
from lab.services.pricing import DEFAULT_PRICE, ModelPrice
from lab.services.voyage import (VOYAGE_INPUT_TOKENS, EmbeddingError, EmbeddingResult, VoyageEmbedder,
                                 missing_key_message, voyage_from_env)

__all__ = ["DEFAULT_MODEL", "DEFAULT_PRICE", "ModelPrice", "ModelAnswer", "ModelCallError", "ModelRefusal", "Skipped",
           "call_model", "EmbeddingError", "EmbeddingResult", "VoyageEmbedder", "missing_key_message", "voyage_from_env", "VOYAGE_INPUT_TOKENS"]
