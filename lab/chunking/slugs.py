"""Readable, stable identifiers built from titles: the slug part of every chunk id."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["slugify", "SlugRegistry", "LEAD_SLUG"]

#: Slug of the text that comes before a page's first heading.
LEAD_SLUG = "_"

_NOT_WORD = re.compile(r"[\W_]+")


def slugify(text: str, fallback: str = "section") -> str:
    """Lower-case ASCII-folded words joined by ``-`` ("Alérgenos y trazas" -> "alergenos-y-trazas").

    Letters outside Latin scripts (Chinese, for instance) are kept, so a CJK title still gives
    a readable slug; a title with no letters or digits at all gives ``fallback``.
    """
    folded = unicodedata.normalize("NFKD", text)
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    slug = _NOT_WORD.sub("-", folded.lower()).strip("-")
    return slug or fallback


class SlugRegistry:
    """Hands out unique slugs within one page: a repeated slug gets ``-2``, ``-3``... in order."""

    def __init__(self) -> None:
        self._used: set[str] = set()
        self._seen: dict[str, int] = {}

    def claim(self, slug: str) -> str:
        """Return ``slug`` the first time, then ``slug-2``, ``slug-3``... never a used one."""
        n = self._seen.get(slug, 0)
        while True:
            n += 1
            candidate = slug if n == 1 else f"{slug}-{n}"
            if candidate not in self._used:
                break
        self._seen[slug] = n
        self._used.add(candidate)
        return candidate
