"""Paid services the lab calls only when their key is set: Voyage AI embeddings (and, through
:mod:`lab.memory`, the Anthropic API).

>>> from lab.services import voyage_from_env, missing_key_message
"""

from lab.services.voyage import EmbeddingError, EmbeddingResult, VoyageEmbedder, missing_key_message, voyage_from_env

__all__ = ["EmbeddingError", "EmbeddingResult", "VoyageEmbedder", "missing_key_message", "voyage_from_env"]
