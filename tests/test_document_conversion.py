"""Documents that are not markdown: converted, cleaned of their usual damage, and ingested like markdown."""

from __future__ import annotations

import shutil

import pytest

from lab.chunking.conversion import DocumentConversionError, document_markdown, docx_markdown, pdf_markdown
from lab.datasets.document_samples import DOCUMENTS_DIR, SAMPLES, docx_bytes, html_text, pdf_bytes
from lab.embedders import LsaEmbedder
from lab.index import IndexStore
from lab.ingest import FileChunkers, ingest_folder


def test_the_committed_samples_are_what_their_generator_writes() -> None:
    for relative, make in SAMPLES.items():
        assert (DOCUMENTS_DIR / relative).read_bytes() == make(), f"{relative}: run python -m lab.datasets.document_samples"


def test_a_pdf_loses_its_running_header_and_page_numbers_and_keeps_its_headings_and_paragraphs() -> None:
    markdown = pdf_markdown("guides/holiday-scheduling.pdf", pdf_bytes())
    assert markdown.startswith("# Holiday scheduling\n\n## Planning ahead\n\nPublic holidays change who can work")
    assert "Shiftly Docs" not in markdown and "Page 1 of" not in markdown and "of 2" not in markdown
    assert [line for line in markdown.splitlines() if line.startswith("## ")] == [
        "## Planning ahead", "## Public holidays by location", "## Premium pay"]
    assert "reduced hours, and which members asked for the day off." in markdown  # a wrapped line joined again


def test_a_web_page_keeps_its_article_and_drops_the_site_menu_sidebar_and_footer() -> None:
    markdown = document_markdown("integrations/microsoft-teams.html", html_text().encode())
    assert markdown.startswith("# Microsoft Teams\n\nSend schedule changes")
    for furniture in ("Pricing", "Sign in", "Quickstart", "Privacy", "© 2026"):
        assert furniture not in markdown
    assert "- Open shifts, with an *Apply* button for qualified members." in markdown


def test_a_word_table_split_across_two_rows_is_joined_and_its_header_kept() -> None:
    markdown = docx_markdown("admin/data-retention.docx", docx_bytes())
    assert markdown.startswith("# Data retention\n")
    assert "|  | Kept for | Deleted by |" in markdown
    assert "| Messages in open shifts | 1 year | An administrator, on request |" in markdown
    assert "|  |  | An administrator" not in markdown


@pytest.mark.parametrize("path, data", [("a.pdf", b"%PDF-1.4 not really"), ("a.docx", b"PK\x03\x04 broken"),
                                        ("a.docx", b"plain text")])
def test_a_damaged_document_is_a_conversion_error_naming_it(path: str, data: bytes) -> None:
    with pytest.raises(DocumentConversionError, match=f"^{path} is not a"):
        document_markdown(path, data)


def test_documents_are_ingested_through_markdown_and_a_second_run_has_nothing_to_do(tmp_path) -> None:
    folder = tmp_path / "docs"
    shutil.copytree(DOCUMENTS_DIR, folder)
    texts = [document_markdown(name, (DOCUMENTS_DIR / name).read_bytes()) for name in SAMPLES]
    embedder = LsaEmbedder(n_components=4).fit([p for text in texts for p in text.split("\n\n")])
    store = IndexStore(tmp_path / "kb.sqlite")
    first = ingest_folder(store, folder, embedder, chunkers=FileChunkers.with_documents())
    assert first.files_read == 3 and first.files_cut == 3 and first.chunks_new == first.chunks_total > 3
    sections = {row["section"] for row in store.chunks()}
    assert {"Premium pay", "What is posted"} <= sections
    assert not any("Sign in" in row["text"] or "Page 1 of 2" in row["text"] for row in store.chunks())
    again = ingest_folder(store, folder, embedder, chunkers=FileChunkers.with_documents())
    assert again.files_cut == 0 and again.texts_embedded == 0 and again.chunks_unchanged == first.chunks_total
    assert ingest_folder(IndexStore(":memory:"), folder, embedder).files_read == 0  # markdown alone by default


def _encrypted(pdf: bytes) -> bytes:
    """The sample PDF with an encryption dictionary whose password is not the empty one."""
    return pdf.replace(b"<< /Size 9 /Root 1 0 R >>", b"<< /Size 9 /Root 1 0 R /Encrypt << /Filter /Standard /V 1 /R 2 "
                       b"/O <" + b"ab" * 32 + b"> /U <" + b"cd" * 32 + b"> /P -4 >> /ID [<" + b"01" * 16 + b"> <"
                       + b"01" * 16 + b">] >>")


@pytest.mark.parametrize("data, problem", [
    (pdf_bytes()[:len(pdf_bytes()) // 2], "is not a PDF pdfminer can read (PSEOF; cut short or damaged?)"),
    (_encrypted(pdf_bytes()), "is encrypted (a password protects it)"),
    (pdf_bytes().replace(b"/Pages 2 0 R >>", b"            >>"), "has no pages"),  # offsets kept
])
def test_a_cut_encrypted_or_pageless_pdf_is_a_conversion_error_naming_it(data: bytes, problem: str) -> None:
    with pytest.raises(DocumentConversionError) as refused:
        pdf_markdown("guides/bad.pdf", data)
    assert str(refused.value).startswith(f"guides/bad.pdf {problem}")


def test_a_word_file_that_unpacks_past_the_limit_is_refused_before_it_is_unpacked(tmp_path) -> None:
    import zipfile

    from lab.chunking.conversion import MAX_UNPACKED_BYTES, DocumentLimitError

    bomb = tmp_path / "bomb.docx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            zeros = b"\0" * 2**20
            for _ in range(MAX_UNPACKED_BYTES // len(zeros) + 1):
                member.write(zeros)
    assert bomb.stat().st_size < 2**20  # a few hundred kilobytes on disk
    with pytest.raises(DocumentLimitError, match=rf"^guides/bomb.docx would unpack to [\d,]+ bytes, more than the limit "
                                                 rf"of {MAX_UNPACKED_BYTES:,}"):
        docx_markdown("guides/bomb.docx", bomb.read_bytes())


@pytest.mark.parametrize("opening", ["<div>", "<ul><li>", "<table><tr><td>"])
def test_html_nested_past_the_limit_is_refused_naming_the_file_and_the_limit(opening: str) -> None:
    from lab.chunking.conversion import MAX_NESTING_DEPTH, DocumentLimitError, html_markdown

    with pytest.raises(DocumentLimitError, match=f"^deep.html nests its elements more than {MAX_NESTING_DEPTH} levels"):
        html_markdown("deep.html", "<main>" + opening * 400 + "x</main>")
    assert "x" in html_markdown("shallow.html", "<main>" + "<div>" * (MAX_NESTING_DEPTH - 5) + "x</main>")


def test_a_pdf_still_converting_past_the_time_limit_is_refused_naming_the_page(monkeypatch) -> None:
    from lab.chunking import conversion

    monkeypatch.setattr(conversion, "MAX_CONVERSION_SECONDS", -1.0)  # every page is past the deadline
    with pytest.raises(conversion.DocumentLimitError, match=r"^slow.pdf was still converting after -1 s, the limit "
                                                            r"of the conversion, at page 1"):
        pdf_markdown("slow.pdf", pdf_bytes())
