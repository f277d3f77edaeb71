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

__all__ = ["DEFAULT_PRICE", "ModelPrice"]


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
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")

    def cost(self, input_tokens: float = 0, output_tokens: float = 0) -> float:
        """Dollars for ``input_tokens`` read and ``output_tokens`` written by this model."""
        if input_tokens < 0 or output_tokens < 0:
            raise ValueError(f"token counts must be >= 0, got {input_tokens} in and {output_tokens} out")
        return (input_tokens * self.input_usd_per_million + output_tokens * self.output_usd_per_million) / 1_000_000


#: The default model's list price as the course's sources quote it: 2.00 USD per million input
#: tokens, 10.00 per million output tokens.
DEFAULT_PRICE = ModelPrice("claude-sonnet-5-5", 2.00, 10.00)
