"""Questions that always go to a person: a rule names a kind of question, and no answer is written for it.

Some questions must never get an automatic answer, however good the sources look. The bakery's
own pages say so of allergies: "El asistente automático de pedidos no contesta preguntas de
alergias: pasa la conversación a una persona aunque la respuesta parezca sencilla". A wrong
"no lleva nuez" can send someone to hospital, and an extractive answer quotes the sentence that
shares the most words with the question, not the one that is true for this customer.

An :class:`EscalationRule` recognises its kind of question by its terms: each term is a word
prefix, compared on lowercase, accent-folded words, so that "alérgica", "alergias" and
"ALERGIA" all match "alerg", and a term of several words ("frutos secos") matches those words in
a row. When a rule matches, the :class:`~lab.answering.Answerer` writes no answer: it escalates,
with the retrieved passages attached, so that the person who answers starts from them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lab.vectors.spanish import fold_accents

__all__ = ["EscalationRule", "ALLERGY_RULE", "matching_rule"]

_WORD = re.compile(r"\w+")


def _words(text: str) -> list[str]:
    return _WORD.findall(fold_accents(text.lower()))


@dataclass(frozen=True)
class EscalationRule:
    """A kind of question that goes to a person: its name, the reply that says so, and its terms."""

    name: str
    reply: str
    terms: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.terms or any(not isinstance(t, str) or not _words(t) for t in self.terms):
            raise ValueError(f"rule {self.name!r} needs terms, each one or more words, not {self.terms!r}")

    def matches(self, question: str) -> str | None:
        """The first term ``question`` contains (as word prefixes, accents and case folded), or ``None``."""
        words = _words(question)
        for term in self.terms:
            parts = _words(term)
            for start in range(len(words) - len(parts) + 1):
                if all(words[start + i].startswith(part) for i, part in enumerate(parts)):
                    return term
        return None


#: Allergies, intolerances and diets: the bakery answers them by a person reading the product sheet.
ALLERGY_RULE = EscalationRule(
    name="allergies and diets",
    reply=("Las preguntas de alergias, intolerancias y dietas las contesta siempre una persona del equipo, "
           "leyendo la ficha del producto: le pasamos su mensaje con la información que encontramos y le "
           "contestamos por WhatsApp en menos de 30 minutos dentro del horario de atención."),
    terms=("alerg", "intoleran", "celiac", "celiaqu", "gluten", "trigo", "nuez", "nuec", "frutos secos",
           "cacahuat", "almendr", "avellan", "ajonjol", "sesamo", "soya", "lactos", "vegan", "traza"),
)


def matching_rule(question: str, rules: Sequence[EscalationRule]) -> tuple[EscalationRule, str] | None:
    """The first rule ``question`` falls under and the term that matched, or ``None``."""
    for rule in rules:
        term = rule.matches(question)
        if term is not None:
            return rule, term
    return None
