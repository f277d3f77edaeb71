"""Term counting: texts to a sparse document-term count matrix, the input of TF-IDF and BM25.

Texts are read in batches, and each term gets an id at its first appearance. With the lab's
``WordAnalyzer`` words are found with numpy (:mod:`lab.vectors.word_runs`): no Python string is
made per occurrence, only per new word. Any other analyzer is called text by text and its terms
looked up in a dictionary. After that everything is vectorised: the analyzer's filter (stop
words, digits) runs once per distinct term, and scipy sums each batch's counts
(``sum_duplicates``). Memory grows with the number of distinct (text, term) pairs, never with
texts x vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice, repeat
from typing import Protocol

import numpy as np
import scipy.sparse as sp

from lab.vectors.analyzers import Analyzer, WordAnalyzer
from lab.vectors.word_runs import WordCollision, WordIds, word_runs

__all__ = ["learn_counts", "count_known_terms", "known_term_columns"]

Tokenizer = Callable[[str], list[str]]

# Texts per batch: large enough that numpy's per-call overhead vanishes (128 chunks of 250 words
# are 32,000 words), small enough that one batch's temporaries stay near 10 MB.
_BATCH = 128
# Below this many characters in a batch, splitting with the regex is faster than with numpy.
_NUMPY_MIN_CHARACTERS = 5_000


class _TermIds(Protocol):
    words: list[str]

    def add(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]: ...


class _SplitIds:
    """Term ids for any analyzer: call it on each text, look each term up in a dictionary."""

    def __init__(self, split: Tokenizer) -> None:
        self.split = split
        self.words: list[str] = []
        self._id_of: dict[str, int] = {}

    def add(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Ids of every term occurrence in ``texts`` (registering new terms) and terms per text."""
        tokens, lengths = _split_texts(texts, self.split)
        id_of = self._id_of
        new_terms = [term for term in dict.fromkeys(tokens) if term not in id_of]
        id_of.update(zip(new_terms, range(len(self.words), len(self.words) + len(new_terms))))
        self.words.extend(new_terms)
        return np.fromiter(map(id_of.__getitem__, tokens), dtype=np.int64, count=len(tokens)), lengths


def _split_texts(texts: Sequence[str], split: Tokenizer) -> tuple[list[str], np.ndarray]:
    tokens: list[str] = []
    lengths = np.empty(len(texts), dtype=np.int64)
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"every text must be a str; item {i} of a batch is {type(text).__name__}")
        terms = split(text)
        tokens.extend(terms)
        lengths[i] = len(terms)
    return tokens, lengths


def _split_and_keep(analyzer: Tokenizer) -> tuple[Tokenizer, Callable[[str], bool] | None]:
    # The lab's analyzers split and filter separately, so the filter runs once per distinct term.
    if isinstance(analyzer, Analyzer):
        return analyzer.split, analyzer.keep
    return analyzer, None


def _finds_words_with_numpy(analyzer: Tokenizer) -> bool:
    return isinstance(analyzer, WordAnalyzer) and type(analyzer).split is WordAnalyzer.split


def _batches(texts: Iterable[str]) -> Iterator[list[str]]:
    iterator = iter(texts)
    while batch := list(islice(iterator, _BATCH)):
        yield batch


def _texts(texts: Iterable[str]) -> Sequence[str]:
    if isinstance(texts, str):
        raise TypeError("expected a list of texts, got a single str; wrap it in a list: [text]")
    return texts if isinstance(texts, Sequence) else list(texts)


