"""An ingestion run over a folder of files: idempotent, exact about what changed, careful about deleting."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lab.chunking import InputTooLongError, MarkdownHeaderChunker, ParagraphChunker, SemanticChunker
from lab.course.lesson12 import ShortInputEmbedder
from lab.datasets.docs_corpus import DOCS_DIR, load_docs_corpus
from lab.index import IndexStore, ModelNotServingError
from lab.embedders import EmbeddingError, LsaEmbedder
from lab.ingest import (ConcurrentSyncError, FileChunkers, GuardrailError, folder_reading, ingest_folder,
                        stale_chunks)
from lab.ingest.files import (ChunkIdCollisionError, FileChunksTooLongError, FileNotReadableError, FileNotTextError,
                              FolderNotFoundError)
from lab.chunking.conversion import DocumentConversionError
from lab.ingest.replanning import MAX_ATTEMPTS
from lab.ingest.sync import SyncConfig
from tests.docs_fixtures import embedder, folder, store  # noqa: F401 (fixtures)

EDITED = "guides/quickstart.md"


def test_a_first_run_embeds_every_chunk_in_batches_and_stores_them(store, folder, embedder) -> None:
    report = ingest_folder(store, folder, embedder, batch_size=10)
    assert report.files_read == report.files_cut == 11
    assert report.chunks_new == report.texts_embedded == report.chunks_total == store.count_chunks(embedder.name) > 0
    assert report.batches == -(-report.chunks_new // 10)
    assert report.generation == store.generation() == 1
    assert store.serving_model() == embedder.name


def test_a_second_run_with_no_change_writes_nothing_and_embeds_nothing(store, folder, embedder) -> None:
    first = ingest_folder(store, folder, embedder)
    before = store.dump()
    again = ingest_folder(store, folder, embedder)
    assert (again.texts_embedded, again.files_cut, again.chunks_new, again.chunks_deleted) == (0, 0, 0, 0)
    assert again.chunks_unchanged == first.chunks_new
    assert again.generation == first.generation and not again.wrote
    assert store.dump() == before


def test_editing_a_file_changes_only_its_own_chunks(store, folder, embedder) -> None:
    ingest_folder(store, folder, embedder)
    path = folder / EDITED
    path.write_text(path.read_text(encoding="utf-8").replace("fifteen minutes", "ten minutes"), encoding="utf-8")
    own = set(store.file_chunk_ids("docs")[EDITED])
    report = ingest_folder(store, folder, embedder)
    assert report.files_cut == 1 and report.chunks_changed >= 1 and report.chunks_new == report.chunks_deleted == 0
    assert set(report.changed_ids) <= own
    assert report.texts_embedded == report.chunks_changed
    assert report.generation == 2


def test_a_run_looks_up_only_the_chunks_of_the_files_it_cuts_again(store, folder, embedder, monkeypatch) -> None:
    ingest_folder(store, folder, embedder)
    asked: list = []
    for name in ("chunks", "page_chunks", "chunk_ids"):
        method = getattr(store, name)
        monkeypatch.setattr(store, name, lambda *args, _m=method, _n=name, **kw: asked.append((_n, args)) or _m(*args, **kw))
    ingest_folder(store, folder, embedder)
    assert asked == []  # nothing to cut again: no chunk row is read
    path = folder / EDITED
    path.write_text(path.read_text(encoding="utf-8").replace("fifteen minutes", "ten minutes"), encoding="utf-8")
    ingest_folder(store, folder, embedder)
    own = set(store.file_chunk_ids("docs")[EDITED])
    assert [name for name, _ in asked] == ["page_chunks", "chunks"]
    assert all(set(args[-1]) == own for _, args in asked)


def test_a_new_section_moves_the_later_chunks_order_without_embedding_them_again(store, folder, embedder) -> None:
    ingest_folder(store, folder, embedder)
    path = folder / EDITED
    path.write_text(path.read_text(encoding="utf-8").replace("\n## ", "\n## Before you start\n\nCoffee.\n\n## ", 1),
                    encoding="utf-8")
    report = ingest_folder(store, folder, embedder)
    assert (report.chunks_new, report.chunks_changed, report.texts_embedded) == (1, 0, 1)
    orders = {row["id"]: row["order"] for row in store.chunks(embedder.name) if row["page_id"] == "guides-quickstart"}
    assert sorted(orders.values()) == list(range(len(orders)))


def test_deleting_a_file_purges_its_orphan_chunks(store, folder, embedder) -> None:
    ingest_folder(store, folder, embedder)
    own = set(store.file_chunk_ids("docs")[EDITED])
    (folder / EDITED).unlink()
    report = ingest_folder(store, folder, embedder)
    assert report.files_removed == 1 and set(report.deleted_ids) == own
    assert not own & set(store.chunk_ids()) and EDITED not in store.ingested_files("docs")
    assert report.texts_embedded == 0


def test_a_run_that_would_delete_more_than_the_allowed_share_refuses_and_writes_nothing(store, folder,
                                                                                       embedder) -> None:
    ingest_folder(store, folder, embedder)
    before = store.dump()
    for name in ("admin", "api", "integrations"):
        shutil.rmtree(folder / name)
    with pytest.raises(GuardrailError, match="nothing was written.*force=True"):
        ingest_folder(store, folder, embedder)
    assert store.dump() == before
    forced = ingest_folder(store, folder, embedder, force=True)
    assert forced.chunks_deleted > forced.chunks_total and forced.files_removed == 8


def test_a_failure_during_the_purge_leaves_the_index_as_it_was(store, folder, embedder, monkeypatch) -> None:
    ingest_folder(store, folder, embedder)
    before = store.dump()
    (folder / EDITED).unlink()

    def fail_after_deleting(ids):
        IndexStore.delete_chunks(store, ids)
        raise OSError("disk full")

    monkeypatch.setattr(store, "delete_chunks", fail_after_deleting)
    with pytest.raises(OSError):
        ingest_folder(store, folder, embedder)
    assert store.dump() == before


def test_changing_the_chunker_marks_its_chunks_stale_and_the_next_run_cuts_exactly_those(store, folder,
                                                                                        embedder) -> None:
    first = ingest_folder(store, folder, embedder)
    finer = FileChunkers({".md": MarkdownHeaderChunker(max_chars=600, overlap_chars=100)})
    assert stale_chunks(store, "docs", finer) == {"markdown_header": first.chunks_total}
    report = ingest_folder(store, folder, embedder, chunkers=finer)
    assert report.chunks_stale == first.chunks_total and report.files_cut == 11
    assert report.chunks_total > first.chunks_total
    assert stale_chunks(store, "docs", finer) == {}
    assert ingest_folder(store, folder, embedder, chunkers=finer).files_cut == 0


def test_a_new_chunker_version_with_the_same_parameters_is_stale_too(store, folder, embedder) -> None:
    ingest_folder(store, folder, embedder)

    class Revised(MarkdownHeaderChunker):
        chunker_version = "2"

    assert stale_chunks(store, "docs", FileChunkers({".md": Revised()})) == {"markdown_header": store.count_chunks()}


def test_a_semantic_chunker_is_recorded_by_its_model_and_another_model_makes_its_chunks_stale(
        store, folder, embedder) -> None:
    semantic = FileChunkers({".md": SemanticChunker(embedder)})
    first = ingest_folder(store, folder, embedder, chunkers=semantic)
    assert {r.chunker for r in store.ingested_files("docs").values()} == {"semantic"}
    assert ingest_folder(store, folder, embedder, chunkers=semantic).files_cut == 0
    other = LsaEmbedder(n_components=8).fit([p for _, t in load_docs_corpus() for p in t.split("\n\n") if p.strip()])
    assert stale_chunks(store, "docs", FileChunkers({".md": SemanticChunker(other)})) == {
        "semantic": first.chunks_total}


def test_each_file_type_keeps_its_own_chunker_and_only_the_changed_one_goes_stale(store, folder, embedder) -> None:
    (folder / "notes.txt").write_text("Shifts are planned weekly.\n\nManagers publish on Friday.\n", encoding="utf-8")
    mixed = FileChunkers({".md": MarkdownHeaderChunker(), ".txt": ParagraphChunker(max_chars=900)})
    ingest_folder(store, folder, embedder, chunkers=mixed)
    assert {r.chunker for r in store.ingested_files("docs").values()} == {"markdown_header", "paragraphs"}
    changed = FileChunkers({".md": MarkdownHeaderChunker(), ".txt": ParagraphChunker(max_chars=400)})
    assert set(stale_chunks(store, "docs", changed)) == {"paragraphs"}
    report = ingest_folder(store, folder, embedder, chunkers=changed)
    assert report.files_cut == 1 and report.chunks_stale == len(store.file_chunk_ids("docs")["notes.txt"])


def test_a_run_with_another_model_than_the_serving_one_is_refused(store, folder, embedder) -> None:
    ingest_folder(store, folder, embedder)
    other = LsaEmbedder(n_components=8).fit([p for _, t in load_docs_corpus() for p in t.split("\n\n") if p.strip()])
    with pytest.raises(ModelNotServingError, match="switch models with ModelSwitch"):
        ingest_folder(store, folder, other)


def _content(store: IndexStore) -> tuple:
    return store.state(), store.ingested_files("docs"), store.file_chunk_ids("docs")


def _texts(store: IndexStore, model: str) -> str:
    return " ".join(row["text"] for row in store.chunks(model))


def test_a_run_that_another_run_overtook_plans_again_from_the_folder_as_it_now_is(tmp_path, folder, embedder,
                                                                                  monkeypatch) -> None:
    store_a, store_b = IndexStore(tmp_path / "index.sqlite"), IndexStore(tmp_path / "index.sqlite")
    ingest_folder(store_a, folder, embedder)
    quickstart = folder / EDITED
    original = quickstart.read_text(encoding="utf-8")
    quickstart.write_text(original.replace("fifteen minutes", "ten minutes"), encoding="utf-8")
    embed, overtaken = embedder.embed_documents, []

    def overtake(texts):  # run A has planned the edit; the file is edited again, and run B publishes it
        if not overtaken:
            overtaken.append(True)
            quickstart.write_text(original.replace("fifteen minutes", "five minutes"), encoding="utf-8")
            ingest_folder(store_b, folder, embedder)
        return embed(texts)

    monkeypatch.setattr(embedder, "embed_documents", overtake)
    report = ingest_folder(store_a, folder, embedder)
    assert report.attempts == 2 and not report.wrote  # its second plan found the folder indexed as it is
    assert "five minutes" in _texts(store_a, embedder.name) and "ten minutes" not in _texts(store_a, embedder.name)
    fresh = IndexStore(":memory:")
    ingest_folder(fresh, folder, embedder)
    assert _content(store_a) == _content(fresh)


def test_a_run_overtaken_by_another_source_writes_its_own_changes_on_its_second_attempt(tmp_path, folder, embedder,
                                                                                        monkeypatch) -> None:
    store_a, store_b = IndexStore(tmp_path / "index.sqlite"), IndexStore(tmp_path / "index.sqlite")
    ingest_folder(store_a, folder, embedder)
    quickstart = folder / EDITED
    quickstart.write_text(quickstart.read_text(encoding="utf-8").replace("fifteen minutes", "ten minutes"),
                          encoding="utf-8")
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "opening-hours.md").write_text("# Opening hours\n\n## Weekdays\n\nFrom nine to six.\n", encoding="utf-8")
    embed, overtaken = embedder.embed_documents, []

    def overtake(texts):  # run B publishes another source while run A embeds
        if not overtaken:
            overtaken.append(True)
            ingest_folder(store_b, notes, embedder, source="notes")
        return embed(texts)

    monkeypatch.setattr(embedder, "embed_documents", overtake)
    report = ingest_folder(store_a, folder, embedder)
    assert report.attempts == 2 and report.chunks_changed >= 1 and report.generation == 3
    texts = _texts(store_a, embedder.name)
    assert "ten minutes" in texts and "From nine to six." in texts and "fifteen minutes" not in texts
    assert list(store_a.ingested_files("notes")) == ["opening-hours.md"]


def test_a_run_overtaken_at_every_attempt_gives_up_in_one_line_and_writes_nothing(store, folder, embedder,
                                                                                 monkeypatch) -> None:
    ingest_folder(store, folder, embedder)
    (folder / EDITED).unlink()
    embed, published = embedder.embed_documents, []

    def publish_meanwhile(texts):
        store.bump_generation()  # another process's run lands while this one embeds, every time
        published.append(store.generation())
        return embed(texts)

    (folder / "new.md").write_text("# New\n\n## Section\n\nA new page.\n", encoding="utf-8")
    monkeypatch.setattr(embedder, "embed_documents", publish_meanwhile)
    chunks, files = store.chunk_ids(), store.ingested_files("docs")
    with pytest.raises(ConcurrentSyncError, match="nothing was written") as refusal:
        ingest_folder(store, folder, embedder)
    assert len(published) == MAX_ATTEMPTS and "\n" not in str(refusal.value)
    assert (store.chunk_ids(), store.ingested_files("docs")) == (chunks, files)


def test_a_chunk_longer_than_the_models_input_limit_stops_the_run_before_any_call_or_write(store, folder,
                                                                                          embedder) -> None:
    calls = []
    short = ShortInputEmbedder(embedder, max_input_tokens=256)
    short.embed_documents = lambda texts: calls.append(texts)
    with pytest.raises(InputTooLongError, match="permission-matrix"):
        ingest_folder(store, folder, short)
    assert calls == [] and store.count_chunks() == 0 and store.generation() == 0


RULES = "# Tabla\n\n" + "|---" * 400 + "|\n"  # a separator row of 1,601 signs, each a token: a chunk past 512


def test_with_skip_oversized_a_file_past_the_input_limit_is_skipped_and_named_the_others_ingested(store, folder,
                                                                                                 embedder) -> None:
    ingest_folder(store, folder, embedder)
    short = ShortInputEmbedder(embedder, max_input_tokens=512)
    (folder / "guides" / "rules.md").write_text(RULES, encoding="utf-8")
    (folder / "guides" / "new.md").write_text("# New\n\nA new page.\n", encoding="utf-8")
    with pytest.raises(InputTooLongError):  # without it, the run is refused: the model and chunker do not fit
        ingest_folder(store, folder, short)
    report = ingest_folder(store, folder, short, skip_oversized=True)
    (path, why), = report.files_skipped
    assert path == "guides/rules.md" and report.chunks_new == 1
    assert why.startswith("guides/rules.md gives 1 chunk(s) longer than the 512 tokens the model reads")
    before = store.dump()
    (folder / "guides" / "new.md").write_text("# New\n\nEdited.\n", encoding="utf-8")
    with pytest.raises(FileChunksTooLongError, match="guides/rules.md gives 1 chunk"):
        ingest_folder(store, folder, short, skip_oversized=True, strict=True)
    assert store.dump() == before


@pytest.mark.parametrize("share", [-0.1, 1.5, "half", None, True])
def test_a_deletion_share_outside_zero_to_one_is_refused_before_anything_is_read(store, folder, embedder,
                                                                                 share) -> None:
    with pytest.raises(ValueError, match="max_delete_share must be a number between 0 and 1"):
        ingest_folder(store, folder, embedder, max_delete_share=share)
    with pytest.raises(ValueError, match="max_delete_share must be a number between 0 and 1"):
        SyncConfig(max_delete_share=share)
    assert store.generation() == 0


def test_a_folder_that_does_not_exist_is_refused_before_anything_is_read(store, folder, embedder) -> None:
    ingest_folder(store, folder, embedder)
    with pytest.raises(FolderNotFoundError, match="not a folder"):
        ingest_folder(store, folder / "missing", embedder, force=True)
    assert store.count_chunks() > 0


def test_a_file_that_is_not_utf8_text_is_named_and_nothing_is_written(store, folder, embedder) -> None:
    ingest_folder(store, folder, embedder)
    before = store.dump()
    (folder / "guides" / "latin1.md").write_bytes("# Café\n\nTexto guardado en Latin-1.\n".encode("latin-1"))
    with pytest.raises(FileNotTextError, match=r"guides/latin1\.md is not UTF-8 text \(byte 0xe9"):
        ingest_folder(store, folder, embedder, strict=True)
    assert store.dump() == before


def test_two_files_whose_ids_would_collide_are_named_and_nothing_is_written(store, folder, embedder) -> None:
    ingest_folder(store, folder, embedder)
    before = store.dump()
    (folder / "guides" / "getting started.md").write_text("# Otro\n\nUn archivo distinto.\n", encoding="utf-8")
    (folder / "guides" / "getting-started.md").write_text("# Uno\n\nEl primero.\n", encoding="utf-8")
    with pytest.raises(ChunkIdCollisionError, match="getting started.md and guides/getting-started.md"):
        ingest_folder(store, folder, embedder)
    assert store.dump() == before


def test_a_new_file_whose_ids_collide_with_an_unchanged_file_is_refused(store, folder, embedder) -> None:
    (folder / "guides" / "a-b.md").write_text("# Uno\n\nEl primero.\n", encoding="utf-8")
    ingest_folder(store, folder, embedder)
    (folder / "guides" / "a b.md").write_text("# Dos\n\nEl segundo.\n", encoding="utf-8")
    with pytest.raises(ChunkIdCollisionError, match="rename one of them"):
        ingest_folder(store, folder, embedder)


def test_a_byte_order_mark_is_not_part_of_the_text(store, folder, embedder) -> None:
    (folder / "guides" / "bom.md").write_bytes("\ufeff# Con marca\n\nUn texto breve.\n".encode("utf-8"))
    ingest_folder(store, folder, embedder)
    texts = [row["text"] for row in store.chunks(embedder.name) if row["id"].startswith("guides-bom")]
    assert texts and not any("\ufeff" in text for text in texts)


_FILES = sorted(path for path, _ in load_docs_corpus())
_change = st.tuples(st.sampled_from(_FILES), st.sampled_from(["append", "insert", "delete", "restore"]))


@pytest.mark.slow
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])
@given(history=st.lists(st.lists(_change, min_size=1, max_size=3), min_size=1, max_size=3))
def test_after_any_history_of_edits_and_deletions_the_index_equals_a_fresh_ingest_of_the_folder(
        history, embedder, tmp_path_factory) -> None:
    folder = Path(shutil.copytree(DOCS_DIR, tmp_path_factory.mktemp("history") / "docs"))
    store = IndexStore(":memory:")
    ingest_folder(store, folder, embedder)
    for changes in history:
        for path, change in changes:
            text = (folder / path).read_text(encoding="utf-8") if (folder / path).exists() else None
            if change == "append" and text is not None:
                (folder / path).write_text(text + "\n\nA new closing note.\n", encoding="utf-8")
            elif change == "insert" and text is not None:  # a new first section moves every later chunk's order
                (folder / path).write_text(text.replace("\n## ", "\n## Added first\n\nNew words.\n\n## ", 1),
                                           encoding="utf-8")
            elif change == "delete":
                (folder / path).unlink(missing_ok=True)
            elif change == "restore":
                shutil.copyfile(DOCS_DIR / path, folder / path)
        ingest_folder(store, folder, embedder, force=True)
    fresh = IndexStore(":memory:")
    ingest_folder(fresh, folder, embedder)
    assert store.chunks(embedder.name) == fresh.chunks(embedder.name)  # every column, not only the ids
    ids, vectors = store.vectors(embedder.name)
    fresh_ids, fresh_vectors = fresh.vectors(embedder.name)
    assert ids == fresh_ids and np.allclose(vectors, fresh_vectors, atol=1e-6)
    assert ingest_folder(store, folder, embedder).texts_embedded == 0


@pytest.mark.parametrize("call, error, problem", [
    (lambda store, folder, embedder: ingest_folder(store, "", embedder), FolderNotFoundError,
     "empty path, which would ingest the current directory"),
    (lambda store, folder, embedder: ingest_folder(store, None, embedder), TypeError, "root is the folder"),
    (lambda store, folder, embedder: ingest_folder(str(folder / "index.sqlite"), folder, embedder), TypeError,
     r"writes into an IndexStore \(IndexStore\(path\)\), not str"),
    (lambda store, folder, embedder: ingest_folder(store, folder, None), TypeError, "must be a dense embedder"),
    (lambda store, folder, embedder: ingest_folder(store, folder, embedder, source=None), ValueError,
     "a non-empty str such as 'docs'"),
    (lambda store, folder, embedder: ingest_folder(store, folder, embedder, chunkers={".md": None}), TypeError,
     "chunkers is a FileChunkers"),
])
def test_a_call_with_a_wrong_argument_is_refused_before_anything_is_read_or_written(store, folder, embedder, call,
                                                                                   error, problem) -> None:
    ingest_folder(store, folder, embedder)
    before = store.dump()
    with pytest.raises(error, match=problem):
        call(store, folder, embedder)
    assert store.dump() == before


def test_a_file_that_cannot_be_read_is_named_and_nothing_is_written(store, folder, embedder, monkeypatch) -> None:
    ingest_folder(store, folder, embedder)
    before = store.dump()
    open_file = os.open

    def refuse_quickstart(path, flags, *mode):  # what a file without read permission does (tests may run as root)
        if Path(path).name == "quickstart.md":
            raise PermissionError(13, "Permission denied")
        return open_file(path, flags, *mode)

    monkeypatch.setattr(folder_reading.os, "open", refuse_quickstart)
    with pytest.raises(FileNotReadableError, match=r"guides/quickstart\.md cannot be read \(Permission denied\)"):
        ingest_folder(store, folder, embedder, strict=True)
    assert store.dump() == before


class _Broken:
    """An embedder that answers with NaN vectors, too few vectors or nothing at all."""

    def __init__(self, inner: LsaEmbedder, answer: str) -> None:
        self.inner, self.answer = inner, answer
        self.name, self.max_input_tokens = inner.name, inner.max_input_tokens

    def embed_documents(self, texts):
        result = self.inner.embed_documents(texts)
        if self.answer == "nothing":
            return None
        vectors = np.array(result.vectors)
        vectors[-1, 0] = np.nan if self.answer == "nan" else vectors[-1, 0]
        return replace(result, vectors=vectors[:-1] if self.answer == "too few" else vectors)


@pytest.mark.parametrize("answer, problem", [("nan", r"a vector holding NaN or infinity for text \d+"),
                                             ("too few", r"vectors of shape \(\d+, 16\) for \d+ texts"),
                                             ("nothing", "returned no vectors")])
def test_an_embedder_that_answers_with_nan_or_missing_vectors_is_named_and_nothing_is_written(
        store, folder, embedder, answer, problem) -> None:
    ingest_folder(store, folder, embedder)
    before = store.dump()
    (folder / "guides" / "new.md").write_text("# Nuevo\n\nUn archivo nuevo.\n\n## Otro\n\nMás texto.\n", encoding="utf-8")
    with pytest.raises(EmbeddingError, match=problem):
        ingest_folder(store, folder, _Broken(embedder, answer), batch_size=1)
    assert store.dump() == before


def _hostile_files(folder: Path) -> dict[str, str]:
    """Put one file of each kind the run refuses into ``folder``; each path and what its refusal says."""
    import zipfile

    from lab.chunking.conversion import MAX_UNPACKED_BYTES
    from lab.datasets.document_samples import pdf_bytes

    (folder / "guides" / "latin1.md").write_bytes("# Café\n\nTexto guardado en Latin-1.\n".encode("latin-1"))
    with zipfile.ZipFile(folder / "bomb.docx", "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            for _ in range(MAX_UNPACKED_BYTES // 2**20 + 1):
                member.write(b"\0" * 2**20)
    (folder / "deep.html").write_text("<main>" + "<div>" * 500 + "x</main>", encoding="utf-8")
    (folder / "cut.pdf").write_bytes(pdf_bytes()[:1500])
    return {"guides/latin1.md": "is not UTF-8 text", "bomb.docx": "would unpack to",
            "deep.html": "nests its elements more than", "cut.pdf": "is not a PDF pdfminer can read"}


@pytest.mark.slow
def test_hostile_files_among_good_ones_are_skipped_and_named_and_the_good_ones_ingested(folder, embedder) -> None:
    good = IndexStore(":memory:")
    expected = ingest_folder(good, folder, embedder, chunkers=FileChunkers.with_documents())
    hostile = _hostile_files(folder)
    store = IndexStore(":memory:")
    report = ingest_folder(store, folder, embedder, chunkers=FileChunkers.with_documents())
    assert [path for path, _ in report.files_skipped] == sorted(hostile)
    for path, why in report.files_skipped:
        assert why.startswith(f"{path} {hostile[path]}") and "Nothing was embedded or written" not in why
    assert report.chunks_total == expected.chunks_total and store.dump() == good.dump()
    strict = IndexStore(":memory:")
    with pytest.raises(DocumentConversionError, match="^bomb.docx would unpack"):  # the first, in path order
        ingest_folder(strict, folder, embedder, chunkers=FileChunkers.with_documents(), strict=True)
    assert strict.count_chunks() == 0


def test_a_file_that_turns_bad_is_skipped_and_its_chunks_stay_as_they_were(store, folder, embedder) -> None:
    ingest_folder(store, folder, embedder)
    before = store.dump()
    (folder / "guides" / "quickstart.md").write_bytes(b"# Gu\xeda\n\nAhora en Latin-1.\n")
    report = ingest_folder(store, folder, embedder)
    assert [path for path, _ in report.files_skipped] == ["guides/quickstart.md"]
    assert not report.wrote and report.chunks_deleted == 0 and store.dump() == before
