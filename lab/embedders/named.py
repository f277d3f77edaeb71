"""The offline dense models by the names their vectors are stored under, each answering from the
vectors the lab keeps of its own texts first (:mod:`lab.embedders.cache`)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lab.embedders.cache import CachedEmbedder, EmbeddingCache
from lab.embedders.e5 import E5_MAX_TOKENS, E5_VARIANTS, E5Embedder

__all__ = ["E5_MODEL", "KNOWN_DIR", "known_embeddings", "e5_embedder", "embedder_named", "OFFLINE_MODELS"]

#: The name multilingual-e5-small's vectors are stored under: the recipe the lessons tune fuses it.
E5_MODEL = E5_VARIANTS["original"]
#: The vectors of the lab's own texts, one file per model, shipped with the package.
KNOWN_DIR = Path(__file__).resolve().parent / "known"
#: Every dense model the lab runs itself, by stored name.
OFFLINE_MODELS = tuple(E5_VARIANTS.values())


@lru_cache(maxsize=None)
def known_embeddings(model: str) -> EmbeddingCache:
    """The cache of ``model``'s vectors of the lab's texts (empty if none ship), one per process."""
    return EmbeddingCache(KNOWN_DIR / f"{model}.npz")


def e5_embedder(variant: str = "original") -> CachedEmbedder:
    """multilingual-e5-small (or its English/Portuguese variant) answering from the kept vectors first;
    the model is loaded only for a text they lack."""
    if variant not in E5_VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(map(repr, E5_VARIANTS))}, not {variant!r}")
    name = E5_VARIANTS[variant]
    return CachedEmbedder(name, lambda: E5Embedder(variant), known_embeddings(name), E5_MAX_TOKENS)


def embedder_named(name: str) -> CachedEmbedder:
    """The offline dense model whose vectors are stored as ``name`` (a paid model needs its key and its client)."""
    for variant, model in E5_VARIANTS.items():
        if model == name:
            return e5_embedder(variant)
    raise LookupError(f"no offline dense model is named {name!r}; the lab runs {', '.join(OFFLINE_MODELS)} "
                      "(Voyage AI's models need VOYAGE_API_KEY and lab.services.voyage_from_env)")
