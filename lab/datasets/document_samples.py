"""Three documentation pages that are not markdown: a PDF, a Word file and a web page, with their usual damage.

Teams keep documentation in whatever their tools export. The files run reads them through
markdown (:mod:`lab.ingest.conversion`), and each sample carries what such files carry: the PDF
repeats a running header and a page number on every page, the web page wraps its text in a site
menu, a sidebar and a footer, and the Word file holds a table with an empty header cell and a
row split in two. They belong to the docs corpus's product (Shiftly, a shift-scheduling app).

The files are generated, never edited by hand: ``python -m lab.datasets.document_samples``
writes them again from the text below, byte for byte (no timestamps, fixed zip dates), with the
standard library only: a minimal PDF with the 14 standard fonts, and a minimal Office Open XML
document.
"""

from __future__ import annotations

import html
import io
import textwrap
import zipfile
from importlib.resources import files
from pathlib import Path

__all__ = ["DOCUMENTS_DIR", "write_samples", "pdf_bytes", "docx_bytes", "html_text"]

#: Where the samples live in the package: ``documents/<section>/<name>``.
DOCUMENTS_DIR = Path(str(files("lab.datasets") / "data" / "corpora" / "documents"))

_PDF_TITLE = "Holiday scheduling"
_PDF_HEADER = "Shiftly Docs · Guides"
_PDF_SECTIONS = [
    ("Planning ahead", [
        "Public holidays change who can work and what a shift costs. Open Schedule > Holidays at least "
        "four weeks before a holiday and check which locations close, which open with reduced hours, and "
        "which members asked for the day off.",
        "Shiftly marks a holiday on every schedule of the locations it applies to. A shift planned on a "
        "closed day is flagged in orange and cannot be published until it is moved or deleted.",
    ]),
    ("Public holidays by location", [
        "Each location follows the holiday calendar of its country or region, chosen in Settings > "
        "Locations. A workspace with locations in several regions sees each calendar on its own "
        "locations only.",
        "You can add company holidays of your own, such as a day for the annual inventory. A company "
        "holiday applies to the locations you pick and behaves like a public one.",
        "Holidays are imported for the next two years. When a government moves a holiday, Shiftly "
        "updates the calendar within a week and notifies the schedulers of the locations concerned.",
    ]),
    ("Premium pay", [
        "Hours worked on a public holiday are paid at the rate set for each location, 200 % by default. "
        "The rate applies to the hours that fall on the holiday, from midnight to midnight in the "
        "location's time zone.",
        "Premium hours appear in a column of their own in timesheet exports, so payroll can tell them "
        "apart from overtime. A shift that is both overtime and on a holiday is paid at the higher of "
        "the two rates, not both.",
        "Members see the premium on a shift before they accept it, and again on their payslip summary "
        "in the mobile app.",
    ]),
]

_HTML_PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Microsoft Teams | Shiftly Docs</title></head>
<body>
<header class="site">
  <a href="/">Shiftly</a>
  <nav><a href="/product">Product</a> <a href="/pricing">Pricing</a> <a href="/blog">Blog</a>
  <a href="/login">Sign in</a></nav>
</header>
<aside class="sidebar">
  <nav><ul><li><a href="/docs/guides/quickstart">Quickstart</a></li>
  <li><a href="/docs/integrations/slack">Slack</a></li>
  <li><a href="/docs/integrations/microsoft-teams">Microsoft Teams</a></li></ul></nav>
</aside>
<main>
<article>
<h1>Microsoft Teams</h1>
<p>Send schedule changes to the Teams channels your members already read.</p>
<h2>Connecting Teams</h2>
<p>An administrator opens <strong>Settings &gt; Integrations &gt; Microsoft Teams</strong> and signs in
with a Microsoft 365 account that may add apps to the organisation. Shiftly then appears as a bot
that each team can add to its channels.</p>
<h2>What is posted</h2>
<ul>
<li>A published schedule, as a summary with a link to each location's week.</li>
<li>Open shifts, with an <em>Apply</em> button for qualified members.</li>
<li>Approved swaps and time off, to the channel of the location concerned.</li>
</ul>
<p>Messages are posted in the language of the workspace. Members who are not in Shiftly see the
message but cannot apply for a shift.</p>
<h2>Disconnecting</h2>
<p>Removing the integration stops every message at once. Messages already posted stay in Teams;
delete them there if you need to.</p>
</article>
</main>
<footer>
  <p>© 2026 Shiftly. <a href="/privacy">Privacy</a> · <a href="/terms">Terms</a> · <a href="/status">Status</a></p>
