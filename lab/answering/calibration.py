"""Measuring answers: does an answer cite a gold section, and where should it abstain?

Every labelled question is answered with no threshold, recording the answer's confidence and
whether one of its citations is a gold section; questions the knowledge base cannot answer are
answered too. A threshold then decides after the fact: an answer below it becomes an abstention.
Raising it trades *coverage* (the share of answerable questions that get an answer) for
*precision* (the share of those answers that cite a gold section) and for abstaining on the
unanswerable ones. :func:`calibrate_threshold` picks the threshold that behaves right most often:
an answerable question answered with a gold citation, an unanswerable one abstained on. A
question the answerer escalates (:mod:`lab.answering.escalation`) goes to a person whatever the
threshold, so the trade-off leaves it out; the table keeps it, marked ``escalated``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from lab.answering.answer import Answerer
from lab.retrieval.evaluation import LabelledQuestion
from lab.vectors.search import section_label

__all__ = ["answer_table", "tradeoff_table", "calibrate_threshold"]


def answer_table(answerer: Answerer, questions: Sequence[LabelledQuestion],
                 unanswerable: Sequence[LabelledQuestion] = ()) -> pd.DataFrame:
    """One row per question, answered without a threshold: confidence, cited units, a gold citation?

    ``unanswerable`` questions have no gold section (``relevant`` empty); ``cites_gold`` is
    False for them. With escalation rules, ``escalated`` names the rule that sent a question to a
    person (empty when it was answered); such a question cites nothing.
    """
    threshold, answerer.threshold = answerer.threshold, 0.0
    try:
        rows = []
        for question, answerable in [(q, True) for q in questions] + [(q, False) for q in unanswerable]:
            answer = answerer.answer(question.question)
            units = [source.unit for source in answer.cited_sources()]
            rows.append({"question": question.id, "answerable": answerable, "confidence": answer.confidence,
                         "cites_gold": any(unit in question.relevant for unit in units),
                         "cited": "; ".join(section_label(s.title, s.section) for s in answer.cited_sources()),
                         "escalated": answer.escalated or ""})
    finally:
        answerer.threshold = threshold
    columns = ["question", "answerable", "confidence", "cites_gold", "cited"]
    return pd.DataFrame(rows, columns=columns + ["escalated"] if answerer.escalate else columns)


def tradeoff_table(answers: pd.DataFrame, thresholds: Sequence[float]) -> pd.DataFrame:
    """For each threshold: coverage and precision on the answerable questions, the share of the
    unanswerable ones abstained on, and the share of all questions handled right (escalated
    questions left out: a person answers them whatever the threshold)."""
    if "escalated" in answers:
        answers = answers[answers["escalated"] == ""]
    answerable, other = answers[answers["answerable"]], answers[~answers["answerable"]]
    rows = []
    for threshold in thresholds:
        answered = answerable[answerable["confidence"] >= threshold]
        answers_kept = answers["confidence"] >= threshold
        right = (answers_kept == answers["cites_gold"]).sum()
        rows.append({"threshold": float(threshold),
                     "coverage": len(answered) / len(answerable) if len(answerable) else np.nan,
                     "precision": answered["cites_gold"].mean() if len(answered) else np.nan,
                     "unanswerable abstained": (other["confidence"] < threshold).mean() if len(other) else np.nan,
                     "handled right": right / len(answers)})
    return pd.DataFrame(rows)


def calibrate_threshold(answers: pd.DataFrame) -> float:
    """The threshold handling the most questions right; among equals, the lowest (the most answers).

    Candidates are the observed confidences (a threshold between two of them behaves like the
    higher one), plus 0.
    """
    if answers.empty:
        raise ValueError("there are no answers to calibrate on: answer_table(answerer, questions) with at least "
                         "one question")
    candidates = sorted({0.0, *answers["confidence"].round(6).tolist()})
    table = tradeoff_table(answers, candidates)
    return float(table.loc[table["handled right"].idxmax(), "threshold"])
