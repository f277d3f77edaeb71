"""What each ``Notion-Version`` the simulator serves changes, as data.

Sources: Notion's "changes by version" reference, the 2025-09-03 upgrade guide and FAQs, and the
2026-03-11 changelog. Until 2025-09-03 a database *is* its table: ``/v1/databases/{id}`` holds the
property schema, ``/v1/databases/{id}/query`` lists its rows, search finds ``database`` objects and
rows name their ``database_id``; the ``/v1/data_sources`` routes do not exist (``invalid_request_url``).
From 2025-09-03 a database is a container of data sources, whose routes replace the old query.
2026-03-11 drops ``archived`` for ``in_trash`` and renames the ``transcription`` block.

The trashed state before 2026-03-11: pages, blocks and databases carry ``archived`` and ``in_trash``
(the same value) under 2022-06-28 as under 2025-09-03. Notion added ``in_trash`` to every version in
April 2024 (its changelog: ``archived`` kept as a deprecated alias, no new version); responses recorded
with ``Notion-Version: 2022-06-28`` in December 2024 (the cassettes of notion-sdk-py 2.5.0) carry both
on every page, block and database, and the types of @notionhq/client 2.3.0, which sends 2022-06-28,
declare both. So a client written for 2022-06-28 that reads either name reads what Notion sends it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ApiVersion", "API_VERSIONS", "SERVED_VERSIONS", "api_version", "MULTI_SOURCE_MINIMUM"]


@dataclass(frozen=True)
class ApiVersion:
    """The shapes and routes of one ``Notion-Version``."""

    name: str
    routes: frozenset[str]  # the simulator's route names this version answers; others: invalid_request_url
    table_object: str  # what search lists and rows belong to: "database" or "data_source"
    trash_fields: tuple[str, ...]  # the names the trashed state is sent under
    meeting_notes_type: str  # the block type meeting notes are sent as

    @property
    def row_parent(self) -> str:
        """The parent type of a row: ``database_id`` before data sources, ``data_source_id`` after."""
        return f"{self.table_object}_id"

    @property
    def list_type(self) -> str:
        """The ``type`` of a search or query listing (``page_or_database`` before data sources)."""
        return f"page_or_{self.table_object}"

    @property
    def has_data_sources(self) -> bool:
        return self.table_object == "data_source"


_COMMON = frozenset({"search", "pages", "pages.create", "blocks", "blocks.children", "users", "users.me",
                     "databases"})
_DATA_SOURCES = frozenset({"data_sources", "data_sources.query"})

#: Every served version, oldest first.
API_VERSIONS: dict[str, ApiVersion] = {
    "2022-06-28": ApiVersion("2022-06-28", _COMMON | {"databases.query"}, "database", ("archived", "in_trash"),
                             "transcription"),
    "2025-09-03": ApiVersion("2025-09-03", _COMMON | _DATA_SOURCES, "data_source", ("archived", "in_trash"),
                             "transcription"),
    "2026-03-11": ApiVersion("2026-03-11", _COMMON | _DATA_SOURCES, "data_source", ("in_trash",),
                             "meeting_notes"),
}
SERVED_VERSIONS: tuple[str, ...] = tuple(API_VERSIONS)
#: The version an older client must move to for a database with several data sources.
MULTI_SOURCE_MINIMUM = "2025-09-03"


def api_version(name: str) -> ApiVersion:
    """The table row of a served version (``KeyError`` for any other)."""
    return API_VERSIONS[name]
