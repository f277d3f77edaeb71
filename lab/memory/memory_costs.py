"""What memory costs in a month: input, output and the summary's own rewrite calls, against a budget.

:mod:`lab.memory.context_cost` counts the input a conversation sends. A bill has three more parts:

- the output: every reply is written by the model and priced at its (higher) output rate; it is
  the same under every strategy, ``T r`` tokens per conversation;
- the rolling summary's rewrites: every ``n`` turns the program sends the instruction, the
  previous summary and the ``n`` exchanges to fold, and the model writes the new summary, one
  more call per rewrite (``floor((T-1)/n)`` per conversation) with input and output of its own;
- the month: one conversation a day for 30 days multiplies everything by 30.

Tiers combine the strategies as assistants do: the turns since the last rewrite whole (working
memory), the rolling summary of the older ones (short-term) and ``k`` fragments retrieved from
older sessions and documents (long-term): ``E_t = summary_context(t) + k f``.
"""

from __future__ import annotations

import pandas as pd

from lab.memory.context_cost import DEFAULT_PARAMS, ContextParams, _turn, summary_context, totals

__all__ = ["MEMORY_PLANS", "REWRITE_INSTRUCTION_TOKENS", "monthly_costs", "summary_rewrites", "tiered_context"]

#: The strategies a monthly bill compares: the three of :data:`STRATEGIES` and their combination.
MEMORY_PLANS: tuple[str, ...] = ("history", "summary", "retrieval", "tiers")
#: Tokens of the instruction a summary rewrite sends with what it folds ("Rewrite the summary ...").
REWRITE_INSTRUCTION_TOKENS = 50


def tiered_context(t: int, params: ContextParams = DEFAULT_PARAMS) -> int:
    """Input tokens at turn ``t`` with recent turns whole, a rolling summary and ``k`` retrieved fragments."""
    return summary_context(_turn(t), params) + params.k * params.f


def summary_rewrites(T: int = 30, params: ContextParams = DEFAULT_PARAMS,
                     instruction: int = REWRITE_INSTRUCTION_TOKENS) -> pd.DataFrame:
    """One row per rewrite call in a ``T``-turn conversation: before which turn, what it reads and writes.

    The rewrite before turn ``1 + j n`` reads the instruction, the summary so far and the ``n``
    exchanges it folds, and writes the summary of all ``j n`` folded turns (capped).
    Columns: before_turn, folded_turns, input_tokens, output_tokens.
    """
    T = _turn(T)
    if isinstance(instruction, bool) or not isinstance(instruction, int) or instruction < 0:
        raise ValueError(f"instruction must be a whole number of tokens >= 0, got {instruction!r}")
    rows, previous = [], 0
    for before in range(1 + params.n, T + 1, params.n):
        folded = before - 1
        written = min(params.summary_cap, params.per_summarised_turn * folded)
        rows.append({"before_turn": before, "folded_turns": folded,
                     "input_tokens": instruction + previous + params.n * (params.u + params.r),
                     "output_tokens": written})
        previous = written
    return pd.DataFrame(rows, columns=["before_turn", "folded_turns", "input_tokens", "output_tokens"]).astype("int64")


def monthly_costs(T: int = 30, params: ContextParams = DEFAULT_PARAMS, conversations: int = 30,
                  budget_usd: float = 10.0, instruction: int = REWRITE_INSTRUCTION_TOKENS) -> pd.DataFrame:
    """The month's bill per strategy: ``conversations`` conversations of ``T`` turns at ``params.price``.

    One row per plan of :data:`MEMORY_PLANS`; columns: input_tokens and output_tokens of one
    conversation, rewrite_calls and their tokens, usd_input, usd_output, usd_rewrites and
    usd_conversation (one conversation), usd_month, share_of_budget and within_budget.
    """
    T = _turn(T)
    if isinstance(conversations, bool) or not isinstance(conversations, int) or conversations < 1:
        raise ValueError(f"conversations must be a whole number >= 1, got {conversations!r}")
    if not budget_usd > 0:
        raise ValueError(f"budget_usd must be > 0, got {budget_usd!r}")
    price = params.price
    inputs = dict(totals(T, params), tiers=sum(tiered_context(t, params) for t in range(1, T + 1)))
    rewrites = summary_rewrites(T, params, instruction)
    rows = []
    for plan in MEMORY_PLANS:
        rewriting = plan in ("summary", "tiers")
        calls = len(rewrites) if rewriting else 0
        rewrite_in = int(rewrites["input_tokens"].sum()) if rewriting else 0
        rewrite_out = int(rewrites["output_tokens"].sum()) if rewriting else 0
        row = {"plan": plan, "input_tokens": inputs[plan], "output_tokens": T * params.r, "rewrite_calls": calls,
               "rewrite_input_tokens": rewrite_in, "rewrite_output_tokens": rewrite_out,
               "usd_input": price.cost(input_tokens=inputs[plan]), "usd_output": price.cost(output_tokens=T * params.r),
               "usd_rewrites": price.cost(rewrite_in, rewrite_out)}
        row["usd_conversation"] = row["usd_input"] + row["usd_output"] + row["usd_rewrites"]
        row["usd_month"] = row["usd_conversation"] * conversations
        row["share_of_budget"] = row["usd_month"] / budget_usd
        row["within_budget"] = bool(row["usd_month"] <= budget_usd)
        rows.append(row)
    return pd.DataFrame(rows)
