"""Small helpers every table of the index uses: batches of ids for ``IN (...)`` lists, and reading a
chunk's fields whether it is an object or a stored row."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

__all__ = ["batches", "id_list", "marks", "field_of", "optional_field_of"]

# Values bound in one ``IN (...)`` list: well under SQLite's limit of 32,766 variables.
_BATCH = 500


def batches(values: Sequence[Any]) -> Iterator[list[Any]]:
    for start in range(0, len(values), _BATCH):
        yield list(values[start:start + _BATCH])

def id_list(ids: Iterable[str], name: str) -> list[str]:
    """``ids`` as a list; one id (or path) given alone would be read as its characters, each looked up
    or deleted as an id of its own."""
    if isinstance(ids, (str, bytes)):
        raise TypeError(f"{name} takes a list, not one {type(ids).__name__}; wrap a single value in a list: "
                        f"[{ids!r:.60}]")
    return list(ids)

def marks(batch: Sequence[Any]) -> str:
    return ",".join("?" * len(batch))

def field_of(chunk: Any, name: str) -> Any:
    return chunk[name] if isinstance(chunk, Mapping) else getattr(chunk, name)

def optional_field_of(chunk: Any, name: str) -> Any:
    """A field a chunk may lack (its ``version``), ``None`` then."""
    return chunk.get(name) if isinstance(chunk, Mapping) else getattr(chunk, name, None)
