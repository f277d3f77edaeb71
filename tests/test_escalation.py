"""Questions that always go to a person: no answer is written for them, the passages go along."""

from __future__ import annotations

import pytest

from lab.answering import ALLERGY_RULE, Answerer, EscalationRule, answer_table, matching_rule, tradeoff_table
from lab.retrieval import BM25Retriever, LabelledQuestion, SearchCorpus

CHUNKS = [
    {"id": "rol:alergenos:00", "page_id": "rol", "title": "Ficha: Rol de canela", "section": "Alérgenos",
     "text": "Ficha: Rol de canela > Alérgenos\nLleva nuez, trigo, leche y huevo. Puede contener trazas de cacahuate."},
    {"id": "horario:00", "page_id": "horario", "title": "Horario", "section": "Tienda",
     "text": "Horario > Tienda\nAbrimos de lunes a viernes de 7:30 a 20:00."},
]


@pytest.mark.parametrize("question, term", [
    ("¿El rol de canela lleva NUEZ?", "nuez"), ("Mi hija es alérgica a los frutos secos", "alerg"),
    ("¿Tienen algo para celiacos?", "celiac"), ("¿Los polvorones traen nueces?", "nuec"),
    ("Soy intolerante a la lactosa", "intoleran"), ("¿Qué pan es vegano?", "vegan"),
    ("¿Le ponen frutos secos al pan?", "frutos secos"), ("¿Lleva sésamo?", "sesamo")])
def test_allergy_questions_match_whatever_their_accents_case_or_plural(question: str, term: str) -> None:
    assert ALLERGY_RULE.matches(question) == term


@pytest.mark.parametrize("question", ["¿A qué hora abren?", "¿Cuánto cuesta el tres leches?",
                                      "Soy de la colonia Roma, ¿llevan a domicilio?", "¿Tienen frutas secas?",
                                      "¿Aceptan soya de pago?".replace("soya", "vales")])
def test_other_questions_do_not(question: str) -> None:
    assert matching_rule(question, [ALLERGY_RULE]) is None


def test_an_escalated_question_gets_the_rule_s_reply_and_its_sources_never_an_answer() -> None:
    corpus = SearchCorpus.from_chunks(CHUNKS)
    answerer = Answerer(BM25Retriever(), k=2, escalate=(ALLERGY_RULE,)).fit(corpus)
    answer = answerer.answer("¿El rol de canela lleva nuez?")
    assert answer.escalated == "allergies and diets" and answer.text == ALLERGY_RULE.reply
    assert answer.cited == () and not answer.abstained and answer.sources[0].chunk_id == "rol:alergenos:00"
    assert Answerer(BM25Retriever(), k=2).fit(corpus).answer("¿El rol de canela lleva nuez?").escalated is None


def test_the_answer_table_marks_escalations_and_the_threshold_trade_off_leaves_them_out() -> None:
    corpus = SearchCorpus.from_chunks(CHUNKS)
    answerer = Answerer(BM25Retriever(), k=2, escalate=(ALLERGY_RULE,)).fit(corpus)
    questions = [LabelledQuestion("q1", "¿El rol de canela lleva nuez?", frozenset({("rol", "Alérgenos")})),
                 LabelledQuestion("q2", "¿A qué hora abren de lunes a viernes?", frozenset({("horario", "Tienda")}))]
    answers = answer_table(answerer, questions)
    assert answers["escalated"].tolist() == ["allergies and diets", ""] and answers["cited"].iloc[0] == ""
    assert tradeoff_table(answers, [0.0]).iloc[0]["coverage"] == 1.0  # one answerable question left, answered


def test_a_rule_needs_terms() -> None:
    with pytest.raises(ValueError, match="needs terms"):
        EscalationRule("nothing", "reply", ())
