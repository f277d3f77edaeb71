"""An ingestion run over a folder of files: chunk, embed in batches, upsert, purge what is gone.

:func:`ingest_folder` makes the index mirror a folder (``.md`` files by default). For each file
it compares the content hash and the chunker that cut it last time (name, parameters, version:
a :class:`ChunkerRecipe`) with what it has now; only a new, edited or stale file is cut again.
Its chunks are then compared with the index by id and fingerprint: new and changed ones are
embedded (in batches, before any write), unchanged ones keep their vectors, and ids the file no
longer gives are deleted, as are the chunks of a file that disappeared. Every write lands in one
transaction, and an index whose searchable content changed counts one more generation, so a
cache keyed by the generation knows when to forget.

What the run reads is decided in :mod:`lab.ingest.folder_reading`: regular files only, no
symbolic link followed (each is listed in the report), every file checked as text as it is read.

A file the run refuses (not text, too large, unreadable, a name that is not UTF-8, a document that
cannot be converted or is past a converter's limit) is skipped and listed in the report with the
reason (``files_skipped``); the others are ingested, and a skipped file's chunks from an earlier run
stay as they were. ``strict=True`` refuses the whole run instead, before anything is written.

A run that would delete more than ``max_delete_share`` of the source's chunks refuses and
writes nothing (a partial checkout or a wrong path looks exactly like mass deletion); run it
again with ``force=True`` if the files really went. A run with nothing to do writes nothing. A
run that finds another run published while it read and embedded writes nothing and plans again,
from the folder and the index as they now are (:mod:`lab.ingest.replanning`), as the page sync does.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from os import PathLike
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np

from lab.chunking import Chunk, Chunker, Document, MarkdownHeaderChunker
from lab.chunking.conversion import CONVERTERS, DocumentConversionError, document_markdown
from lab.chunking.input_limit import InputLimitReport
from lab.embedders import (DEFAULT_BATCH_SIZE, DenseEmbedder, check_embedder_limit, embed_in_batches,
                           embedder_limit_report)
from lab.errors import LabError
from lab.index import IndexStore, IngestedFile
from lab.index.serving import SwitchPendingError, require_serving
from lab.ingest.deletion_guardrail import check_deletion_share, check_max_share
from lab.ingest.folder_reading import (FileNameError, FileNotReadableError, FileNotTextError, FileTooLargeError,
                                       FolderNotFoundError, file_text, read_folder, refusal_reason, shown_path)
from lab.ingest.replanning import check_unmoved, publish_with_replanning

__all__ = ["FolderNotFoundError", "FileNotTextError", "FileNotReadableError", "FileNameError", "FileTooLargeError",
           "ChunkIdCollisionError", "FileChunksTooLongError", "ChunkerRecipe", "FileChunkers", "IngestReport",
           "ingest_folder", "content_hash", "stale_chunks"]

#: Fields of a chunk row other than its id whose change needs no new vector (the text is the same): a file
#: whose publication comment moves to a new version or date rewrites its rows without embedding anything.
_METADATA = ("page_id", "title", "type", "section", "order", "tokens", "edited", "version")


class ChunkIdCollisionError(LabError, ValueError):
    """Two files would give chunks the same id: their paths, or the urls their comments declare, differ
    only in what an id drops, or are the same url."""


class FileChunksTooLongError(LabError, ValueError):
    """A file gives chunks longer than the model reads (``skip_oversized``): the chunker measures characters or
    the lab's tokens, and the model splits some text into many more pieces than either suggests (each sign of a
    rule of dashes, a blob of base64 into pieces of a few letters)."""

    def __init__(self, path: str, report: InputLimitReport) -> None:
        self.path, self.report = path, report
        longest = max(tokens for _, tokens in report.over)
        super().__init__(
            f"{shown_path(path)} gives {report.count} chunk(s) longer than the {report.max_tokens:,} tokens the model "
            f"reads (the longest {longest:,}), as text the model splits into many small pieces does (a rule of "
            "dashes, a table's separator row, minified code, a pasted blob): shorten those lines, or move the file "
            "out of the folder. Nothing was embedded or written.")


def content_hash(data: bytes) -> str:
    """First 16 hex digits of the SHA-256 of a file's bytes."""
    return hashlib.sha256(data).hexdigest()[:16]


