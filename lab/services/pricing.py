"""What a model call costs, priced per model: a price without its model's name cannot be checked.

Prices change and differ by model, so the lab never multiplies tokens by a bare number: every
cost is computed from a :class:`ModelPrice`, which names the model it belongs to. The one the
lessons use is :data:`DEFAULT_PRICE`, the list price the course's sources quote for the model
the lab calls by default (:data:`lab.services.DEFAULT_MODEL`); check the provider's price page
before relying on it, and pass your own :class:`ModelPrice` where it differs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["DEFAULT_PRICE", "EmbeddingPrice", "ModelPrice", "RerankPrice", "VOYAGE_PRICES", "VOYAGE_RERANK_PRICES"]


def _check_rate(name: str, value: object) -> None:
    """A price per million tokens: a finite number >= 0 (``True`` is not a price)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")


@dataclass(frozen=True)
class ModelPrice:
    """US dollars per million input and per million output tokens of one model."""

    model: str
    input_usd_per_million: float
    output_usd_per_million: float

    def __post_init__(self) -> None:
        if not isinstance(self.model, str) or not self.model.strip():
            raise ValueError("a price names the model it belongs to, as in ModelPrice('claude-sonnet-5-5', 2.0, 10.0)")
        for name in ("input_usd_per_million", "output_usd_per_million"):
            _check_rate(name, getattr(self, name))

    def cost(self, input_tokens: float = 0, output_tokens: float = 0) -> float:
        """Dollars for ``input_tokens`` read and ``output_tokens`` written by this model."""
        if input_tokens < 0 or output_tokens < 0:
            raise ValueError(f"token counts must be >= 0, got {input_tokens} in and {output_tokens} out")
        return (input_tokens * self.input_usd_per_million + output_tokens * self.output_usd_per_million) / 1_000_000


#: The default model's list price as the course's sources quote it: 2.00 USD per million input
#: tokens, 10.00 per million output tokens.
DEFAULT_PRICE = ModelPrice("claude-sonnet-5-5", 2.00, 10.00)


@dataclass(frozen=True)
class EmbeddingPrice:
    """US dollars per million tokens an embedding model reads, and the discount its batch API gives.

    The batch API takes a file of requests and answers within hours instead of seconds: fit for
    a nightly re-index, not for a question waiting for its answer.
    """

    model: str
    usd_per_million: float
    batch_discount: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.model, str) or not self.model.strip():
            raise ValueError("an embedding price names its model, as in EmbeddingPrice('voyage-4', 0.06)")
        _check_rate("usd_per_million", self.usd_per_million)
        if not 0 <= self.batch_discount < 1:
            raise ValueError(f"batch_discount is a share from 0 to below 1, got {self.batch_discount!r}")

    def cost(self, tokens: float, batch: bool = False) -> float:
        """Dollars for embedding ``tokens`` tokens, through the batch API if ``batch``."""
        if tokens < 0:
            raise ValueError(f"tokens must be >= 0, got {tokens}")
        rate = self.usd_per_million * ((1 - self.batch_discount) if batch else 1)
        return tokens * rate / 1_000_000


#: Voyage AI's voyage-4 family as the course's sources quote its price page (October 2026): 0.12,
#: 0.06 and 0.02 USD per million tokens, a third off through the batch API (and 200 million free
#: tokens per account for the family, not counted here).
VOYAGE_PRICES: dict[str, EmbeddingPrice] = {
    model: EmbeddingPrice(model, usd, batch_discount=0.33)
    for model, usd in (("voyage-4-large", 0.12), ("voyage-4", 0.06), ("voyage-4-lite", 0.02))
}


@dataclass(frozen=True)
class RerankPrice:
    """US dollars per million tokens a reranker is billed for.

    A rerank request is billed as the query's tokens once for every passage plus every passage's
    tokens (:func:`lab.services.rerank_tokens`): the model reads the question again beside each one.
    """

    model: str
    usd_per_million: float

    def __post_init__(self) -> None:
        if not isinstance(self.model, str) or not self.model.strip():
            raise ValueError("a rerank price names its model, as in RerankPrice('rerank-2.5', 0.05)")
        _check_rate("usd_per_million", self.usd_per_million)

    def cost(self, tokens: float) -> float:
        """Dollars for ``tokens`` billed tokens of this reranker."""
        if tokens < 0:
            raise ValueError(f"tokens must be >= 0, got {tokens}")
        return tokens * self.usd_per_million / 1_000_000


#: Voyage AI's rerankers as its price page (docs.voyageai.com/docs/pricing) gives them: 0.05 USD per
#: million billed tokens for rerank-2.5, 0.02 for rerank-2.5-lite. Check the page before relying on them.
VOYAGE_RERANK_PRICES: dict[str, RerankPrice] = {
    model: RerankPrice(model, usd) for model, usd in (("rerank-2.5", 0.05), ("rerank-2.5-lite", 0.02))
}
