"""Term counting: texts to a sparse document-term count matrix, the input of TF-IDF and BM25.

Only tokenisation runs per token in Python; everything after it is vectorised. Texts are read in
batches: each batch's tokens become integer ids through one dictionary lookup per token (done in
C by ``map``), and its counts are summed by scipy (``sum_duplicates``), so memory grows with the
number of distinct (document, term) pairs, never with documents x vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice, repeat

import numpy as np
import scipy.sparse as sp

from lab.vectors.analyzers import Analyzer

__all__ = ["learn_counts", "count_known_terms"]

Tokenizer = Callable[[str], list[str]]

# Texts per batch: large enough that numpy's per-call overhead vanishes, small enough that one
# batch of token strings (about 250 per 250-token chunk, some 60 bytes each) stays near 4 MB.
_BATCH = 256


def _split_and_keep(analyzer: Tokenizer) -> tuple[Tokenizer, Callable[[str], bool] | None]:
    # The lab's analyzers split and filter separately, so the filter runs once per distinct term.
    if isinstance(analyzer, Analyzer):
        return analyzer.split, analyzer.keep
    return analyzer, None


def _batches(texts: Iterable[str]) -> Iterator[list[str]]:
    if isinstance(texts, str):
        raise TypeError("expected a list of texts, got a single str; wrap it in a list: [text]")
    iterator = iter(texts)
    while batch := list(islice(iterator, _BATCH)):
        yield batch


def _tokenize(batch: Sequence[str], split: Tokenizer) -> tuple[list[str], np.ndarray]:
    tokens: list[str] = []
    lengths = np.empty(len(batch), dtype=np.int64)
    for i, text in enumerate(batch):
        if not isinstance(text, str):
            raise TypeError(f"every text must be a str; item {i} of a batch is {type(text).__name__}")
        terms = split(text)
        tokens.extend(terms)
        lengths[i] = len(terms)
    return tokens, lengths


def _batch_counts(ids: np.ndarray, lengths: np.ndarray, n_columns: int) -> sp.csr_matrix:
    """Counts of each id per document, given ids grouped by document (``-1`` means skip)."""
    rows = np.repeat(np.arange(len(lengths), dtype=np.int32), lengths)
    valid = ids >= 0
    ids, rows = ids[valid], rows[valid]
    indptr = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=len(lengths)), out=indptr[1:])
    counts = sp.csr_matrix(
        (np.ones(len(ids), dtype=np.int32), ids, indptr), shape=(len(lengths), n_columns)
    )
    counts.sum_duplicates()
    return counts


def _stack(parts: list[sp.csr_matrix], n_columns: int) -> sp.csr_matrix:
    if not parts:
        return sp.csr_matrix((0, n_columns), dtype=np.int32)
    indptr = [np.zeros(1, dtype=np.int64)]
    offset = 0
    for part in parts:
        indptr.append(part.indptr[1:].astype(np.int64) + offset)
        offset += part.nnz
    return sp.csr_matrix(
        (
            np.concatenate([part.data for part in parts]),
            np.concatenate([part.indices for part in parts]),
            np.concatenate(indptr),
        ),
        shape=(sum(part.shape[0] for part in parts), n_columns),
    )


def learn_counts(texts: Iterable[str], analyzer: Tokenizer) -> tuple[sp.csr_matrix, list[str]]:
    """Counts of every term in every text, and the vocabulary (sorted) that names the columns.

    Returns ``(counts, terms)``: ``counts`` is a CSR int32 matrix of shape (n_texts, n_terms)
    with sorted column indices, ``terms[j]`` the term of column ``j``.
    """
    split, keep = _split_and_keep(analyzer)
    first_seen: dict[str, int] = {}  # term -> id in order of first appearance
    kept = bytearray()  # kept[id]: 1 if the analyzer counts that term
    parts: list[sp.csr_matrix] = []
    for batch in _batches(texts):
        tokens, lengths = _tokenize(batch, split)
        new_terms = set(tokens).difference(first_seen)
        first_seen.update(zip(new_terms, range(len(first_seen), len(first_seen) + len(new_terms))))
        kept.extend(map(keep, new_terms) if keep is not None else repeat(True, len(new_terms)))
        ids = np.fromiter(map(first_seen.__getitem__, tokens), dtype=np.int32, count=len(tokens))
        ids[~np.frombuffer(bytes(kept), dtype=np.bool_)[ids]] = -1
        parts.append(_batch_counts(ids, lengths, len(first_seen)))
    kept_flags = np.frombuffer(bytes(kept), dtype=np.bool_)
    terms = sorted(term for term, i in first_seen.items() if kept_flags[i])
    column = np.full(len(first_seen), -1, dtype=np.int32)
    column[[first_seen[term] for term in terms]] = np.arange(len(terms), dtype=np.int32)
    counts = _stack(parts, len(first_seen))
    del parts  # the batches are copied into counts: free them before the next copy
    counts.indices = column[counts.indices]  # filtered ids never reached the counts, so no -1 here
    counts = sp.csr_matrix((counts.data, counts.indices, counts.indptr), shape=(counts.shape[0], len(terms)))
    counts.has_sorted_indices = False
    counts.sort_indices()
    return counts, terms


def count_known_terms(texts: Iterable[str], analyzer: Tokenizer, vocabulary: dict[str, int]) -> sp.csr_matrix:
    """Counts of the vocabulary's terms in every text; terms outside the vocabulary are skipped.

    Returns a CSR int32 matrix of shape (n_texts, len(vocabulary)), columns as in ``vocabulary``.
    """
    split, _ = _split_and_keep(analyzer)  # a term the analyzer drops is never in a vocabulary it built
    parts: list[sp.csr_matrix] = []
    for batch in _batches(texts):
        tokens, lengths = _tokenize(batch, split)
        ids = np.fromiter(map(vocabulary.get, tokens, repeat(-1)), dtype=np.int32, count=len(tokens))
        parts.append(_batch_counts(ids, lengths, len(vocabulary)))
    return _stack(parts, len(vocabulary))
