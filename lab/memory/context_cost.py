"""What a stateless model is sent each turn under three memory strategies, and what it costs.

The model keeps nothing between calls, so every turn re-sends whatever the program decides to
remember. With ``p`` tokens of system prompt and profile, ``u`` per user turn and ``r`` per
reply, the input context at turn ``t`` (1-based) is:

- full history:    ``E_t = p + (t-1)(u+r) + u``  (grows in a straight line);
- rolling summary: every ``n`` turns the turns since the last rewrite are folded into a
  summary that grows by ``per_summarised_turn`` tokens per folded turn up to ``summary_cap``.
  With ``j_t = (t-1) mod n`` recent turns still whole and ``m_t = (t-1) - j_t`` turns folded,
  ``E_t = p + min(summary_cap, per_summarised_turn * m_t) + j_t (u+r) + u``  (a saw-tooth
  that drops on turns 1 + n, 1 + 2n, ...);
- retrieval:       ``E_t = p + k f + u``  (flat: ``k`` fragments of ``f`` tokens).

Summed over a conversation the history term becomes quadratic:
``sum_{t=1..T} E_t = T(p+u) + (u+r) T(T-1)/2``. With the defaults, 30 turns send
184,500 / 53,000 / 37,500 input tokens.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, fields

import pandas as pd

from lab.services.pricing import DEFAULT_PRICE, ModelPrice

__all__ = [
    "ContextParams",
    "STRATEGIES",
    "history_context",
    "summary_context",
    "retrieval_context",
    "context_table",
    "totals",
    "cost_usd",
    "history_total_closed_form",
    "history_to_retrieval_ratio",
    "first_turn_retrieval_is_cheaper",
]

#: The three strategies, in the order tables and charts show them.
STRATEGIES: tuple[str, ...] = ("history", "summary", "retrieval")


@dataclass(frozen=True)
class ContextParams:
    """Token sizes and price of the toy conversation; every field can be overridden.

    p: system prompt and profile, sent every turn. u, r: one user turn, one reply.
    n: the summary is rewritten every n turns. per_summarised_turn, summary_cap: summary growth
    per folded turn and its ceiling. k, f: retrieved fragments and tokens per fragment.
    price: the model's price (:class:`lab.services.ModelPrice`); input tokens are priced at its
    input rate, and what the model writes at its output rate.
    """

    p: int = 200
    u: int = 150
    r: int = 250
    n: int = 5
    per_summarised_turn: int = 100
    summary_cap: int = 800
    k: int = 3
    f: int = 300
    price: ModelPrice = DEFAULT_PRICE

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if field.name == "price":
                if not isinstance(value, ModelPrice):
                    raise TypeError(f"price must be a lab.services.ModelPrice (it names its model), got {value!r}")
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{field.name} must be a whole number of tokens (int), got {value!r}")
            if value < 0:
                raise ValueError(f"{field.name} must be >= 0, got {value}")
        if self.n < 1:
            raise ValueError(f"n (turns between summary rewrites) must be >= 1, got {self.n}")


DEFAULT_PARAMS = ContextParams()


def _whole_at_least_one(value: int, wrong_type: str, too_small: str) -> int:
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{wrong_type}, got {value!r}") from None
    if value < 1:
        raise ValueError(f"{too_small}, got {value}")
    return value


def _turn(t: int) -> int:
    return _whole_at_least_one(t, "turn must be a whole number", "turns are numbered from 1")


def history_context(t: int, params: ContextParams = DEFAULT_PARAMS) -> int:
    """Input tokens at turn ``t`` when every earlier exchange is re-sent word for word."""
    t = _turn(t)
    return params.p + (t - 1) * (params.u + params.r) + params.u


def summary_context(t: int, params: ContextParams = DEFAULT_PARAMS) -> int:
    """Input tokens at turn ``t`` with a capped rolling summary plus the turns since its rewrite."""
    t = _turn(t)
    recent = (t - 1) % params.n
    folded = (t - 1) - recent
    summary = min(params.summary_cap, params.per_summarised_turn * folded)
    return params.p + summary + recent * (params.u + params.r) + params.u


def retrieval_context(t: int, params: ContextParams = DEFAULT_PARAMS) -> int:
    """Input tokens at turn ``t`` when only ``k`` retrieved fragments travel: the same every turn."""
    _turn(t)
    return params.p + params.k * params.f + params.u


_PER_TURN = {"history": history_context, "summary": summary_context, "retrieval": retrieval_context}


def _turn_count(T: int) -> int:
    return _whole_at_least_one(T, "T (number of turns) must be a whole number", "T (number of turns) must be >= 1")


def context_table(T: int = 30, params: ContextParams = DEFAULT_PARAMS) -> pd.DataFrame:
    """One row per turn: context sent under each strategy and its running total.

    Columns: turn, history, summary, retrieval, history_cumulative, summary_cumulative,
    retrieval_cumulative (all int64), shape (T, 7).
    """
    T = _turn_count(T)
    turns = range(1, T + 1)
    table = pd.DataFrame({"turn": list(turns)})
    for name in STRATEGIES:
        table[name] = [_PER_TURN[name](t, params) for t in turns]
    for name in STRATEGIES:
        table[f"{name}_cumulative"] = table[name].cumsum()
    return table.astype("int64")


def totals(T: int = 30, params: ContextParams = DEFAULT_PARAMS) -> dict[str, int]:
    """Input tokens of a whole ``T``-turn conversation per strategy (the sum of the per-turn contexts)."""
    T = _turn_count(T)
    return {name: sum(_PER_TURN[name](t, params) for t in range(1, T + 1)) for name in STRATEGIES}


def cost_usd(tokens: float, params: ContextParams = DEFAULT_PARAMS) -> float:
    """Price in US dollars of ``tokens`` input tokens at ``params.price`` (the model it names)."""
    if tokens < 0:
        raise ValueError(f"tokens must be >= 0, got {tokens}")
    return params.price.cost(input_tokens=tokens)


def history_total_closed_form(T: int, params: ContextParams = DEFAULT_PARAMS) -> int:
    """``T(p+u) + (u+r) T(T-1)/2``: the full-history total without summing turn by turn."""
    T = _turn_count(T)
    return T * (params.p + params.u) + (params.u + params.r) * T * (T - 1) // 2


def history_to_retrieval_ratio(t: int = 30, params: ContextParams = DEFAULT_PARAMS) -> float:
    """How many times more context full history sends than retrieval at turn ``t``."""
    return history_context(t, params) / retrieval_context(t, params)


def first_turn_retrieval_is_cheaper(params: ContextParams = DEFAULT_PARAMS) -> int | None:
    """The first turn where retrieval sends less than full history, or None if it never does.

    History exceeds retrieval once ``(t-1)(u+r) > k f``, i.e. from ``t = floor(k f / (u+r)) + 2``.
    """
    exchange = params.u + params.r
    if exchange == 0:
        return None
    return params.k * params.f // exchange + 2