@dataclass(frozen=True)
class ChunkerRecipe:
    """What made a file's chunks: the chunker's name, its parameters (sorted JSON) and its version.

    Two recipes that differ in anything may cut the same file differently, so chunks made by the
    old one are stale.
    """

    name: str
    params: str
    version: str

    @classmethod
    def of(cls, chunker: Chunker) -> ChunkerRecipe:
        params = {name: getattr(chunker, name) for name in _init_params(chunker)}
        return cls(name=chunker.chunker_name, params=json.dumps(params, sort_keys=True, default=_named_param),
                   version=chunker.chunker_version)

    def made(self, record: IngestedFile) -> bool:
        """Whether this recipe is the one that cut ``record``'s chunks."""
        return (record.chunker, record.chunker_params, record.chunker_version) == (self.name, self.params, self.version)


def _init_params(chunker: Chunker) -> list[str]:
    return [p for p in inspect.signature(type(chunker).__init__).parameters if p != "self"]


def _named_param(value: object) -> str:
    """A parameter that is an object by its ``name``: the embedding model a semantic chunker measures
    with is recorded by its model name, so another model makes its chunks stale."""
    name = getattr(value, "name", None)
    if not isinstance(name, str):
        raise TypeError(f"a chunker parameter of type {type(value).__name__} has neither a JSON form nor a name; "
                        "give it a name attribute that changes whenever it would cut differently")
    return name


@dataclass(frozen=True)
class FileChunkers:
    """Which chunker cuts which file, by suffix (``{".md": MarkdownHeaderChunker()}`` by default).

    A source may mix file types; each type's chunker is recorded with the chunks it made.
    """

    by_suffix: Mapping[str, Chunker] = field(default_factory=lambda: {".md": MarkdownHeaderChunker()})

    @classmethod
    def with_documents(cls, chunker: Chunker | None = None) -> FileChunkers:
        """Markdown files and the documents converted to markdown (PDF, Word, web pages), all cut by ``chunker``."""
        chunker = chunker or MarkdownHeaderChunker()
        return cls({".md": chunker, **{suffix: chunker for suffix in CONVERTERS}})

    def chunker(self, path: str) -> Chunker | None:
        return self.by_suffix.get(PurePosixPath(path).suffix)

    def text(self, path: str, data: bytes) -> str:
        """What a file's chunks are cut from: a document's markdown (:mod:`lab.chunking.conversion`), else its text."""
        if PurePosixPath(path).suffix.lower() in CONVERTERS:
            return document_markdown(path, data)
        return file_text(path, data)

    def split(self, path: str, text: str) -> list[Chunk]:
        """The chunks of one file, read as markdown if it is ``.md`` or a converted document, as plain text otherwise."""
        chunker = self.chunker(path)
        if chunker is None:
            raise ValueError(f"no chunker for {path!r}; these suffixes have one: {sorted(self.by_suffix)}")
        if PurePosixPath(path).suffix == ".md" or PurePosixPath(path).suffix.lower() in CONVERTERS:
            return chunker.split(Document.from_markdown(text, path))
        return chunker.split(Document.from_text(text, path, title=PurePosixPath(path).stem))


@dataclass(frozen=True, kw_only=True)
class IngestReport:
    """What one run found and did. Chunk counts are distinct chunk ids of the source.

    ``chunks_stale``: chunks whose chunker changed since they were cut (their files were cut
    again); ``texts_embedded``: texts sent to the embedder, in ``batches`` calls;
    ``links_skipped``: the symbolic links found under the folder, none of them followed;
    ``files_skipped``: each file refused and skipped, with the reason (a run that is not strict).
    """

    model: str
    files_read: int
    files_cut: int
    files_removed: int
    chunks_new: int
    chunks_changed: int
    chunks_unchanged: int
    chunks_deleted: int
    chunks_stale: int
    chunks_total: int
    texts_embedded: int
    batches: int
    tokens_embedded: int
    generation: int
    changed_ids: tuple[str, ...] = ()
    deleted_ids: tuple[str, ...] = ()
    attempts: int = 1  # 2 or more: another run published while this one read, and it planned again
    links_skipped: tuple[str, ...] = ()
    files_skipped: tuple[tuple[str, str], ...] = ()

    @property
    def wrote(self) -> bool:
        """Whether the run changed what the index holds."""
        return bool(self.chunks_new or self.chunks_changed or self.chunks_deleted or self.files_cut)

    def as_row(self) -> dict[str, Any]:
        """The counts as one table row (the lists of ids and links left out)."""
        return {k: v for k, v in asdict(self).items()
                if k not in ("changed_ids", "deleted_ids", "links_skipped", "files_skipped")}


