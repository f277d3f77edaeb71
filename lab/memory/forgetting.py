"""What each memory strategy still knows after a long conversation: a summary keeps the gist, not the details.

Counting tokens shows what a strategy costs; this shows what it keeps. A conversation's turns
are replayed and, after the last one, each strategy builds the context it would send with a
probe question ("When is my exam?"); a fact is kept when its answer ("Thursday 12 March") is
in that context, word for word. The strategies are those of :mod:`lab.memory.context_cost`:

- history: every exchange, whole;
- summary: the exchanges folded by the last rewrite (every ``n`` turns) become a summary, the
  later ones travel whole. The offline summariser keeps the first sentence of each of the
  user's messages (the gist, as a short summary does), oldest dropped first past
  ``summary_cap`` tokens; a detail said in passing is lost, which is a summary's known cost;
- retrieval: the ``k`` past exchanges most similar to the question (TF-IDF, cosine);
- tiers: the summary, the recent exchanges and the retrieved ones together.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import pandas as pd

from lab.chunking.tokens import count_tokens
from lab.memory.context_cost import DEFAULT_PARAMS, ContextParams
from lab.memory.notes import NoteIndex

__all__ = ["first_sentence_summary", "strategy_contexts", "what_each_strategy_keeps"]

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def first_sentence_summary(turns: Sequence[Mapping[str, str]], cap_tokens: int) -> str:
    """One line per exchange, the first sentence of the user's message; the oldest lines go first past ``cap_tokens``."""
    lines = [_SENTENCE_END.split(turn["user"].strip(), maxsplit=1)[0] for turn in turns]
    while lines and count_tokens("\n".join(lines)) > cap_tokens:
        lines.pop(0)
    return "\n".join(lines)


def strategy_contexts(turns: Sequence[Mapping[str, str]], question: str,
                      params: ContextParams = DEFAULT_PARAMS) -> dict[str, str]:
    """The memory each strategy sends with ``question``, asked after the last of ``turns``."""
    exchanges = [f"User: {turn['user']}\nAssistant: {turn['assistant']}" for turn in turns]
    folded = len(turns) - len(turns) % params.n  # turns the last rewrite folded into the summary
    summary = first_sentence_summary(turns[:folded], params.summary_cap)
    recent = "\n".join(exchanges[folded:])
    retrieved = ""
    if params.k and exchanges:
        index = NoteIndex([{"id": str(number), "title": "", "text": text}
                           for number, text in enumerate(exchanges)])
        retrieved = "\n".join(exchanges[int(hit.id)] for hit in index.search(question, k=params.k) if hit.score > 0)
    tiers = "\n".join(part for part in (summary, recent, retrieved) if part)
    return {"history": "\n".join(exchanges), "summary": "\n".join(part for part in (summary, recent) if part),
            "retrieval": retrieved, "tiers": tiers}


def what_each_strategy_keeps(turns: Sequence[Mapping[str, str]], probes: Sequence[Mapping[str, str]],
                             params: ContextParams = DEFAULT_PARAMS) -> pd.DataFrame:
    """One row per probe (``{"fact", "question", "answer"}``): whether each strategy's context holds the answer.

    Columns: fact, question, then one boolean column per strategy, and ``<strategy>_tokens``,
    the lab tokens of the memory that strategy sends with that question.
    """
    rows = []
    for probe in probes:
        contexts = strategy_contexts(turns, probe["question"], params)
        row: dict[str, object] = {"fact": probe["fact"], "question": probe["question"]}
        for name, context in contexts.items():
            row[name] = probe["answer"].lower() in context.lower()
        for name, context in contexts.items():
            row[f"{name}_tokens"] = count_tokens(context)
        rows.append(row)
    return pd.DataFrame(rows)
