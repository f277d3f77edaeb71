"""A page's metadata, read once from a Notion page object: id, title, type, last edit, url, audience and
version.

Whatever reads pages (the indexer), cuts them (every chunk carries its page's id, title, type
and last edit) or stores them (the index's ``pages`` table) passes this one record along.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lab.errors import LabError
from lab.notion.richtext import plain_text

__all__ = ["TYPE_PROPERTY", "MalformedPageError", "PageMetadata", "PageProperties"]

#: The select property the lab's knowledge bases type their pages with.
TYPE_PROPERTY = "Tipo"


class MalformedPageError(LabError, ValueError):
    """A page object or page description lacks a field a page's metadata needs."""


@dataclass(frozen=True)
class PageMetadata:
    """What travels with a page: its id, title, type (a select), ``last_edited_time``, url, the
    audience allowed to see it and the version of the documentation it describes (each a select;
    ``None``: the page names none)."""

    id: str
    title: str
    type: str | None = None
    edited: str | None = None
    url: str | None = None
    audience: str | None = None
    version: str | None = None

    @classmethod
    def from_page(cls, page_object: Mapping[str, Any], type_property: str = TYPE_PROPERTY,
                  audience_property: str | None = None, version_property: str | None = None) -> PageMetadata:
        """Read a Notion page object (what ``GET /v1/pages/{id}`` or a query returns).

        The title comes from the property of type ``title`` (whatever its name); the type from
        the select property named ``type_property``, the audience from the one named
        ``audience_property`` and the version from the one named ``version_property`` (each ``None``
        when absent or empty; no audience or version is read without a name).
        """
        properties = page_object.get("properties")
        if page_object.get("object") != "page" or not isinstance(properties, Mapping):
            raise MalformedPageError(
                f"expected a Notion page object (object='page' with 'properties'), got object="
                f"{page_object.get('object')!r}; pass what GET /v1/pages/{{id}} or a query returns")
        title = next((plain_text(p.get("title")) for p in properties.values()
                      if isinstance(p, Mapping) and p.get("type") == "title"), "")
        audience = _select(properties, audience_property) if audience_property is not None else None
        version = _select(properties, version_property) if version_property is not None else None
        return cls(id=page_object.get("id"), title=title, type=_select(properties, type_property),
                   edited=page_object.get("last_edited_time"), url=page_object.get("url"), audience=audience,
                   version=version)


@dataclass(frozen=True)
class PageProperties:
    """The selects an index reads from each page, by name: ``audience``, who may see the page, and
    ``version``, the version of the documentation it describes (``None``: not read; every page then has
    none), and ``type``, the page's kind (the bakery's ``Tipo``; a page without that select has no type).
    A run passes this one record to everything that reads a page's metadata."""

    audience: str | None = None
    version: str | None = None
    type: str = TYPE_PROPERTY

    def read(self, page_object: Mapping[str, Any]) -> PageMetadata:
        """The page object's metadata, its type, audience and version read from these selects."""
        return PageMetadata.from_page(page_object, self.type, self.audience, self.version)


def _select(properties: Mapping[str, Any], name: str) -> str | None:
    """The option chosen in the select property ``name`` (``None`` when absent, empty or not a select)."""
    prop = properties.get(name)
    selected = prop.get("select") if isinstance(prop, Mapping) and prop.get("type") == "select" else None
    return (selected.get("name") or None) if isinstance(selected, Mapping) else None
