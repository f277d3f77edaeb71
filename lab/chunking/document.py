"""The one input every chunker takes: a text, what it is, and the structure its source gives.

A :class:`Document` is built with the constructor for what the lab chunks: a flattened Notion
page (:meth:`Document.from_notion_page`), a markdown file (:meth:`Document.from_markdown`), a
plain text (:meth:`Document.from_text`) or a stream of short notes read one after the other
(:meth:`Document.from_notes`). Every chunk's offsets point into :attr:`Document.text`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lab.chunking.errors import ChunkingError
from lab.notion.pages import MalformedPageError, PageMetadata
from lab.chunking.flatten import FlatDocument
from lab.chunking.markdown_outline import MarkdownOutline, Publication, parse_outline, publication_for

__all__ = ["Document", "Note", "MarkdownFile", "SOURCE_SEPARATOR"]

#: How :meth:`Document.from_notes` joins the notes; chunk offsets point into the joined text.
SOURCE_SEPARATOR = "\n\n"


@dataclass(frozen=True)
class Note:
    """One source inside a document's text: its id and its span ``text[start:end]``."""

    id: str
    start: int
    end: int


@dataclass(frozen=True)
class MarkdownFile:
    """What a markdown file says about itself: its path, outline and publication metadata."""

    path: str
    outline: MarkdownOutline
    publication: Publication


@dataclass(frozen=True)
class Document:
    """A text to cut into chunks, with what every chunk of it carries.

    Attributes
    ----------
    id : what chunk ids start with: a page id, a file path, a note or stream id.
    text : the source text; every chunk's body is ``text[start:end]``.
    title, type, edited, version : carried by every chunk (``None`` where the source gives none).
    notes : the sources ``text`` is made of, in order (one, the document itself, unless
        the document is a stream of notes).
    flat : the flattened Notion page (sections, lines, block ids), for a page.
    markdown : the file's outline and publication metadata, for a markdown file.
    """

    id: str
    text: str = field(repr=False)
    title: str | None = None
    type: str | None = None
    edited: str | None = None
    version: str | None = None
    notes: tuple[Note, ...] = field(default=(), repr=False)
    flat: FlatDocument | None = field(default=None, repr=False)
    markdown: MarkdownFile | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not self.notes:
            object.__setattr__(self, "notes", (Note(self.id, 0, len(self.text)),))

    @classmethod
    def from_notion_page(cls, flat: FlatDocument, page: PageMetadata) -> Document:
        """A flattened page (``flatten_blocks(blocks)``) and its metadata
        (``PageMetadata.from_page(page_object)``, or a read page's ``info``)."""
        if not isinstance(flat, FlatDocument):
            raise ChunkingError(f"expected the flattened page, got {type(flat).__name__}; "
                                "pass flatten_blocks(blocks) for the page's (depth, block) traversal")
        if not isinstance(page, PageMetadata):
            raise MalformedPageError(f"expected the page's PageMetadata, got {type(page).__name__}; "
                                     "pass PageMetadata.from_page(page_object) or a read page's .info")
        # An untitled Notion page has an empty title, which is fine; an empty id is not.
        if not page.id:
            raise MalformedPageError("the page's metadata has no id; read it with PageMetadata.from_page")
        return cls(id=str(page.id), text=flat.text, title=page.title, type=page.type, edited=page.edited,
                   version=page.version, flat=flat)

    @classmethod
    def from_markdown(cls, text: str, path: str) -> Document:
        """A markdown file named by ``path`` (e.g. ``"guides/quickstart.md"``); its outline and
        publication comment are parsed once.

        The page title, type and date stay in :attr:`markdown` (the ``#`` line, the folder, the
        publication comment), where the markdown chunker reads them; to a chunker that does not
        read markdown the file is a plain text named by its path, as to a generic splitter.
        """
        _check_text(text, path)
        outline = parse_outline(text)
        return cls(id=path, text=text, markdown=MarkdownFile(path, outline, publication_for(outline.comment, path)))

    @classmethod
    def from_text(cls, text: str, doc_id: str, title: str | None = None) -> Document:
        """A plain text (paragraphs separated by blank lines), headed by ``title`` if given."""
        _check_text(text, doc_id)
        return cls(id=doc_id, text=text, title=title)

    @classmethod
    def from_notes(cls, notes: Sequence[tuple[str, str]], stream_id: str = "notes") -> Document:
        """Short notes, ``(source_id, text)`` pairs, read in the order given as one stream joined
        with :data:`SOURCE_SEPARATOR`; :attr:`notes` keeps where each one is."""
        for k, item in enumerate(notes):
            if not (isinstance(item, tuple | list) and len(item) == 2
                    and isinstance(item[0], str) and isinstance(item[1], str)):
                raise ChunkingError(f"note {k} is {item!r}; pass (source_id, text) pairs of strings")
        spans, offset = [], 0
        for source_id, text in notes:
            spans.append(Note(source_id, offset, offset + len(text)))
            offset += len(text) + len(SOURCE_SEPARATOR)
        joined = SOURCE_SEPARATOR.join(text for _, text in notes)
        return cls(id=stream_id, text=joined, notes=tuple(spans))


def _check_text(text: object, name: str) -> None:
    if not isinstance(text, str):
        raise ChunkingError(f"the text of {name!r} is a {type(text).__name__}; pass the document's text as a str")
