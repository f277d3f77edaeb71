"""Generated corpora for the benchmarks: chunks of about 250 tokens with a Zipf-like vocabulary.

Real chunk collections of 20,000 or 100,000 chunks are not something the lab ships, so these are
synthetic but shaped like them: word frequencies follow a power law (a handful of Spanish
function words are the most frequent words, as in real text), each chunk belongs to one of a few
topics whose own words it uses more often (which gives the map some structure), sentences end in
a full stop and some tokens are numbers. The same seed always gives the same texts.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from lab.vectors import SPANISH_STOP_WORDS

__all__ = ["GeneratedCorpus", "generated_corpus", "generated_queries", "zipf_words", "zipf_corpus", "zipf_queries"]

_CONSONANTS = list("bcdfghjlmnprstvzñ") + ["ch", "ll", "rr", "qu"]
_VOWELS = list("aeiouáéíóú")
# The most frequent Spanish words, most frequent first; they take the top ranks of the Zipf law.
_FUNCTION_WORDS = "de la que el en y a los se del las un por con no una su para es al lo como más o pero sus le".split()
_NUMBERS = ["1", "2", "10", "15", "24", "48", "100", "2026"]

VOCABULARY_SIZE = 50_000
N_TOPICS = 20
TOPIC_WORDS = 400
TOPICAL_SHARE = 0.3  # share of a chunk's tokens drawn from its topic's own words
ZIPF_EXPONENT = 1.0


@dataclass(frozen=True)
class GeneratedCorpus:
    """Texts, the topic each text was drawn from, and the words of each topic."""

    texts: list[str]
    topics: np.ndarray
    topic_words: list[list[str]]


def _pseudo_words(rng: np.random.Generator, n_words: int) -> list[str]:
    words: dict[str, None] = dict.fromkeys(_FUNCTION_WORDS + _NUMBERS)
    while len(words) < n_words:
        n_syllables = rng.integers(2, 5, size=n_words)
        consonants = rng.integers(len(_CONSONANTS), size=(n_words, 4))
        vowels = rng.integers(len(_VOWELS), size=(n_words, 4))
        for length, cs, vs in zip(n_syllables, consonants, vowels):
            words.setdefault("".join(_CONSONANTS[c] + _VOWELS[v] for c, v in zip(cs[:length], vs[:length])))
    return list(words)[:n_words]


def _zipf_cdf(n: int) -> np.ndarray:
    weights = 1.0 / np.arange(1, n + 1) ** ZIPF_EXPONENT
    return np.cumsum(weights) / weights.sum()


@lru_cache(maxsize=2)
def _vocabulary(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Words by rank, the same words ending a sentence, and the word ranks of every topic."""
    rng = np.random.default_rng(seed)
    words = np.array(_pseudo_words(rng, VOCABULARY_SIZE), dtype=object)
    ended = np.array([word + "." for word in words], dtype=object)
    content = np.arange(len(_FUNCTION_WORDS) + len(_NUMBERS), VOCABULARY_SIZE)
    topic_vocabulary = np.stack([rng.choice(content, size=TOPIC_WORDS, replace=False) for _ in range(N_TOPICS)])
    return words, ended, topic_vocabulary


@lru_cache(maxsize=4)
def generated_corpus(n_chunks: int, seed: int = 0) -> GeneratedCorpus:
    """``n_chunks`` chunks of 200-300 tokens (mean 250), deterministic for a given seed."""
    words, ended, topic_vocabulary = _vocabulary(seed)
    rng = np.random.default_rng([seed, n_chunks])
    global_cdf, topic_cdf = _zipf_cdf(VOCABULARY_SIZE), _zipf_cdf(TOPIC_WORDS)
    topics = rng.integers(N_TOPICS, size=n_chunks)
    lengths = rng.integers(200, 301, size=n_chunks)
    texts: list[str] = []
    for start in range(0, n_chunks, 5000):  # in slices, so the random draws stay small
        stop = min(start + 5000, n_chunks)
        n_tokens = int(lengths[start:stop].sum())
        ids = np.minimum(np.searchsorted(global_cdf, rng.random(n_tokens)), VOCABULARY_SIZE - 1)
        topical = rng.random(n_tokens) < TOPICAL_SHARE
        token_topics = np.repeat(topics[start:stop], lengths[start:stop])[topical]
        ranks = np.minimum(np.searchsorted(topic_cdf, rng.random(int(topical.sum()))), TOPIC_WORDS - 1)
        ids[topical] = topic_vocabulary[token_topics, ranks]
        sentence_end = rng.random(n_tokens) < 1 / 15
        tokens = np.where(sentence_end, ended[ids], words[ids])
        offsets = np.concatenate([[0], np.cumsum(lengths[start:stop])])
        texts.extend(" ".join(tokens[a:z]) for a, z in zip(offsets[:-1], offsets[1:]))
    topic_words = [list(words[row]) for row in topic_vocabulary]
    return GeneratedCorpus(texts=texts, topics=topics, topic_words=topic_words)