@dataclass
class _Plan:
    generation: int = 0
    total: int = 0  # the source's chunks before the run
    records: list[IngestedFile] = field(default_factory=list)
    ids_by_file: dict[str, list[str]] = field(default_factory=dict)
    embed: list[Chunk] = field(default_factory=list)
    refresh: list[dict[str, Any]] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: int = 0
    stale: int = 0
    removed_files: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)  # path -> why it was skipped


def _row(chunk: Chunk) -> dict[str, Any]:
    """A chunk as the store's row: a markdown file with no date or folder reads ``""``, one with no version
    ``None``."""
    return {"id": chunk.id, "page_id": chunk.page_id, "title": chunk.title, "type": chunk.type or "",
            "section": chunk.section, "order": chunk.order, "text": chunk.text, "tokens": chunk.tokens,
            "fingerprint": chunk.fingerprint, "edited": chunk.edited or "", "version": chunk.version}


def _check_arguments(store: Any, root: Any, embedder: Any, source: Any, chunkers: Any) -> None:
    """Mistakes in the call itself, refused before anything is read: an empty path would read the
    current directory, and a ``None`` source would fail only inside the write."""
    if not isinstance(store, IndexStore):
        raise TypeError(f"ingest_folder writes into an IndexStore (IndexStore(path)), not {type(store).__name__}")
    if not isinstance(root, (str, PathLike)):
        raise TypeError(f"root is the folder to ingest (a str or Path), not {type(root).__name__}")
    if not str(root).strip():
        raise FolderNotFoundError("root is an empty path, which would ingest the current directory: pass the folder "
                                  "to ingest (nothing was read or written)")
    if not isinstance(getattr(embedder, "name", None), str) or not callable(getattr(embedder, "embed_documents", None)):
        raise TypeError(f"embedder must be a dense embedder (a name and embed_documents), such as a fitted "
                        f"LsaEmbedder, not {type(embedder).__name__}")
    if not isinstance(source, str) or not source:
        raise ValueError(f"source names the files' collection in the index (a non-empty str such as 'docs'), "
                         f"not {source!r}")
    if not isinstance(chunkers, FileChunkers):
        raise TypeError(f"chunkers is a FileChunkers (FileChunkers({{'.md': MarkdownHeaderChunker()}})), "
                        f"not {type(chunkers).__name__}")


def _plan(store: IndexStore, source: str, files: dict[str, bytes], chunkers: FileChunkers,
          model: str | None, refused: dict[str, str] | None = None, fits: DenseEmbedder | None = None) -> _Plan:
    """What the run writes; with ``refused`` (a run that is not strict) a file that cannot be converted, or
    (with ``fits``) that gives a chunk longer than that embedder reads, is added to it and skipped, keeping
    its chunks from an earlier run, instead of refusing the run."""
    known, links = store.ingested_files(source), store.file_chunk_ids(source)
    plan = _Plan(generation=store.generation(), total=sum(len(ids) for ids in links.values()))
    plan.refused = dict(refused or {})
    kept: set[str] = set()
    owners: dict[str, str] = {}  # chunk id -> the file it comes from, to catch two files sharing an id
    recut: list[Chunk] = []
    for path, data in files.items():
        recipe, digest, record = ChunkerRecipe.of(chunkers.chunker(path)), content_hash(data), known.get(path)
        if record and record.content_hash == digest and recipe.made(record):
            plan.unchanged += len(links.get(path, ()))
            kept.update(links.get(path, ()))
            _claim(owners, links.get(path, ()), path, files)
            continue
        if record and not recipe.made(record):
            plan.stale += len(links.get(path, ()))
        try:
            chunks = chunkers.split(path, chunkers.text(path, data))
            over = embedder_limit_report(fits, chunks) if fits is not None else None
            if over is not None and not over.ok:
                raise FileChunksTooLongError(path, over)
        except (FileNotTextError, DocumentConversionError, FileChunksTooLongError) as error:
            if refused is None:
                raise
            plan.refused[path] = refusal_reason(error)
            kept.update(links.get(path, ()))  # its chunks from an earlier run stay as they were
            _claim(owners, links.get(path, ()), path, files)
            continue
        plan.records.append(IngestedFile(path=path, content_hash=digest, chunker=recipe.name,
                                         chunker_params=recipe.params, chunker_version=recipe.version))
        plan.ids_by_file[path] = [c.id for c in chunks]
        _claim(owners, plan.ids_by_file[path], path, files)
        kept.update(plan.ids_by_file[path])
        recut.extend(chunks)
    # only the re-cut files' chunks are looked up, by key: an unchanged folder reads no chunk rows
    ids = [chunk.id for chunk in recut]
    if ids:
        stored = {cid: fingerprint for cid, (_, fingerprint) in store.page_chunks((), ids).items()}
        rows = {row["id"]: row for row in store.chunks(model, ids)} if model in store.models() else {}
        _compare(plan, recut, stored, rows)
    plan.removed_files = sorted(set(known) - set(files) - set(plan.refused))
    gone = {cid for path in plan.removed_files + [r.path for r in plan.records] for cid in links.get(path, ())}
    plan.deleted = sorted(gone - kept)
    return plan


