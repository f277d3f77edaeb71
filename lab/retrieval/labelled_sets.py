"""The lab's labelled question sets, with gold answers expressed as the units retrieval returns.

The files name gold answers by page *key* and section heading, which people can read and
write; retrieval returns page *ids*. These loaders resolve keys to ids through the workspace,
so gold units compare directly with :func:`lab.retrieval.evaluation.source_unit` of a hit.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lab.datasets.handbook import load_handbook_questions
from lab.datasets.study_notes import load_study_notes
from lab.retrieval.evaluation import LabelledQuestion, Level
from lab.datasets.package_data import PACKAGE_DATA
from lab.retrieval.corpus import SearchCorpus

__all__ = ["BAKERY_QUESTIONS_PATH", "UNANSWERABLE_PATH", "HELDOUT_PATH", "BLIND_PATH", "PARAPHRASES_PATH",
           "labelled_questions", "bakery_questions", "heldout_bakery_questions", "blind_bakery_questions",
           "unanswerable_bakery_questions", "bakery_paraphrases", "handbook_questions", "study_note_questions",
           "study_note_corpus"]

BAKERY_QUESTIONS_PATH = PACKAGE_DATA / "questions" / "bakery_questions.json"
UNANSWERABLE_PATH = PACKAGE_DATA / "questions" / "bakery_unanswerable.json"
HELDOUT_PATH = PACKAGE_DATA / "questions" / "bakery_heldout.json"
BLIND_PATH = PACKAGE_DATA / "questions" / "bakery_blind.json"
PARAPHRASES_PATH = PACKAGE_DATA / "questions" / "bakery_paraphrases.json"


def _gold_unit(gold: Mapping[str, str], page_id: Callable[[str], str], level: Level) -> Any:
    if level == "section":
        return (page_id(gold["page"]), gold["section"])
    if level == "page":
        return page_id(gold["page"])
    raise ValueError(f"unknown relevance level {level!r}; use 'section' or 'page'")


def labelled_questions(records: Sequence[Mapping[str, Any]], page_id: Callable[[str], str],
                       level: Level = "section") -> list[LabelledQuestion]:
    """Question records (``id``, ``question``, ``gold`` [{page, section}], optional ``audience`` and ``kind``) as
    :class:`LabelledQuestion` with gold units at ``level``; ``page_id`` maps a page key to its id."""
    return [LabelledQuestion(record["id"], record["question"],
                             frozenset(_gold_unit(gold, page_id, level) for gold in record["gold"]),
                             record.get("audience"), record.get("kind"))
            for record in records]


def bakery_questions(page_id: Callable[[str], str], level: Level = "section") -> list[LabelledQuestion]:
    """The bakery's labelled questions; pass ``bakery_workspace().page_id``."""
    records = json.loads(BAKERY_QUESTIONS_PATH.read_text(encoding="utf-8"))
    return labelled_questions(records, page_id, level)


def heldout_bakery_questions(page_id: Callable[[str], str], level: Level = "section") -> list[LabelledQuestion]:
    """Thirty-nine more bakery questions, written after the tuning ladder was fixed by someone who had not
    read the first set: a check of whether its choices hold on wording nobody tuned for."""
    records = json.loads(HELDOUT_PATH.read_text(encoding="utf-8"))
    return labelled_questions(records, page_id, level)


def blind_bakery_questions(page_id: Callable[[str], str], level: Level = "section") -> list[LabelledQuestion]:
    """A third set of bakery questions, written by two writers who had read only the knowledge base's pages
    (neither set above, nor any search result), for a candidate chosen on the first two sets to be read
    once on wording nobody had seen while choosing it."""
    records = json.loads(BLIND_PATH.read_text(encoding="utf-8"))
    return labelled_questions(records, page_id, level)


def unanswerable_bakery_questions() -> list[LabelledQuestion]:
    """Questions a customer might ask that the bakery's knowledge base cannot answer (no gold unit)."""
    records = json.loads(UNANSWERABLE_PATH.read_text(encoding="utf-8"))
    return [LabelledQuestion(record["id"], record["question"], frozenset()) for record in records]


def bakery_paraphrases() -> list[tuple[str, str]]:
    """Pairs of bakery question ids (first set, held-out set) that one reply answers correctly and completely.

    Every pair of labelled questions that shares a gold section was read (81 pairs); these 14 are the
    ones a reply written for either would serve the other. Sharing a section is not enough: "36 hours
    before" and "a day before" a cancellation get different refunds, a deposit on 650 or on 700 pesos
    is a different sum, peanuts are not walnuts. Every other pair of questions needs its own answer.
    """
    records = json.loads(PARAPHRASES_PATH.read_text(encoding="utf-8"))
    return [(record["first"], record["second"]) for record in records]


def handbook_questions(page_id: Callable[[str], str], level: Level = "section") -> list[LabelledQuestion]:
    """The Chinese handbook's labelled questions, each with the audience of the agent who asks it."""
    return labelled_questions(load_handbook_questions(), page_id, level)


def study_note_questions() -> list[LabelledQuestion]:
    """The study-notes queries; a note is a whole unit, so gold units are note ids (page level)."""
    corpus = load_study_notes()
    return [LabelledQuestion(q["id"], q["query"], frozenset(q["relevant"])) for q in corpus["queries"]]


def study_note_corpus() -> SearchCorpus:
    """The 12 study notes as one row each: id and page id are the note id, title the note's title, no section."""
    notes = load_study_notes()["notes"]
    return SearchCorpus(ids=tuple(n["id"] for n in notes), page_ids=tuple(n["id"] for n in notes),
                        titles=tuple(n["title"] for n in notes), sections=(None,) * len(notes),
                        texts=tuple(n["text"] for n in notes), audiences=(None,) * len(notes))
