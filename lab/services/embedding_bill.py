"""What embedding a corpus with Voyage AI takes: requests under its limits, and dollars at either price.

The figures are the ones :mod:`lab.services.voyage` and :mod:`lab.services.pricing` keep, as the
course's sources quote Voyage AI's documentation and price page (checked in October 2026): a
request carries at most 1,000 texts and, for the voyage-4 family, 320,000 tokens; voyage-4 costs
0.06 USD per million tokens, and its batch API takes a third off. The free tokens of an account
are not counted. A model outside :data:`~lab.services.VOYAGE_PRICES` has no price here: pass
its :class:`~lab.services.EmbeddingPrice`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lab.services.pricing import VOYAGE_PRICES, EmbeddingPrice
from lab.services.voyage import VOYAGE_REQUEST_TEXTS, VOYAGE_REQUEST_TOKENS, voyage_family

__all__ = ["EmbeddingBill", "embedding_bill"]


@dataclass(frozen=True, kw_only=True)
class EmbeddingBill:
    """Embedding ``texts`` texts of ``tokens`` tokens in all with ``model``: the fewest requests its limits
    allow, and what it costs through the standard API (``usd``) and through the batch API (``usd_batch``)."""

    model: str
    family: str
    texts: int
    tokens: int
    requests: int
    usd: float
    usd_batch: float


def embedding_bill(texts: int, tokens: int, model: str = "voyage-4", price: EmbeddingPrice | None = None,
                   max_texts: int = VOYAGE_REQUEST_TEXTS) -> EmbeddingBill:
    """The bill for embedding ``texts`` texts holding ``tokens`` tokens with ``model``.

    ``requests`` is a lower bound: full requests of ``max_texts`` texts (1,000, the most the API takes)
    or of the family's tokens per request (:data:`~lab.services.VOYAGE_REQUEST_TOKENS`), whichever
    runs out first; texts of uneven length pack less tightly. ``price`` defaults to the model's in
    :data:`~lab.services.VOYAGE_PRICES`.
    """
    for name, value in (("texts", texts), ("tokens", tokens)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
    if price is None:
        if model not in VOYAGE_PRICES:
            raise LookupError(f"no price is kept for {model!r} (the lab keeps {', '.join(VOYAGE_PRICES)}); "
                              "pass price=EmbeddingPrice(model, usd_per_million, batch_discount)")
        price = VOYAGE_PRICES[model]
    family = voyage_family(model)
    per_request = VOYAGE_REQUEST_TOKENS.get(family)
    requests = math.ceil(texts / max_texts)
    if per_request is not None:
        requests = max(requests, math.ceil(tokens / per_request))
    return EmbeddingBill(model=model, family=family, texts=texts, tokens=tokens, requests=requests,
                         usd=price.cost(tokens), usd_batch=price.cost(tokens, batch=True))
