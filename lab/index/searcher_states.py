"""What a search fitted on the index's chunks, kept beside them so that the next process loads it.

A search's recipe fitted on tens of thousands of chunks takes seconds (LSA's SVD most of all);
kept as a state (:mod:`lab.retrieval.fitted_state`), it loads in milliseconds. The schema's
triggers delete every state and draw a new content stamp whenever a chunk, a vector or a term
count is written (:mod:`lab.index.schema`), so a state found here always describes the chunks
beside it. A state is written only if the content still bears the stamp it was fitted under.
"""

from __future__ import annotations

import sqlite3

__all__ = ["SearcherStates"]


class SearcherStates:
    """Fitted search states, one per recipe, and the content stamp they belong to (a part of ``IndexStore``)."""

    _db: sqlite3.Connection

    def search_recipe(self) -> str | None:
        """The name of the recipe the indexer recorded for searching this index (``None``: none recorded)."""
        row = self._db.execute("SELECT value FROM meta WHERE key = 'search_recipe'").fetchone()
        return row[0] if row else None

    def set_search_recipe(self, name: str) -> None:
        """Record that this index is searched with the recipe called ``name`` (see ``lab.retrieval.RECIPES``)."""
        if not isinstance(name, str) or not name:
            raise ValueError(f"a recipe is recorded by its name, a non-empty str, not {name!r}")
        with self.transaction():  # type: ignore[attr-defined]
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('search_recipe', ?)", (name,))

    def content_stamp(self) -> str:
        """A random stamp drawn anew whenever anything a search reads (chunks, vectors, term counts) is written."""
        return str(self._db.execute("SELECT value FROM meta WHERE key = 'content_stamp'").fetchone()[0])

    def searcher_state(self, recipe: str) -> bytes | None:
        """The state kept for ``recipe`` (a recipe's repr), or ``None`` if the content changed since it was kept."""
        row = self._db.execute("SELECT state FROM searcher_states WHERE recipe = ?", (recipe,)).fetchone()
        return row[0] if row else None

    def keep_searcher_state(self, recipe: str, state: bytes, content_stamp: str) -> bool:
        """Keep ``state`` for ``recipe`` if the content still bears ``content_stamp`` (the one it was
        fitted under); whether it was kept. A file this process may not write keeps nothing."""
        try:
            with self.transaction():  # type: ignore[attr-defined]
                if self.content_stamp() != content_stamp:
                    return False
                self._db.execute("INSERT OR REPLACE INTO searcher_states VALUES (?, ?, ?)",
                                 (recipe, content_stamp, state))
                return True
        except sqlite3.OperationalError as error:
            if "readonly" in str(error) or "read-only" in str(error):
                return False
            raise
