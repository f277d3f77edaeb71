"""Spanish-aware analyzers: Snowball stems, folded accents, and character n-grams of words.

A customer writes "polvorones", the product sheet says "polvorón"; a question asks about a
"perrito", the page about "perros"; someone types "celiaco" without the accent. The word
analyzer of lesson 05 treats each pair as two unrelated terms. Two analyses close the gap:

- :class:`SpanishAnalyzer` reduces each word to its Snowball stem ("polvorones" and "polvorón"
  both become "polvoron"), the Spanish algorithm of Porter's Snowball, run by PyStemmer (the
  Snowball project's own C code); stems lose their accents too.
- :class:`CharNgramAnalyzer` cuts each accent-folded word into overlapping runs of ``n``
  characters with a mark at each end (" per", "perr", "erri", ...): words that share a root
  share most of their n-grams even where a stemmer keeps them apart ("celíaco" and
  "celiaquía"), and a typo costs only the few n-grams it touches. McNamee and Mayfield
  ("Character N-Gram Tokenization for European Language Text Retrieval", 2004) found n = 4
  a good length for Spanish, the default here.

Both drop stop words before anything else (compared with and without accents, so "qué" and
"que" are one word) and all-digit tokens unless ``keep_digits``. Chinese text keeps
:class:`~lab.vectors.CJKBigramAnalyzer`: neither stems nor word n-grams mean anything there.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

import Stemmer

from lab.vectors.analyzers import Analyzer

__all__ = ["fold_accents", "SpanishAnalyzer", "CharNgramAnalyzer"]

_WORD = re.compile(r"\w+")
_TILDE = "\u0303"  # combining tilde: ñ is a letter of its own in Spanish, not an accented n


@lru_cache(maxsize=1 << 16)  # called once or twice per word of every text: a corpus repeats its words
def fold_accents(text: str) -> str:
    """``text`` without acute accents, graves or diaereses ("celíaco" -> "celiaco"); ñ stays ñ."""
    decomposed = unicodedata.normalize("NFD", text)
    kept = "".join(c for c in decomposed if c == _TILDE or not unicodedata.combining(c))
    return unicodedata.normalize("NFC", kept)


@lru_cache(maxsize=None)
def _stemmer(language: str) -> Stemmer.Stemmer:
    # one stemmer per language, shared: analyzers stay small frozen values that copy and compare
    return Stemmer.Stemmer(language)


@dataclass(frozen=True)
class _FoldedWords(Analyzer):
    """Words of a text, lowercased, without stop words (with or without accents) or digit tokens."""

    _folded_stop: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "_folded_stop", frozenset(map(fold_accents, self._stop)))

    def words(self, text: str) -> list[str]:
        """The words of ``text`` that count, lowercased when ``lowercase`` is set, accents kept."""
        stop = self._folded_stop
        return [word for word in _WORD.findall(text.lower() if self.lowercase else text)
                if fold_accents(word) not in stop and (self.keep_digits or not word.isdigit())]

    def keep(self, term: str) -> bool:
        """Stop words and digits are dropped from the words, before they become terms."""
        return len(term) >= self.min_length


@dataclass(frozen=True)
class SpanishAnalyzer(_FoldedWords):
    """Words reduced to their Snowball stems, accents folded: "Polvorones" -> "polvoron".

    Stop words (the lab's Spanish list by default) and all-digit tokens are dropped first.
    ``language`` names any Snowball algorithm PyStemmer knows ("spanish", "english", ...).
    """

    language: str = "spanish"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.language not in Stemmer.algorithms():
            raise ValueError(f"no Snowball stemmer for {self.language!r}; use one of {Stemmer.algorithms()}")

    def split(self, text: str) -> list[str]:
        """The stems of the words of ``text`` that count, in order."""
        return [fold_accents(stem) for stem in _stemmer(self.language).stemWords(self.words(text))]


@dataclass(frozen=True)
class CharNgramAnalyzer(_FoldedWords):
    """Each accent-folded word as its overlapping ``n``-character runs, ends marked by a space.

    "perrito" with n = 4 gives " per", "perr", "erri", "rrit", "rito", "ito "; a word of fewer
    than ``n - 1`` letters gives one term, itself between the marks. Stop words and all-digit
    tokens are dropped before cutting.
    """

    n: int = 4

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.n, int) or isinstance(self.n, bool) or self.n < 2:
            raise ValueError(f"n must be an integer of at least 2 characters, not {self.n!r}")

    def split(self, text: str) -> list[str]:
        """The n-grams of every word of ``text`` that counts, word by word, in order."""
        n, terms = self.n, []
        for word in self.words(text):
            marked = f" {fold_accents(word)} "
            terms.extend(marked[i:i + n] for i in range(max(1, len(marked) - n + 1)))
        return terms
