"""What a folder ingestion reads: regular files under the folder, no link followed, each file
checked as text by its content, every refusal named before anything is embedded or written."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lab.course.paths import REPO_ROOT
from lab.errors import LabError
from lab.index import IndexStore
from lab.embedders import LsaEmbedder
from lab.ingest import ingest_folder
from lab.ingest import folder_reading
from lab.ingest.files import (ChunkIdCollisionError, FileNameError, FileNotReadableError, FileNotTextError,
                              FileTooLargeError)
from lab.ingest.folder_reading import file_text
from tests.unprivileged import run_refusable
from tests.docs_fixtures import embedder, folder, store  # noqa: F401 (fixtures)


def refused(store: IndexStore, folder: Path, embedder: LsaEmbedder, error: type[LabError], problem: str) -> None:
    """A run over ``folder`` is refused with ``error`` saying ``problem``, and the index keeps what it held."""
    before = store.dump()
    with pytest.raises(error, match=problem):
        ingest_folder(store, folder, embedder, strict=True)
    assert store.dump() == before


def indexed_paths(store: IndexStore) -> list[str]:
    return sorted(store.ingested_files("docs"))


# ---------------------------------------------------------------------- binary files, told by their content


@pytest.mark.parametrize("content, problem", [
    (b"\x00" * 100, r"notes\.md is not text: it holds a NUL byte \(offset 0\)"),
    ("# Notas\n\nTexto guardado en UTF-16.\n".encode("utf-16-le"), r"holds a NUL byte \(offset 1\), as binary files "
                                                                   "and UTF-16 text do"),
    (bytes(range(1, 32)) * 4, r"notes\.md is not text: 1\d\d of its 124 characters are control characters"),
], ids=["NUL bytes", "UTF-16 without a byte order mark", "control characters"])
def test_a_binary_file_that_decodes_as_utf8_is_still_refused_by_its_content(store, folder, embedder, content,
                                                                           problem) -> None:
    ingest_folder(store, folder, embedder)
    (folder / "notes.md").write_bytes(content)
    refused(store, folder, embedder, FileNotTextError, problem)


def test_one_stray_escape_code_in_a_text_file_does_not_make_it_binary(store, folder, embedder) -> None:
    (folder / "colours.md").write_text("# Colores\n\nEl terminal muestra \x1b[31mrojo.\n", encoding="utf-8")
    ingest_folder(store, folder, embedder)
    assert "colours.md" in indexed_paths(store)


def test_every_cut_of_a_text_file_is_text_or_a_file_not_text_error(tmp_path) -> None:
    whole = "# Pan dulce\n\nConchas, orejas y cuernitos: ¡recién horneados a las 7 h! 面包\n".encode("utf-8")
    for size in range(len(whole) + 1):
        try:
            assert whole.startswith(file_text("cut.md", whole[:size]).encode("utf-8"))
        except FileNotTextError as error:  # only a cut inside a character
            assert "is not UTF-8 text" in str(error) and whole[size] & 0xC0 == 0x80


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200) | st.text(max_size=100).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_any_bytes_in_a_markdown_file_are_ingested_or_refused_with_a_lab_error(tmp_path_factory, embedder,
                                                                               data) -> None:
    folder = tmp_path_factory.mktemp("any")
    (folder / "page.md").write_bytes(data)
    (folder / "other.md").write_text("# Otra\n\nUna página normal.\n", encoding="utf-8")
    store = IndexStore(":memory:")
    try:
        ingest_folder(store, folder, embedder)
    except LabError:
        assert store.count_chunks() == 0
    assert (folder / "page.md").read_bytes() == data


def test_a_file_larger_than_any_page_is_refused_before_it_is_read_whole(store, folder, embedder,
                                                                       monkeypatch) -> None:
    ingest_folder(store, folder, embedder)
    largest = max(path.stat().st_size for path in folder.rglob("*.md"))
    monkeypatch.setattr(folder_reading, "MAX_FILE_BYTES", largest)  # every page of the lab fits
    (folder / "dump.md").write_text("# Volcado\n\n" + "línea de registro\n" * largest, encoding="utf-8")
    refused(store, folder, embedder, FileTooLargeError, rf"dump\.md is larger than {largest:,} bytes.*split it")


# ---------------------------------------------------------------------- symbolic links


def test_no_symbolic_link_is_followed_out_of_the_folder_and_each_is_reported(store, folder, embedder,
                                                                            tmp_path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "salaries.md").write_text("# Nómina\n\nLo que gana cada quien.\n", encoding="utf-8")
    os.symlink(outside / "salaries.md", folder / "salaries.md")
    os.symlink(outside, folder / "shared")
    report = ingest_folder(store, folder, embedder)
    assert report.links_skipped == ("salaries.md", "shared")
    assert not [path for path in indexed_paths(store) if "salar" in path or path.startswith("shared")]
    assert not [row for row in store.chunks(embedder.name) if "Nómina" in row["text"]]
    assert "links_skipped" not in report.as_row()


def test_a_link_inside_the_folder_is_skipped_too_its_target_is_read_once_under_its_own_path(store, folder,
                                                                                          embedder) -> None:
    os.symlink(folder / "guides" / "quickstart.md", folder / "start-here.md")
    os.symlink(folder / "guides", folder / "how-to")
    report = ingest_folder(store, folder, embedder)
    assert report.links_skipped == ("how-to", "start-here.md")
    assert "guides/quickstart.md" in indexed_paths(store)
    assert not [path for path in indexed_paths(store) if path.startswith(("how-to", "start-here"))]


def test_a_file_swapped_for_a_link_after_the_listing_is_refused_not_followed(store, folder, embedder, tmp_path,
                                                                            monkeypatch) -> None:
    (tmp_path / "secret.md").write_text("# Secreto\n\nNo debe entrar.\n", encoding="utf-8")
    os.symlink(tmp_path / "secret.md", folder / "late.md")
    listed = folder_reading._list

    def listed_before_the_swap(root, chunkers, *rest):  # the link appeared between the listing and the read
        files, links = listed(root, chunkers, *rest)
        return sorted([*files, *links]), []

    monkeypatch.setattr(folder_reading, "_list", listed_before_the_swap)
    refused(store, folder, embedder, FileNotReadableError, r"late\.md cannot be read")


# ---------------------------------------------------------------------- ids, names and folders


def test_two_files_sharing_a_url_comment_are_told_to_give_each_its_own_url_not_to_rename(store, folder,
                                                                                        embedder) -> None:
    (folder / "a.md").write_text("<!-- url: /faq/horarios -->\n# Horarios\n\nAbrimos a las 7.\n", encoding="utf-8")
    (folder / "b.md").write_text("<!-- url: /faq/horarios -->\n# Horario\n\nCerramos a las 20.\n", encoding="utf-8")
    problem = r"a\.md and b\.md .* both declare the url /faq/horarios in their <!-- url: --> comment.*own url"
    refused(store, folder, embedder, ChunkIdCollisionError, problem)
    (folder / "b.md").rename(folder / "weekend-hours.md")  # what the old message advised: it fails again
    refused(store, folder, embedder, ChunkIdCollisionError, "both declare the url /faq/horarios")
    (folder / "weekend-hours.md").write_text("<!-- url: /faq/fin-de-semana -->\n# Horario\n\nCerramos a las 20.\n",
                                             encoding="utf-8")
    ingest_folder(store, folder, embedder)
    assert {"a.md", "weekend-hours.md"} <= set(indexed_paths(store))


def test_a_url_comment_that_matches_another_files_path_says_which_is_which(store, folder, embedder) -> None:
    (folder / "guides" / "setup.md").write_text("# Instalación\n\nPasos.\n", encoding="utf-8")
    (folder / "notes.md").write_text("<!-- url: /guides/setup -->\n# Notas\n\nOtra cosa.\n", encoding="utf-8")
    refused(store, folder, embedder, ChunkIdCollisionError,
            r"the url /guides/setup that notes\.md declares .* and the path of guides/setup\.md .* rename guides/setup")


@pytest.mark.parametrize("name", [b"caf\xe9.md", b"men\xfa/precios.md"], ids=["file", "folder"])
def test_a_name_that_is_not_utf8_is_named_with_escapes_instead_of_a_unicode_encode_error(store, folder, embedder,
                                                                                        name) -> None:
    ingest_folder(store, folder, embedder)
    target = os.fsencode(folder) + b"/" + name
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as file:
        file.write("# Café\n\nCon leche.\n".encode("utf-8"))
    shown = name.decode("utf-8", "backslashreplace").replace("\\", "\\\\").replace(".", r"\.")
    refused(store, folder, embedder, FileNameError, f"{shown} has a name that is not UTF-8.*rename it")


@pytest.mark.parametrize("name", ["new\nline.md", "clear\x1b[2J.md", "bell\x07.md"])
def test_a_name_with_a_line_break_or_an_escape_sequence_is_shown_escaped_in_the_refusal(store, folder, embedder,
                                                                                        name) -> None:
    # printed raw, the name would cut the message's line, or clear the terminal it is printed on
    (folder / name).write_bytes(b"\xff\xfe binary")
    report = ingest_folder(store, folder, embedder)
    (path, why), = report.files_skipped
    assert path == name and why.startswith(ascii(name)[1:-1] + " is not UTF-8 text")
    assert not any(ch < " " for ch in why)
    refused(store, folder, embedder, FileNotTextError, "is not UTF-8 text")


def test_a_folder_that_cannot_be_listed_stops_the_run_instead_of_reading_as_deleted(store, folder, embedder,
                                                                                  monkeypatch) -> None:
    ingest_folder(store, folder, embedder)
    scandir = os.scandir

    def refuse_guides(path):  # what a folder without read permission does (tests may run as root)
        if Path(path).name == "guides":
            raise PermissionError(13, "Permission denied")
        return scandir(path)

    monkeypatch.setattr(folder_reading.os, "scandir", refuse_guides)
    refused(store, folder, embedder, FileNotReadableError,
            r"the folder guides cannot be listed \(Permission denied\).*would read as deleted")


_RUN = textwrap.dedent("""
    import sys
    from lab.datasets.docs_corpus import load_docs_corpus
    from lab.errors import LabError
    from lab.index import IndexStore
    from lab.embedders import LsaEmbedder
    from lab.ingest import ingest_folder
    paragraphs = [p for _, text in load_docs_corpus() for p in text.split("\\n\\n") if p.strip()]
    embedder = LsaEmbedder(n_components=16).fit(paragraphs)
    store = IndexStore(sys.argv[2])
    if sys.argv[1] == "first":
        ingest_folder(store, sys.argv[3], embedder)
    else:
        try:
            ingest_folder(store, sys.argv[3], embedder)
        except LabError as error:
            print(type(error).__name__, error)
    print(len(store.ingested_files("docs")))
""")


@pytest.mark.slow
def test_a_subfolder_without_permission_stops_a_real_run_and_nothing_is_purged(folder, tmp_path) -> None:
    db, guides = tmp_path / "kb.sqlite", folder / "guides"
    run = [sys.executable, "-c", _RUN]
    first = subprocess.run([*run, "first", str(db), str(folder)], cwd=REPO_ROOT, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    guides.chmod(0o000)
    try:  # as any user but root, or as root without the capability to override permissions
        again = run_refusable([*run, "again", str(db), str(folder)], cwd=REPO_ROOT, capture_output=True, text=True)
    finally:
        guides.chmod(0o755)
    assert again.returncode == 0, again.stderr
    refusal, count = again.stdout.splitlines()
    assert refusal.startswith("FileNotReadableError the folder guides cannot be listed (Permission denied)")
    assert count == first.stdout.strip()  # every file of guides/ is still in the index