def _batch_counts(ids: np.ndarray, lengths: np.ndarray, n_columns: int) -> sp.csr_matrix:
    """Counts of each id per text, given ids grouped by text (``-1`` means skip)."""
    rows = np.repeat(np.arange(len(lengths), dtype=np.int32), lengths)
    valid = ids >= 0
    ids, rows = ids[valid], rows[valid]
    indptr = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=len(lengths)), out=indptr[1:])
    counts = sp.csr_matrix(
        (np.ones(len(ids), dtype=np.int32), ids.astype(np.int32), indptr), shape=(len(lengths), n_columns)
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


def _count(texts: Sequence[str], term_ids: _TermIds, keep: Callable[[str], bool] | None) -> tuple[sp.csr_matrix, list[str]]:
    kept = bytearray()  # kept[id]: 1 if the analyzer counts that term
    parts: list[sp.csr_matrix] = []
    for batch in _batches(texts):
        ids, lengths = term_ids.add(batch)
        new_terms = term_ids.words[len(kept) :]
        kept.extend(map(keep, new_terms) if keep is not None else repeat(True, len(new_terms)))
        ids[~np.frombuffer(bytes(kept), dtype=np.bool_)[ids]] = -1
        parts.append(_batch_counts(ids, lengths, len(term_ids.words)))
    kept_flags = np.frombuffer(bytes(kept), dtype=np.bool_)
    order = sorted(np.flatnonzero(kept_flags).tolist(), key=term_ids.words.__getitem__)
    terms = [term_ids.words[i] for i in order]
    column = np.full(len(term_ids.words), -1, dtype=np.int32)
    column[order] = np.arange(len(terms), dtype=np.int32)
    counts = _stack(parts, len(term_ids.words))
    del parts  # the batches are copied into counts: free them before the next copy
    counts.indices = column[counts.indices]  # filtered ids never reached the counts, so no -1 here
    counts = sp.csr_matrix((counts.data, counts.indices, counts.indptr), shape=(counts.shape[0], len(terms)))
    counts.has_sorted_indices = False
    counts.sort_indices()
    return counts, terms


def learn_counts(texts: Iterable[str], analyzer: Tokenizer) -> tuple[sp.csr_matrix, list[str]]:
    """Counts of every term in every text, and the vocabulary (sorted) that names the columns.

    Returns ``(counts, terms)``: ``counts`` is a CSR int32 matrix of shape (n_texts, n_terms)
    with sorted column indices, ``terms[j]`` the term of column ``j``.
    """
    texts = _texts(texts)
    split, keep = _split_and_keep(analyzer)
    if _finds_words_with_numpy(analyzer):
        try:
            return _count(texts, WordIds(analyzer.lowercase), keep)
        except WordCollision:
            pass  # two words shared a 64-bit hash (odds near 1 in 4 billion for 100,000 words): use the regex
    return _count(texts, _SplitIds(split), keep)


def count_known_terms(texts: Iterable[str], analyzer: Tokenizer, vocabulary: dict[str, int]) -> sp.csr_matrix:
    """Counts of the vocabulary's terms in every text; terms outside the vocabulary are skipped.

    Returns a CSR int32 matrix of shape (n_texts, len(vocabulary)), columns as in ``vocabulary``.
    The analyzer's filter is not needed: a term it drops is never in a vocabulary it built.
    """
    split, _ = _split_and_keep(analyzer)
    parts: list[sp.csr_matrix] = []
    for batch in _batches(_texts(texts)):
        codes, batch_terms, lengths = _distinct_terms(batch, analyzer, split)
        columns = np.fromiter(map(vocabulary.get, batch_terms, repeat(-1)), dtype=np.int64, count=len(batch_terms))
        parts.append(_batch_counts(columns[codes], lengths, len(vocabulary)))
    return _stack(parts, len(vocabulary))


def known_term_columns(texts: Iterable[str], analyzer: Tokenizer, vocabulary: dict[str, int]) -> sp.csr_matrix:
    """A 1 for every occurrence of a vocabulary term, in the order each text uses its terms.

    Returns a CSR float64 matrix of shape (n_texts, len(vocabulary)) whose duplicates are not
    summed: ``count_known_terms`` without the summing, so that a score added up over a row's
    entries adds its terms in the order of the text (what a short query needs, not a corpus).
    """
    split, _ = _split_and_keep(analyzer)
    column_of = vocabulary.get
    columns: list[int] = []
    indptr = [0]
    for i, text in enumerate(_texts(texts)):
        if not isinstance(text, str):
            raise TypeError(f"every text must be a str; item {i} is {type(text).__name__}")
        columns.extend(column for column in map(column_of, split(text)) if column is not None)
        indptr.append(len(columns))
    return sp.csr_matrix((np.ones(len(columns)), np.asarray(columns, dtype=np.int32), np.asarray(indptr)),
                         shape=(len(indptr) - 1, len(vocabulary)))


def _distinct_terms(batch: Sequence[str], analyzer: Tokenizer, split: Tokenizer) -> tuple[np.ndarray, list[str], np.ndarray]:
    """``(codes, terms, lengths)``: ``terms[codes[i]]`` is occurrence ``i``, ``lengths`` per text."""
    # numpy's fixed cost per call only pays off from a few thousand characters (a query is ~50)
    if _finds_words_with_numpy(analyzer) and sum(map(len, batch)) >= _NUMPY_MIN_CHARACTERS:
        try:
            return word_runs(batch, analyzer.lowercase)
        except WordCollision:
            pass
    term_ids = _SplitIds(split)
    codes, lengths = term_ids.add(batch)
    return codes, term_ids.words, lengths
