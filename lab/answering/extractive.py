"""An offline answerer: the source sentences that best cover the question, each with its citation.

No model writes anything: the answer is one or two sentences copied from the sources, so it
can only say what the knowledge base says, and a lesson runs the same way every time. A
sentence's *coverage* is the share of the question's terms it contains, each term weighted by
its idf over the corpus (a rare word like "polvorón" counts more than a common one), the
sentence read with its page title, its section and the FAQ question it answers, if any:

    coverage(s, q) = sum of idf(t) over the distinct terms t of q found in s  /  sum of idf(t) over q

The best sentence's coverage is the answer's confidence, in [0, 1], which the abstention
threshold compares against. Questions are not answers: sentences ending in "?" (an FAQ's
toggle titles) are only context, and sentences the injection check flagged are skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from lab.answering.sentences import sentences
from lab.answering.sources import Source
from lab.arguments import check_positive_int, check_share
from lab.vectors import CharNgramAnalyzer, TfidfVectorizer
from lab.vectors.estimator import Estimator

__all__ = ["Extract", "ExtractiveAnswerer"]


#: What the answerer's shares measure, for the message that refuses one outside [0, 1].
_SHARE_OF_TERMS = " (a share of the question's terms)"


@dataclass(frozen=True)
class Extract:
    """A sentence of source ``number`` and its coverage of the question."""

    number: int
    sentence: str
    coverage: float


class ExtractiveAnswerer(Estimator):
    """Picks the source sentences with the highest idf-weighted coverage of the question.

    Parameters
    ----------
    analyzer : text -> terms, for questions and sentences (accent-folded 4-grams by default).
    max_sentences : at most this many sentences in an answer.
    follow_share : a further sentence joins only if its coverage is at least this share of the best.

    Attributes
    ----------
    idf_ : dict term -> idf, learnt from the corpus texts by :meth:`fit`.
    """

    def __init__(self, analyzer: Callable[[str], list[str]] = CharNgramAnalyzer(n=4), max_sentences: int = 2,
                 follow_share: float = 0.8) -> None:
        self.analyzer = analyzer
        self.max_sentences = max_sentences
        self.follow_share = follow_share

    def fit(self, texts: Iterable[str]) -> ExtractiveAnswerer:
        """Learn each term's idf from the corpus ``texts``; returns self."""
        check_positive_int("max_sentences", self.max_sentences, " (0 or fewer would abstain on every question)")
        check_share("follow_share", self.follow_share, _SHARE_OF_TERMS)
        tfidf = TfidfVectorizer(analyzer=self.analyzer).fit(texts)
        self.idf_ = dict(zip(tfidf.vocabulary_, np.asarray(tfidf.idf_, dtype=np.float64).tolist()))
        return self

    def coverage(self, question: str, sentence: str) -> float:
        """Idf-weighted share of the question's distinct terms found in ``sentence``, in [0, 1]."""
        self._check_fitted("idf_")
        wanted = self._weights(question)
        total = sum(wanted.values())
        if total == 0:
            return 0.0
        found = set(self.analyzer(sentence))
        return sum(weight for term, weight in wanted.items() if term in found) / total

    def extract(self, question: str, sources: Sequence[Source],
                skip: Collection[tuple[int, str]] = ()) -> list[Extract]:
        """The best sentences, best first (ties: the better-ranked source, then the earlier sentence)."""
        self._check_fitted("idf_")
        candidates = [Extract(source.number, sentence, self.coverage(question, context))
                      for source in sources for sentence, context in self._in_context(source)
                      if (source.number, sentence) not in skip]
        ranked = sorted(candidates, key=lambda e: -e.coverage)  # stable: source order, then sentence order
        if not ranked or ranked[0].coverage == 0:
            return []
        chosen: list[Extract] = []
        for extract in ranked:
            if len(chosen) == self.max_sentences or extract.coverage < self.follow_share * ranked[0].coverage:
                break
            if all(extract.sentence != other.sentence for other in chosen):  # two pages may say it alike
                chosen.append(extract)
        return chosen

    @staticmethod
    def _in_context(source: Source) -> list[tuple[str, str]]:
        """Each answer-like sentence of ``source`` with what it is read with: the title, the
        section and the last question before it (an FAQ answer means little without its question)."""
        read, asked = [], ""
        for sentence in sentences(source.text):
            if sentence.endswith("?"):
                asked = sentence
                continue
            read.append((sentence, f"{source.title} {source.section or ''} {asked} {sentence}"))
        return read

    def _weights(self, text: str) -> dict[str, float]:
        # a term the corpus never uses cannot be found in any source, so it weighs what the rarest term does
        unseen = max(self.idf_.values(), default=1.0)
        return {term: self.idf_.get(term, unseen) for term in dict.fromkeys(self.analyzer(text))}
