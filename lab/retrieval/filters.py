"""Filters on what a chunk says about its document: the version of the documentation, and when it was edited.

Documentation comes in versions, and a reader of version 3.2 must not be answered from the pages of
2.1; pages also go stale, and the date of their last edit tells which. Every chunk the index holds
carries its document's ``version`` (a markdown file's publication comment, a Notion page's version
select) and ``edited`` date (the comment's ``updated``, a page's ``last_edited_time``), and a
:class:`ChunkFilter` keeps the chunks that match:

- ``version``: the chunks of that version exactly (``"3.2"``); a version no chunk has is refused
  (:class:`UnknownVersionError`, listing the versions there are) rather than answered with nothing.
- ``edited_from`` and ``edited_until``: ISO dates ``YYYY-MM-DD``, both included, compared with the
  date the chunk's ``edited`` starts with (a Notion time such as ``2026-03-02T10:15:00.000Z`` is
  read as 2026-03-02, in UTC as Notion writes it). A malformed date is refused
  (:class:`InvalidDateError`, naming it), and so is a window that ends before it starts.

A chunk without a version is excluded by a version filter, and a chunk without a date (or with a
date that is not ``YYYY-MM-DD``) by a date filter: nobody said it belongs there. ``ChunkFilter()``
keeps every chunk. Like the audience (:mod:`lab.retrieval.corpus`), a filter is a boolean mask over
the corpus's rows applied before anything is ranked (:meth:`SearchCorpus.visible`), so a filtered
search still returns ``k`` hits whenever ``k`` rows match; every search takes one as ``where``:

>>> searcher.search("How do I rotate an API key?", k=5, where=ChunkFilter(version="3.2"))  # doctest: +SKIP
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from lab.errors import LabError

if TYPE_CHECKING:
    from lab.retrieval.corpus import SearchCorpus

__all__ = ["ChunkFilter", "UnknownVersionError", "InvalidDateError", "parse_date", "date_of"]

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class UnknownVersionError(LabError, ValueError):
    """A search asked for a version of the documentation that no chunk has (a typo would otherwise return nothing)."""


class InvalidDateError(LabError, ValueError):
    """A date bound of a filter that is not a date written ``YYYY-MM-DD``, or a window that ends before it starts."""


def parse_date(value: object, name: str) -> str:
    """``value`` if it is a real date written ``YYYY-MM-DD`` (the form every bound takes); an
    :class:`InvalidDateError` naming ``name`` and the value otherwise."""
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        raise InvalidDateError(f"{name} is a date written YYYY-MM-DD, such as 2026-03-01, not {value!r}")
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        raise InvalidDateError(f"{name} {value!r} is not a day of the calendar; write a date YYYY-MM-DD, such as "
                               "2026-03-01") from None
    return value


def date_of(edited: str | None) -> str:
    """The day a chunk's ``edited`` starts with (``"2026-03-02"`` of ``"2026-03-02T10:15:00.000Z"``), or
    ``""`` when it has no date in that form: such a chunk passes no date filter."""
    if not edited or not _DATE.match(edited):
        return ""
    return edited[:10]


@dataclass(frozen=True)
class ChunkFilter:
    """Which chunks a search may return, by their document's version and date of last edit.

    Parameters
    ----------
    version : the documentation version to keep (``"3.2"``), or ``None`` for any. A chunk without a
        version is excluded by a version filter.
    edited_from, edited_until : the first and last day (``YYYY-MM-DD``, both included) a chunk's
        ``edited`` may fall on, or ``None`` for no bound. A chunk without a date is excluded by either.

    Every condition given must hold; ``ChunkFilter()`` keeps every chunk.
    """

    version: str | None = None
    edited_from: str | None = None
    edited_until: str | None = None

    def __post_init__(self) -> None:
        if self.version is not None and (not isinstance(self.version, str) or not self.version.strip()):
            raise TypeError(f"version is a version's name (a non-empty str such as '3.2') or None, not "
                            f"{self.version!r}")
        for name in ("edited_from", "edited_until"):
            if getattr(self, name) is not None:
                parse_date(getattr(self, name), name)
        if self.edited_from is not None and self.edited_until is not None and self.edited_from > self.edited_until:
            raise InvalidDateError(f"edited_from {self.edited_from} is after edited_until {self.edited_until}: no "
                                   "day is in that window; swap them")

    @property
    def filters_dates(self) -> bool:
        """Whether the filter bounds the date of the last edit."""
        return self.edited_from is not None or self.edited_until is not None

    def mask(self, corpus: SearchCorpus) -> np.ndarray:
        """Boolean mask, shape (n_rows,), of the rows of ``corpus`` this filter keeps.

        Raises :class:`UnknownVersionError` if no row has the version asked for.
        """
        keep = np.ones(len(corpus), dtype=bool)
        if self.version is not None:
            keep &= corpus.version_array == self.version
            if not keep.any():  # the known versions are gathered only to say which there are
                known = corpus.known_versions()
                have = (f"the versions it holds are {', '.join(repr(v) for v in known)}" if known
                        else "none of its chunks names a version")
                raise UnknownVersionError(f"no chunk of this corpus has version {self.version!r}; {have}")
        if self.filters_dates:
            dates = corpus.date_array
            keep &= dates != ""
            if self.edited_from is not None:
                keep &= dates >= self.edited_from
            if self.edited_until is not None:
                keep &= dates <= self.edited_until
        return keep
