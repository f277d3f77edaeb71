"""Memory for a stateless model: what each strategy re-sends, a persistent profile, grounded prompts.

- :mod:`lab.memory.context_cost` - per-turn context and totals for full history, rolling summary
  and retrieval, and their price;
- :mod:`lab.memory.profile` - a whitelisted JSON profile with a sensitive-value check, a forget
  that deletes from disk, and atomic writes;
- :mod:`lab.memory.prompt` - prompt assembly with a similarity threshold and note ids, and a
  local citation check (the optional model call is :func:`lab.services.call_model`);
"""

from lab.memory.context_cost import (
    STRATEGIES,
    ContextParams,
    context_table,
    cost_usd,
    first_turn_retrieval_is_cheaper,
    history_context,
    history_to_retrieval_ratio,
    history_total_closed_form,
    retrieval_context,
    summary_context,
    totals,
)
from lab.memory.notes import NoteIndex, threshold_effect
from lab.memory.profile import (
    DEFAULT_ALLOWED_FIELDS,
    ProfileFileError,
    ProfileStore,
    UpdateResult,
    sensitive_reason,
)
from lab.memory.prompt import (
    DEFAULT_SYSTEM,
    CitationReport,
    Prompt,
    RetrievedNote,
    assemble_prompt,
    check_citations,
    count_tokens,
)

__all__ = [
    "STRATEGIES",
    "ContextParams",
    "context_table",
    "cost_usd",
    "first_turn_retrieval_is_cheaper",
    "history_context",
    "history_to_retrieval_ratio",
    "history_total_closed_form",
    "retrieval_context",
    "summary_context",
    "totals",
    "DEFAULT_ALLOWED_FIELDS",
    "ProfileFileError",
    "ProfileStore",
    "UpdateResult",
    "sensitive_reason",
    "DEFAULT_SYSTEM",
    "CitationReport",
    "Prompt",
    "RetrievedNote",
    "assemble_prompt",
    "check_citations",
    "count_tokens",
    "NoteIndex",
    "threshold_effect",
]