def _claim(owners: dict[str, str], ids: Iterable[str], path: str, files: Mapping[str, bytes]) -> None:
    """Record that these chunk ids come from ``path``; refuse an id another file already gave."""
    for chunk_id in ids:
        other = owners.setdefault(chunk_id, path)
        if other != path:
            raise ChunkIdCollisionError(
                f"{other} and {path} both give a chunk the id {chunk_id!r}: {_collision_cause(other, path, files)}. "
                "Nothing was embedded or written.")


def _collision_cause(first: str, second: str, files: Mapping[str, bytes]) -> str:
    """Why two files give the same ids, and the fix: the urls their ``<!-- url: -->`` comments declare
    (ids start with a page's url), or else their paths (the url a file without one gets)."""
    declared = {path: _declared_url(path, files[path]) for path in (first, second)}
    if declared[first] and declared[second]:
        urls = (f"the url {declared[first]}" if declared[first] == declared[second] else
                f"the urls {declared[first]} and {declared[second]} (which differ only in what an id drops)")
        return (f"both declare {urls} in their <!-- url: --> comment, and a chunk id starts with its page's url: "
                "give each file its own url in that comment")
    if declared[first] or declared[second]:
        commented, plain = (first, second) if declared[first] else (second, first)
        return (f"the url {declared[commented]} that {commented} declares in its <!-- url: --> comment and the path "
                f"of {plain} give the same page id: change that url, or rename {plain}")
    return ("their paths differ only in spaces, accents, case or punctuation, which ids leave out: rename one of "
            "them")


def _declared_url(path: str, data: bytes) -> str | None:
    """The url a markdown file's ``<!-- url: -->`` comment declares, or None (no comment, or not markdown)."""
    if PurePosixPath(path).suffix != ".md":
        return None
    publication = Document.from_markdown(file_text(path, data), path).markdown.publication
    return None if "url" in publication.fallbacks else publication.url


def _compare(plan: _Plan, chunks: list[Chunk], stored: dict[str, str], rows: dict[str, dict[str, Any]]) -> None:
    """Sort a re-cut file's chunks into new, changed (both to embed) and unchanged (whose rows
    are refreshed, vectors kept, if their order, title, date or version moved)."""
    for chunk in chunks:
        if chunk.id not in stored:
            plan.new.append(chunk.id)
            plan.embed.append(chunk)
        elif stored[chunk.id] != chunk.fingerprint:
            plan.changed.append(chunk.id)
            plan.embed.append(chunk)
        else:
            plan.unchanged += 1
            row, old = _row(chunk), rows.get(chunk.id, {})
            if any(old.get(name) != row[name] for name in _METADATA):
                plan.refresh.append(row)