def generated_queries(corpus: GeneratedCorpus, n_queries: int, seed: int = 1) -> list[str]:
    """Short questions (2-5 topical words plus a function word), as a help desk would receive."""
    rng = np.random.default_rng(seed)
    queries = []
    for _ in range(n_queries):
        words = corpus.topic_words[rng.integers(N_TOPICS)]
        picked = [words[i] for i in rng.choice(60, size=rng.integers(2, 6), replace=False)]
        queries.append(" ".join(["¿" + _FUNCTION_WORDS[rng.integers(10)], *picked]) + "?")
    return queries


# A second shape: documents of 40-260 words drawn straight from one Zipf law over 40,000 made-up
# words (no topics, no function words), so that most queries drawn by the same law hold at least
# one word that is in most documents: the long lists a keyword index must read.
ZIPF_VOCABULARY_SIZE = 40_000
ZIPF_LAW_EXPONENT = 1.07
ZIPF_LENGTHS = (40, 260)


@lru_cache(maxsize=1)
def zipf_words(seed: int = 2) -> np.ndarray:
    """The Zipf corpus's words, most frequent first: made-up, none a stop word, a number or a function word."""
    skipped = set(_FUNCTION_WORDS) | set(_NUMBERS) | SPANISH_STOP_WORDS
    candidates = _pseudo_words(np.random.default_rng(seed), ZIPF_VOCABULARY_SIZE + 2_000)
    words = [word for word in candidates if word not in skipped][:ZIPF_VOCABULARY_SIZE]
    if len(words) < ZIPF_VOCABULARY_SIZE:
        raise RuntimeError("not enough made-up words: raise the margin in zipf_words")
    return np.array(words, dtype=object)


def _zipf_ranks(rng: np.random.Generator, n: int, ranks: tuple[int, int] = (0, ZIPF_VOCABULARY_SIZE - 1),
                exponent: float = ZIPF_LAW_EXPONENT) -> np.ndarray:
    """``n`` word ranks drawn with probability 1 / (rank + 1) ** exponent among ``ranks`` (first, last)."""
    weights = 1.0 / np.arange(ranks[0] + 1, ranks[1] + 2) ** exponent
    cdf = np.cumsum(weights) / weights.sum()
    return ranks[0] + np.minimum(np.searchsorted(cdf, rng.random(n)), ranks[1] - ranks[0])


@lru_cache(maxsize=2)
def zipf_corpus(n_docs: int, seed: int = 0) -> list[str]:
    """``n_docs`` documents of 40-260 words drawn by the Zipf law, deterministic for a given seed."""
    words = zipf_words()
    rng = np.random.default_rng([seed, n_docs])
    lengths = rng.integers(ZIPF_LENGTHS[0], ZIPF_LENGTHS[1] + 1, size=n_docs)
    texts: list[str] = []
    for start in range(0, n_docs, 10_000):  # in slices, so the random draws stay small
        part = lengths[start:start + 10_000]
        tokens = words[_zipf_ranks(rng, int(part.sum()))]
        offsets = np.concatenate([[0], np.cumsum(part)])
        texts.extend(" ".join(tokens[a:z]) for a, z in zip(offsets[:-1], offsets[1:]))
    return texts


def zipf_queries(n_queries: int, n_words: tuple[int, int], *, ranks: tuple[int, int] = (0, ZIPF_VOCABULARY_SIZE - 1),
                 exponent: float = ZIPF_LAW_EXPONENT, seed: int = 1) -> list[str]:
    """Queries of ``n_words`` (fewest, most) words drawn among the frequency ranks ``ranks`` (0 the most
    frequent word) by the corpus's Zipf law, or by another ``exponent`` (0: uniformly)."""
    words = zipf_words()
    rng = np.random.default_rng(seed)
    sizes = rng.integers(n_words[0], n_words[1] + 1, size=n_queries)
    drawn = _zipf_ranks(rng, int(sizes.sum()), ranks, exponent)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    return [" ".join(words[drawn[a:z]]) for a, z in zip(offsets[:-1], offsets[1:])]
