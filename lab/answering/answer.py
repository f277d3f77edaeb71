"""Answering a customer from the index: retrieve, number the sources, answer with citations or abstain.

:class:`Answerer` searches with any retriever, turns the top hits into numbered sources
(title, section, url, last edit), builds the prompt a model would receive, and answers offline
with :class:`~lab.answering.extractive.ExtractiveAnswerer`. Below the ``threshold`` of
confidence it abstains with a fixed answer that says whom to ask, rather than guess.
:meth:`Answerer.ask_model` sends the same prompt to a model instead; a reply the model stopped
with a refusal is never shown to the customer: the question goes to a person.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lab.answering.escalation import EscalationRule, matching_rule
from lab.answering.extractive import ExtractiveAnswerer
from lab.answering.injection import Flag, flag_sources
from lab.answering.prompt import ABSTAIN_MARK, AnswerPrompt, build_prompt
from lab.answering.sources import Source, numbered_sources
from lab.arguments import check_share
from lab.retrieval.corpus import SearchCorpus
from lab.retrieval.filters import ChunkFilter
from lab.retrieval.index_search import IndexSearcher
from lab.retrieval.retrievers import Retriever
from lab.services.anthropic import ModelAnswer, ModelRefusal, Skipped, call_model
from lab.vectors.search import check_k

__all__ = ["ABSTAIN_ANSWER", "ANSWER_THRESHOLD", "MODEL_REFUSAL", "REFUSAL_REPLY", "Answer", "Answerer"]

#: What the bakery's assistant says when the knowledge base does not answer: whom to ask instead.
ABSTAIN_ANSWER = ("No encuentro la respuesta en nuestra base de conocimiento y prefiero no adivinar. "
                  "Escríbanos por WhatsApp (lunes a sábado de 8:00 a 19:00, domingos de 8:00 a 14:00) "
                  "o pregunte en el mostrador: una persona del equipo le contesta.")

#: The name an answer is escalated under when the model declined the request (``stop_reason`` "refusal").
MODEL_REFUSAL = "model refusal"
#: What the customer reads instead of a reply the model stopped with a refusal: a person takes over.
REFUSAL_REPLY = ("Esta pregunta no la contesta el asistente automático: le pasamos su mensaje a una persona "
                 "del equipo, que le contesta por WhatsApp dentro del horario de atención.")
_CITATION = re.compile(r"\[(\d+)\]")


#: The abstention threshold lesson 11 calibrates on the bakery's labelled and unanswerable questions
#: (``data/tables/11_citation_accuracy.csv``); ``python -m lab ask`` abstains below it unless told otherwise.
ANSWER_THRESHOLD = 0.506
_CONFIDENCE = " (a confidence: the share of the question's terms the best sentence covers)"


@dataclass(frozen=True)
class Answer:
    """An answer and everything needed to check it.

    ``cited`` are the numbers of the sources the answer cites (none when it abstains or escalates);
    ``confidence`` is the best sentence's coverage of the question; ``flags`` the
    instruction-like sentences found in the sources (left out of the answer); ``escalated`` names
    the rule that sent the question to a person (:mod:`lab.answering.escalation`), whose reply is
    the text, the sources attached for whoever answers.
    """

    question: str
    text: str
    cited: tuple[int, ...]
    sources: tuple[Source, ...]
    confidence: float
    abstained: bool
    flags: tuple[Flag, ...]
    escalated: str | None = None

    def cited_sources(self) -> list[Source]:
        """The sources the answer cites, in citation order."""
        by_number = {source.number: source for source in self.sources}
        return [by_number[number] for number in self.cited]

    def __str__(self) -> str:
        return self.text


class Answerer:
    """Retrieve ``k`` chunks, answer from their sentences with citations, abstain below ``threshold``.

    Parameters
    ----------
    retriever : any retriever (fitted by :meth:`fit` on the corpus), or an
        :class:`~lab.retrieval.IndexSearcher`, which searches an index as it is now: the answerer
        follows its chunks when a sync changes them.
    k : how many chunks become numbered sources.
    threshold : the lowest confidence that is still answered (0: always answer).
    extractor : the offline answerer (an :class:`ExtractiveAnswerer` by default).
    escalate : the kinds of question never answered automatically but passed to a person with the
        sources found, e.g. ``(ALLERGY_RULE,)``, as the bakery's pages require for allergies.
    audience : who asks: only chunks of pages meant for that audience become sources, filtered
        before ranking (``None``: every chunk, as :mod:`lab.retrieval.corpus` explains).
    where : a :class:`~lab.retrieval.filters.ChunkFilter`: only chunks of that version, or edited in
        that window of dates, become sources, filtered before ranking too (``None``: every chunk).
    """

    def __init__(self, retriever: Retriever, k: int = 5, threshold: float = 0.0,
                 extractor: ExtractiveAnswerer | None = None,
                 escalate: Sequence[EscalationRule] = (), audience: str | None = None,
                 where: ChunkFilter | None = None) -> None:
        self.retriever = retriever
        self.k = k
        self.threshold = threshold
        self.extractor = extractor or ExtractiveAnswerer()
        self.escalate = escalate
        self.audience = audience
        self.where = where

    def fit(self, corpus: SearchCorpus | None = None) -> Answerer:
        """Fit the retriever and the extractor on ``corpus``; returns self. With no corpus the retriever
        is an :class:`~lab.retrieval.IndexSearcher`, fitted already: the extractor reads its chunks."""
        check_k(self.k)
        check_share("threshold", self.threshold, _CONFIDENCE)
        if isinstance(self.retriever, IndexSearcher):
            if corpus is not None:
                raise TypeError("an IndexSearcher reads its chunks from the index: call fit() without a corpus")
            self.retriever.refresh()
            corpus = self.retriever.corpus_
        elif not (hasattr(self.retriever, "fit") and hasattr(self.retriever, "search")):
            raise TypeError(f"an Answerer searches with a retriever (e.g. TUNED.retriever()) or an IndexSearcher, "
                            f"not {type(self.retriever).__name__}")
        elif corpus is None:
            raise TypeError("fit() needs the corpus to search (or give the Answerer an IndexSearcher(store))")
        else:
            self.retriever.fit(corpus)
        self.extractor.fit(corpus.texts)
        self.corpus_ = corpus
        return self

    def sources(self, question: str) -> list[Source]:
        """The ``k`` best chunks for ``question`` as numbered sources."""
        if not hasattr(self, "corpus_"):
            raise ValueError("this Answerer is not fitted yet: call fit(corpus) with the chunks to search")
        if isinstance(self.retriever, IndexSearcher) and self.retriever.refresh():
            self.fit()  # a sync changed the index's chunks: answer from them, not from the ones read before
        hits = self.retriever.search(question, k=self.k, audience=self.audience, where=self.where)
        return numbered_sources(hits, self.corpus_)

    def prompt(self, question: str) -> AnswerPrompt:
        """The prompt a model would receive for ``question`` (send it with ``lab.services.call_model``)."""
        return build_prompt(question, self.sources(question))

    def answer(self, question: str) -> Answer:
        """Answer from the sources with a citation after each sentence, abstain, or escalate a question
        of a kind that always goes to a person (its sources attached, nothing answered)."""
        check_share("threshold", self.threshold, _CONFIDENCE)  # it may have been set after fit (answer_table does)
        sources = self.sources(question)
        flags = flag_sources(sources)
        rule = matching_rule(question, self.escalate)
        if rule is not None:
            return Answer(question, rule[0].reply, (), tuple(sources), 0.0, False, tuple(flags), escalated=rule[0].name)
        extracts = self.extractor.extract(question, sources, skip={(f.number, f.sentence) for f in flags})
        confidence = extracts[0].coverage if extracts else 0.0
        if not extracts or confidence < self.threshold:
            return Answer(question, ABSTAIN_ANSWER, (), tuple(sources), confidence, True, tuple(flags))
        text = " ".join(f"{e.sentence} [{e.number}]" for e in extracts)
        cited = tuple(dict.fromkeys(e.number for e in extracts))
        return Answer(question, text, cited, tuple(sources), confidence, False, tuple(flags))

    def ask_model(self, question: str,
                  call: Callable[[AnswerPrompt], ModelAnswer | Skipped] = call_model) -> Answer | Skipped:
        """Answer ``question`` with a model instead of the extractive answerer: the same sources, prompt and
        escalation rules, sent through ``call`` (:func:`lab.services.call_model`, skipped without a key).

        The model's text is the answer, citing the source numbers it writes in brackets; a reply of
        ``NO_ANSWER`` abstains. A model answer has no coverage, so its ``confidence`` is ``nan``. When the
        model declines (:class:`~lab.services.ModelRefusal`), nothing it wrote is shown: the answer is
        :data:`REFUSAL_REPLY`, escalated as :data:`MODEL_REFUSAL` with the sources attached for a person.
        """
        sources = self.sources(question)
        flags = tuple(flag_sources(sources))
        rule = matching_rule(question, self.escalate)
        if rule is not None:
            return Answer(question, rule[0].reply, (), tuple(sources), 0.0, False, flags, escalated=rule[0].name)
        try:
            reply = call(build_prompt(question, sources))
        except ModelRefusal:
            return Answer(question, REFUSAL_REPLY, (), tuple(sources), 0.0, False, flags, escalated=MODEL_REFUSAL)
        if isinstance(reply, Skipped):
            return reply
        if reply.text.strip() == ABSTAIN_MARK:
            return Answer(question, ABSTAIN_ANSWER, (), tuple(sources), math.nan, True, flags)
        numbers = {source.number for source in sources}
        cited = tuple(dict.fromkeys(n for n in map(int, _CITATION.findall(reply.text)) if n in numbers))
        return Answer(question, reply.text.strip(), cited, tuple(sources), math.nan, False, flags)