</footer>
</body>
</html>
"""

_DOCX_TITLE = "Data retention"
_DOCX_PARAGRAPHS = [
    "Shiftly keeps each kind of data only as long as a workspace needs it, then deletes it for good. "
    "Administrators can shorten most periods in Settings > Privacy.",
    "Deleted data leaves the backups within 35 days of its deletion.",
]
_DOCX_TABLE = [
    ["", "Kept for", "Deleted by"],
    ["Published schedules", "3 years", "Automatic job, every night"],
    ["Timesheets and premium hours", "7 years", "Automatic job, every night"],
    ["Messages in open shifts", "1 year", ""],
    ["", "", "An administrator, on request"],
    ["Members who left", "90 days after leaving", "Automatic job, every night"],
]
_DOCX_AFTER = ("Timesheets are kept longest because payroll and tax rules in most countries require "
               "seven years of records.")


def html_text() -> str:
    """The web page: a documentation article inside a site header, a sidebar and a footer."""
    return _HTML_PAGE


# ---------------------------------------------------------------------- PDF


def _pdf_string(text: str) -> str:
    """A PDF literal string in WinAnsi (the standard fonts' encoding), escaped."""
    data = text.encode("cp1252")
    escaped = data.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
    return "(" + escaped.decode("latin-1") + ")"


def _pdf_pages() -> list[list[tuple[str, float, float, str]]]:
    """Each page's lines: (font, size, y, text), laid out top to bottom, 3 paragraphs a page or so."""
    body: list[tuple[str, float, str]] = [("F2", 20, _PDF_TITLE)]
    for heading, paragraphs in _PDF_SECTIONS:
        body.append(("F2", 14, heading))
        for paragraph in paragraphs:
            body += [("F1", 11, line) for line in textwrap.wrap(paragraph, 80)]
            body.append(("F1", 11, ""))
    pages, page, y = [], [], 720.0
    for font, size, text in body:
        step = size * 1.6
        if y - step < 90 or (font == "F2" and size == 14 and y < 300 and page):
            pages.append(page)
            page, y = [], 720.0
        y -= step
        if text:
            page.append((font, size, y, text))
    pages.append(page)
    return pages


def pdf_bytes() -> bytes:
    """The PDF: the guide in Helvetica, a running header and "Page n of m" on every page."""
    pages = _pdf_pages()
    objects: list[bytes] = []

    def add(body: str | bytes) -> int:
        objects.append(body.encode("latin-1") if isinstance(body, str) else body)
        return len(objects)

    catalog, tree = add(""), add("")  # filled in below, once the pages' numbers are known
    fonts = {"F1": add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"),
             "F2": add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")}
    resources = " ".join(f"/{name} {number} 0 R" for name, number in fonts.items())
    kids = []
    for number, lines in enumerate(pages, start=1):
        drawn = [("F1", 9, 760.0, _PDF_HEADER), *lines, ("F1", 9, 40.0, f"Page {number} of {len(pages)}")]
        stream = "\n".join(f"BT /{font} {size:g} Tf 72 {y:.1f} Td {_pdf_string(text)} Tj ET"
                           for font, size, y, text in drawn).encode("latin-1")
        content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        kids.append(add(f"<< /Type /Page /Parent {tree} 0 R /MediaBox [0 0 612 792] "
                        f"/Resources << /Font << {resources} >> >> /Contents {content} 0 R >>"))
    objects[catalog - 1] = f"<< /Type /Catalog /Pages {tree} 0 R >>".encode()
    objects[tree - 1] = f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>".encode()
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    out.write(b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog, xref))
    return out.getvalue()


# ---------------------------------------------------------------------- Word


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{html.escape(text, quote=False)}</w:t></w:r>'


def _paragraph(text: str, style: str | None = None) -> str:
    styled = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f"<w:p>{styled}{_run(text) if text else ''}</w:p>"


def _table(rows: list[list[str]]) -> str:
    cells = "".join("<w:tr>" + "".join(f"<w:tc>{_paragraph(cell)}</w:tc>" for cell in row) + "</w:tr>"
                    for row in rows)
    return f"<w:tbl><w:tblPr><w:tblStyle w:val=\"TableGrid\"/></w:tblPr>{cells}</w:tbl>"


_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_STYLES = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="{_W}">'
           '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>'
           '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style></w:styles>')
_PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/word/document.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
        '<Override PartName="/word/styles.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>'),
    "_rels/.rels": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" '
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
        'Target="word/document.xml"/></Relationships>'),
    "word/_rels/document.xml.rels": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" '
        'Target="styles.xml"/></Relationships>'),
    "word/styles.xml": _STYLES,
}


def docx_bytes() -> bytes:
    """The Word file: a heading, two paragraphs, a table with an empty header cell and a split row, a note."""
    body = (_paragraph(_DOCX_TITLE, "Heading1") + "".join(_paragraph(p) for p in _DOCX_PARAGRAPHS)
            + _table(_DOCX_TABLE) + _paragraph(_DOCX_AFTER))
    document = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="{_W}">'
                f"<w:body>{body}</w:body></w:document>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in {**_PARTS, "word/document.xml": document}.items():
            info = zipfile.ZipInfo(name, date_time=(2026, 3, 1, 0, 0, 0))  # fixed: the same bytes on every run
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text.encode("utf-8"))
    return out.getvalue()


#: Each sample's path under :data:`DOCUMENTS_DIR`, and what makes its bytes.
SAMPLES = {"guides/holiday-scheduling.pdf": pdf_bytes,
           "integrations/microsoft-teams.html": lambda: html_text().encode("utf-8"),
           "admin/data-retention.docx": docx_bytes}


def write_samples(folder: Path = DOCUMENTS_DIR) -> list[Path]:
    """Write every sample under ``folder``; the paths written."""
    written = []
    for relative, make in SAMPLES.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(make())
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_samples():
        print(path)
