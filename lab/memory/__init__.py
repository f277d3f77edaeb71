"""Memory for a stateless model: what each strategy re-sends, a persistent profile, grounded prompts.

- :mod:`lab.memory.context_cost` - per-turn context and totals for full history, rolling summary
  and retrieval, and their price;
- :mod:`lab.memory.profile` - a whitelisted JSON profile with a sensitive-value check, a forget
  that deletes from disk, and atomic writes;
- :mod:`lab.memory.prompt` - prompt assembly with a similarity threshold and note ids, and a
  local citation check (the optional model call is :func:`lab.services.call_model`);
- :mod:`lab.memory.conversation` - the request body a stateless API is sent turn after turn;
- :mod:`lab.memory.memory_tool` - the application side of Claude's memory tool: a ``/memories``
  folder the model edits, confined (:mod:`lab.memory.memory_paths`), bounded and atomic;
- :mod:`lab.memory.memory_chat` - the tool loop: sessions that share only the memory folder;
- :mod:`lab.memory.memory_costs` - the month's bill: output, the summary's rewrite calls, tiers;
- :mod:`lab.memory.forgetting` - what each strategy still knows after a long conversation;
- :mod:`lab.memory.lost_in_the_middle` - an offline reader that attends least to the middle
  of a long context, to show why the best source goes first.
"""

from lab.memory import (context_cost as _context_cost, conversation as _conversation,
                        lost_in_the_middle as _lost_in_the_middle, memory_chat as _memory_chat,
                        memory_costs as _memory_costs, memory_paths as _memory_paths, memory_tool as _memory_tool,
                        forgetting as _forgetting, notes as _notes, profile as _profile,
                        prompt as _prompt)
from lab.memory.context_cost import *  # noqa: F403  each module's __all__ is its public API
from lab.memory.conversation import *  # noqa: F403
from lab.memory.lost_in_the_middle import *  # noqa: F403
from lab.memory.forgetting import *  # noqa: F403
from lab.memory.memory_chat import *  # noqa: F403
from lab.memory.memory_costs import *  # noqa: F403
from lab.memory.memory_paths import *  # noqa: F403
from lab.memory.memory_tool import *  # noqa: F403
from lab.memory.notes import *  # noqa: F403
from lab.memory.profile import *  # noqa: F403
from lab.memory.prompt import *  # noqa: F403

__all__ = [*_context_cost.__all__, *_profile.__all__, *_prompt.__all__, *_notes.__all__, *_conversation.__all__,
           *_lost_in_the_middle.__all__, *_memory_paths.__all__, *_memory_tool.__all__,
           *_memory_chat.__all__, *_memory_costs.__all__, *_forgetting.__all__]
