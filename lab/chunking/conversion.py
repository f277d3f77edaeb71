"""Documents that are not markdown (PDF, Word, web pages) turned into markdown, and cleaned of their usual damage.

The chunkers cut markdown: headings become sections, paragraphs stay whole. A PDF, a Word file
or a web page is converted first, each with a well-kept converter, and what conversion typically
leaves behind is cleaned:

- **PDF** (pdfminer.six): the text comes line by line, with a running header and a page number on
  every page. Lines that repeat on most pages (digits aside, so "Page 2 of 3" repeats too) are
  dropped; lines set larger than the body text become headings; the lines of a paragraph are
  joined again.
- **Web page** (markdownify, on Beautiful Soup's tree): the site's menu, sidebar and footer are
  text like any other, and would be indexed and cited. Only the page's ``<main>`` (or
  ``<article>``) is kept, and ``<nav>``, ``<header>``, ``<footer>``, ``<aside>``, scripts and
  forms are dropped anywhere.
- **Word** (mammoth, to HTML, then as a web page): a table whose row was split in two (a row with
  an empty first cell continuing the one above) is joined again, and empty rows are dropped.

Each converter reads bytes and returns markdown that starts with the document's title as a
``#`` heading. A file the converter cannot read is a :class:`DocumentConversionError` naming it.

A hostile file must not take the run down with it, so each converter checks its limits before
the work they bound, and a file past one is a :class:`DocumentLimitError` naming the file and the
limit: a Word file (a zip) whose parts would unpack to more than :data:`MAX_UNPACKED_BYTES` (a zip
bomb is a few kilobytes on disk), HTML nested deeper than :data:`MAX_NESTING_DEPTH` elements (the
converter walks the tree recursively), and a PDF still converting after
:data:`MAX_CONVERSION_SECONDS` (checked page by page).
"""

from __future__ import annotations

import io
import re
import time
import zipfile
from collections import Counter
from collections.abc import Callable
from pathlib import PurePosixPath

from lab.errors import LabError

__all__ = ["DocumentConversionError", "DocumentLimitError", "MAX_UNPACKED_BYTES", "MAX_NESTING_DEPTH",
           "MAX_CONVERSION_SECONDS", "CONVERTERS", "document_markdown", "html_markdown", "docx_markdown",
           "pdf_markdown"]

#: Tags that hold a site's furniture, not the page's content.
_FURNITURE = ("nav", "header", "footer", "aside", "script", "style", "form", "noscript", "template")
_BLANK_RUNS = re.compile(r"\n{3,}")


class DocumentConversionError(LabError, ValueError):
    """A document could not be converted to markdown (damaged, encrypted, or not the format its name says)."""


class DocumentLimitError(DocumentConversionError):
    """A document is past one of the converters' limits (unpacked size, nesting depth, conversion time)."""


#: What a Word file's parts may unpack to, together: a hundred times the longest manual's text.
MAX_UNPACKED_BYTES = 64 * 2**20
#: How deeply a page's elements may nest; real pages stay under 40, and the converter recurses at each level.
MAX_NESTING_DEPTH = 100
#: How long a PDF may take to convert, checked after each page.
MAX_CONVERSION_SECONDS = 60.0


def _tidy(markdown: str) -> str:
    lines = [line.rstrip() for line in markdown.strip().splitlines()]
    return _BLANK_RUNS.sub("\n\n", "\n".join(lines)) + "\n"


def _titled(markdown: str, title: str) -> str:
    """The markdown with ``title`` as its first ``#`` heading, unless it has one already."""
    body = markdown.lstrip()
    return body if body.startswith("# ") else f"# {title}\n\n{body}"


def html_markdown(path: str, data: bytes | str) -> str:
    """A web page's content as markdown: its ``<main>`` (or ``<article>``), the site's furniture dropped."""
    from bs4 import BeautifulSoup
    from markdownify import MarkdownConverter

    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    soup = BeautifulSoup(text, "html.parser")  # builds the tree without recursion, however deep
    if _deeper_than(soup, MAX_NESTING_DEPTH):
        raise DocumentLimitError(f"{path} nests its elements more than {MAX_NESTING_DEPTH} levels deep, the limit of "
                                 "the conversion (no page needs as many): fix the page or move it out of the folder")
    title = soup.title.get_text(" ", strip=True).split(" | ")[0] if soup.title else PurePosixPath(path).stem
    for tag in soup.find_all(_FURNITURE):
        tag.decompose()
    content = soup.find("main") or soup.find("article") or soup.body or soup
    markdown = MarkdownConverter(heading_style="ATX", bullets="-", strip=["a", "img"],
                                 table_infer_header=True).convert_soup(content)
    return _tidy(_titled(markdown, title))