def ingest_folder(store: IndexStore, root: str | Path, embedder: DenseEmbedder, *, source: str = "docs",
                  chunkers: FileChunkers | None = None, batch_size: int = DEFAULT_BATCH_SIZE,
                  max_delete_share: float = 0.5, force: bool = False, strict: bool = False,
                  skip_oversized: bool = False) -> IngestReport:
    """Make ``store``'s chunks of ``source`` mirror the files under ``root``; what the run did.

    A file the run refuses is skipped and listed in ``files_skipped``; with ``strict`` it raises its
    error instead (:mod:`lab.ingest.folder_reading` lists them), and nothing is written.

    A chunk longer than ``embedder`` reads refuses the whole run (:class:`~lab.chunking.InputTooLongError`): the
    model and the chunker do not fit each other. With ``skip_oversized`` (the command line, whose model and
    chunker are fixed), a file that gives such a chunk is refused as a file instead
    (:class:`FileChunksTooLongError`): skipped and listed, or with ``strict`` raised.

    Raises :class:`~lab.ingest.deletion_guardrail.GuardrailError` (nothing written) when the run would delete
    more than ``max_delete_share`` of the source's chunks and ``force`` is not set;
    :class:`~lab.index.ModelNotServingError` when ``embedder`` is not the model the
    index serves; :class:`~lab.index.SwitchPendingError` while a model switch is prepared;
    :class:`~lab.ingest.replanning.ConcurrentSyncError` (nothing written) when other runs published
    into the index during each of its attempts.
    """
    chunkers = FileChunkers() if chunkers is None else chunkers
    _check_arguments(store, root, embedder, source, chunkers)
    check_max_share(max_delete_share)
    model = embedder.name

    def attempt(number: int) -> IngestReport:  # the folder and the index are read afresh each time
        _check_model(store, model)
        folder = read_folder(Path(root), chunkers, strict=strict)
        files = folder.files
        with store.read_transaction():
            plan = _plan(store, source, files, chunkers, model, None if strict else folder.refused,
                         embedder if skip_oversized else None)
        check_deletion_share(
            len(plan.deleted), plan.total, max_delete_share, force=force, run="this run", scope=f"of {source!r}",
            explanation=f" and {len(plan.removed_files)} of its files are missing: nothing was written. Check the "
            "folder (a partial checkout? a wrong path?), then run again with force=True if the files really went.")
        check_embedder_limit(embedder, plan.embed)
        embedded = embed_in_batches(embedder, [c.text for c in plan.embed], batch_size)  # every call before a write
        generation = _write(store, source, plan, embedded.vectors, model)
        return IngestReport(
            model=model, files_read=len(files), files_cut=len(plan.records), files_removed=len(plan.removed_files),
            chunks_new=len(plan.new), chunks_changed=len(plan.changed), chunks_unchanged=plan.unchanged,
            chunks_deleted=len(plan.deleted), chunks_stale=plan.stale,
            chunks_total=sum(len(ids) for ids in store.file_chunk_ids(source).values()),
            texts_embedded=embedded.texts, batches=embedded.batches, tokens_embedded=embedded.tokens,
            generation=generation, changed_ids=tuple(sorted(plan.changed)), deleted_ids=tuple(plan.deleted),
            attempts=number, links_skipped=folder.links_skipped, files_skipped=tuple(sorted(plan.refused.items())))

    return publish_with_replanning(store, attempt)


def _check_model(store: IndexStore, model: str) -> None:
    pending = store.pending_switch()
    if pending:
        raise SwitchPendingError(f"a switch from {pending[1]!r} to {pending[0]!r} is prepared: commit or abort it "
                                 "(ModelSwitch) before ingesting, so that both models hold the same chunks")
    if store.serving_model() is not None:
        require_serving(store, model, purpose="ingest")


def _write(store: IndexStore, source: str, plan: _Plan, vectors: np.ndarray, model: str) -> int:
    """Apply the plan in one transaction, if no other run published since it was made; the
    index's generation after it."""
    content_changed = bool(plan.embed or plan.deleted or plan.refresh)
    if not (content_changed or plan.records or plan.removed_files):
        return store.generation()
    with store.transaction():
        check_unmoved(store, plan.generation)
        if plan.embed:
            store.put_chunks([_row(c) for c in plan.embed], vectors, model)
        if plan.refresh:
            store.update_chunks(plan.refresh)
        if plan.deleted:
            store.delete_chunks(plan.deleted)
        store.forget_files(source, plan.removed_files)
        store.record_files(source, plan.records, plan.ids_by_file)
        if store.serving_model() is None and model in store.models():
            store.set_serving_model(model)
        if content_changed:
            store.bump_generation()
        return store.generation()


def stale_chunks(store: IndexStore, source: str, chunkers: FileChunkers | None = None) -> dict[str, int]:
    """Chunker name -> how many of ``source``'s chunks it cut with other parameters or another version.

    A file no chunker now claims counts under its old chunker's name.
    """
    chunkers = chunkers or FileChunkers()
    links, counts = store.file_chunk_ids(source), {}
    for path, record in store.ingested_files(source).items():
        chunker = chunkers.chunker(path)
        if chunker is None or not ChunkerRecipe.of(chunker).made(record):
            counts[record.chunker] = counts.get(record.chunker, 0) + len(links.get(path, ()))
    return dict(sorted(counts.items()))
