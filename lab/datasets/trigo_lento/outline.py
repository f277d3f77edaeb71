"""What a page module hands to the workspace builder: a page's identity and how to write it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .blocks import Block

__all__ = ["Outline"]


@dataclass(frozen=True)
class Outline:
    """A page before it has dates: stable key, title, page type, icon and its block builder.

    ``build`` receives the page's own seeded generator, so the wording chosen for one page never
    depends on how many choices another page made.
    """

    key: str
    title: str
    type: str
    icon: str | None
    build: Callable[[np.random.Generator], list[Block]]
