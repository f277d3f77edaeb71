"""Pagination cursors as Notion forms them: the id of the first item of the next page.

For ``GET /v1/blocks/{id}/children`` Notion's ``next_cursor`` is the id of the next block; for a
data source (or database) query and for search, the id of the next page or data source. Code in
use relies on that, sometimes by mistake (a loader that lists the children of its ``next_cursor``
"works" on Notion only because the cursor is a block id), so the simulator forms cursors the same
way and such code behaves here as it does there.

A cursor is accepted only where it could have been issued: it must be a well-formed id of an item
in the listing being asked for (same parent, same query, same search, within the first
10,000 results of a query). The listing then resumes at that item's position now. An item trashed,
unshared or filtered out since its id was handed out is no longer in the listing, so its cursor is
refused with the same 400 (ours: Notion documents nothing for that case).
"""

from __future__ import annotations

from typing import Iterable

from lab.simulator.errors import APIError, validation_error
from lab.simulator.ids import is_uuid, normalise_id
from lab.simulator.json_wire import shown

__all__ = ["resume_position"]


def resume_position(cursor: object, ids: Iterable[str]) -> int:
    """Where a listing whose items have ``ids`` (dashed, in order) resumes for ``cursor``, or a 400
    if the cursor names no item of it."""
    if not isinstance(cursor, str) or not is_uuid(cursor):
        raise _invalid(cursor)
    wanted = normalise_id(cursor)
    for position, item_id in enumerate(ids):
        if item_id == wanted:
            return position
    raise _invalid(cursor)


def _invalid(cursor: object) -> APIError:
    """Notion's 400 for a cursor that names no item of the listing; echoed, cut short if long."""
    echoed = cursor if isinstance(cursor, str) else shown(cursor)
    return validation_error(f"The start_cursor provided is invalid: {echoed[:100]}")