def _deeper_than(soup: object, limit: int) -> bool:
    """Whether any element of ``soup`` lies more than ``limit`` levels down (walked with a stack, not recursion)."""
    from bs4 import Tag

    stack = [(soup, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in node.contents if isinstance(child, Tag))  # type: ignore[attr-defined]
    return False


def _check_unpacked_size(path: str, data: bytes) -> None:
    """Refuse a Word file whose parts would unpack to more than :data:`MAX_UNPACKED_BYTES`, before unpacking any.

    The sizes are the ones the zip declares; Python's zip reader never gives more bytes than declared."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(member.file_size for member in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return  # not a readable zip: mammoth says so below, naming the file
    if unpacked > MAX_UNPACKED_BYTES:
        raise DocumentLimitError(f"{path} would unpack to {unpacked:,} bytes, more than the limit of "
                                 f"{MAX_UNPACKED_BYTES:,} (a zip bomb, or a document that is mostly something else): "
                                 "move it out of the folder")


def _repair_tables(html_text: str) -> str:
    """Join a table row split in two (an empty first cell continuing the row above) and drop empty rows."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html_text, "html.parser")
    for table in soup.find_all("table"):
        previous = None
        for row in table.find_all("tr"):
            cells = row.find_all(["td", "th"])
            texts = [cell.get_text(" ", strip=True) for cell in cells]
            if not any(texts):
                row.decompose()
                continue
            if previous is not None and not texts[0] and len(cells) == len(previous):
                for cell, above, text in zip(cells, previous, texts):
                    if text:
                        above.string = f"{above.get_text(' ', strip=True)} {text}".strip()
                row.decompose()
                continue
            previous = cells
    return str(soup)


def docx_markdown(path: str, data: bytes) -> str:
    """A Word file as markdown: mammoth's HTML, its split table rows joined, then as a web page."""
    import mammoth

    _check_unpacked_size(path, data)
    try:
        result = mammoth.convert_to_html(io.BytesIO(data))
    except Exception as error:  # a zip that is not a Word document, or a damaged one: mammoth raises anything
        raise DocumentConversionError(f"{path} is not a Word document mammoth can read ({type(error).__name__}: "
                                      f"{error}); save it again as .docx or move it out of the folder") from None
    return html_markdown(path, f"<main>{_repair_tables(result.value)}</main>")


def _pdf_lines(path: str, data: bytes) -> list[list[tuple[str, float]]]:
    """Each page's text lines, top to bottom, with their font size (within :data:`MAX_CONVERSION_SECONDS`)."""
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams, LTChar, LTTextContainer, LTTextLine

    pages = []
    deadline = time.monotonic() + MAX_CONVERSION_SECONDS
    for layout in extract_pages(io.BytesIO(data), laparams=LAParams()):
        if time.monotonic() > deadline:
            raise DocumentLimitError(f"{path} was still converting after {MAX_CONVERSION_SECONDS:g} s, the limit of "
                                     f"the conversion, at page {len(pages) + 1}: move it out of the folder")
        lines = []
        for box in layout:
            if not isinstance(box, LTTextContainer):
                continue
            for line in box:
                if isinstance(line, LTTextLine) and line.get_text().strip():
                    sizes = [char.size for char in line if isinstance(char, LTChar)]
                    lines.append((line.y1, line.get_text().strip(), sum(sizes) / len(sizes) if sizes else 0.0))
        pages.append([(text, size) for _, text, size in sorted(lines, key=lambda item: -item[0])])
    return pages


def pdf_markdown(path: str, data: bytes) -> str:
    """A PDF as markdown: running headers and page numbers dropped, larger lines as headings, paragraphs joined."""
    from pdfminer.pdfdocument import PDFEncryptionError

    try:
        pages = _pdf_lines(path, data)
    except DocumentLimitError:
        raise
    except PDFEncryptionError:
        raise DocumentConversionError(f"{path} is encrypted (a password protects it): save a copy without the "
                                      "password, or move it out of the folder") from None
    except Exception as error:  # a damaged or cut PDF: pdfminer raises its own errors and Python's, by the dozen
        raise DocumentConversionError(f"{path} is not a PDF pdfminer can read ({type(error).__name__}; cut short or "
                                      "damaged?); export it again as PDF or move it out of the folder") from None
    if not pages:
        raise DocumentConversionError(f"{path} has no pages (its page tree is missing or empty): export it again as "
                                      "PDF or move it out of the folder")
    shape = lambda text: re.sub(r"\d+", "#", text)  # noqa: E731  "Page 2 of 3" and "Page 3 of 3" repeat
    on_pages = Counter(key for page in pages for key in {shape(text) for text, _ in page})
    repeated = {key for key, count in on_pages.items() if len(pages) > 1 and count >= max(2, len(pages) / 2)}
    lines = [(text, size) for page in pages for text, size in page if shape(text) not in repeated]
    body = Counter(round(size) for text, size in lines for _ in text).most_common(1)
    body_size = body[0][0] if body else 0
    blocks: list[str] = []
    paragraph: list[str] = []
    for text, size in lines:
        level = 1 if size >= body_size * 1.6 else 2 if size >= body_size * 1.15 else 0
        if level or (paragraph and paragraph[-1].rstrip().endswith((".", ":", "?", "!")) and text[:1].isupper()):
            blocks.append(" ".join(paragraph))
            paragraph = []
        if level:
            blocks.append(f"{'#' * level} {text}")
        else:
            paragraph.append(text)
    blocks.append(" ".join(paragraph))
    return _tidy(_titled("\n\n".join(block for block in blocks if block), PurePosixPath(path).stem))


#: Converters by file suffix.
CONVERTERS: dict[str, Callable[[str, bytes], str]] = {".pdf": pdf_markdown, ".html": html_markdown,
                                                      ".htm": html_markdown, ".docx": docx_markdown}


def document_markdown(path: str, data: bytes) -> str:
    """The markdown of a document the lab converts (by its suffix); a ``ValueError`` for any other."""
    converter = CONVERTERS.get(PurePosixPath(path).suffix.lower())
    if converter is None:
        raise ValueError(f"{path}: no converter for {PurePosixPath(path).suffix or 'files without a suffix'}; "
                         f"these suffixes have one: {sorted(CONVERTERS)}")
    return converter(path, data)
