"""The semantic answer cache: served by meaning above a calibrated threshold, forgotten when the index moves."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lab.answering import (DEFAULT_THRESHOLD, THRESHOLDS, SemanticAnswerCache, SemanticCacheError,
                           cache_threshold_table, lowest_safe_threshold, pair_similarities)
from lab.embedders import MISSES_ENV, e5_embedder
from lab.errors import LabError
from lab.retrieval import (LabelledQuestion, bakery_paraphrases, bakery_questions, heldout_bakery_questions,
                           unanswerable_bakery_questions)
from lab.simulator import bakery_workspace


class TableEmbedder:
    """Vectors from a table, by question text; counts the texts it embeds."""

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors
        self.embedded: list[str] = []

    def embed_query(self, text: str) -> np.ndarray:
        self.embedded.append(text)
        return np.asarray(self.vectors[text], dtype=np.float32)


def angle(degrees: float) -> list[float]:
    """A unit vector in the plane; two of them have cosine cos(difference of their angles)."""
    return [float(np.cos(np.radians(degrees))), float(np.sin(np.radians(degrees)))]


AMEX = "¿Puedo pagar con American Express?"
QUESTIONS = {AMEX: angle(0), "¿Aceptan Amex?": angle(10),
             "¿Abren el domingo?": angle(90), "¿Venden pizza?": angle(40)}


def cache(threshold: float = 0.95) -> SemanticAnswerCache[str]:
    return SemanticAnswerCache(TableEmbedder(QUESTIONS), threshold=threshold)


def test_a_question_close_enough_to_a_cached_one_gets_its_answer() -> None:
    answers, calls = cache(), []
    answers.answer("¿Puedo pagar con American Express?", 3, lambda q: calls.append(q) or "Sí, con Amex.")
    served = answers.answer("¿Aceptan Amex?", 3, lambda q: calls.append(q) or "computed")
    assert (served.hit, served.answer, served.nearest) == (True, "Sí, con Amex.", AMEX)
    assert served.similarity == pytest.approx(np.cos(np.radians(10)))
    assert (answers.hits, answers.misses, len(calls), len(answers)) == (1, 1, 1, 1)


def test_a_question_below_the_threshold_is_computed_and_names_its_nearest_neighbour() -> None:
    answers = cache(threshold=0.99)
    answers.answer("¿Puedo pagar con American Express?", 3, lambda q: "Sí.")
    missed = answers.answer("¿Aceptan Amex?", 3, lambda q: "Sí, también Amex.")
    assert (missed.hit, missed.answer, missed.nearest) == (False, "Sí, también Amex.", AMEX)
    assert missed.similarity == pytest.approx(np.cos(np.radians(10))) and len(answers) == 2
    unrelated = answers.answer("¿Abren el domingo?", 3, lambda q: "De 8 a 15.")
    assert not unrelated.hit and unrelated.similarity == pytest.approx(np.cos(np.radians(80)))


def test_the_same_words_are_a_hit_without_embedding_again() -> None:
    embedder = TableEmbedder(QUESTIONS)
    answers: SemanticAnswerCache[str] = SemanticAnswerCache(embedder)
    answers.answer("¿Abren el domingo?", 1, lambda q: "De 8 a 15.")
    again = answers.answer("  ¿abren el   DOMINGO? ", 1, lambda q: "computed")
    assert (again.hit, again.answer, again.similarity) == (True, "De 8 a 15.", 1.0)
    assert embedder.embedded == ["¿Abren el domingo?"]


def test_the_first_question_at_a_version_has_no_neighbour() -> None:
    first = cache().answer("¿Venden pizza?", 1, lambda q: "No.")
    assert (first.hit, first.nearest, first.similarity) == (False, None, None)


def test_a_newer_index_version_is_a_miss_and_drops_the_older_answers() -> None:
    answers = cache()
    answers.answer("¿Puedo pagar con American Express?", 3, lambda q: "Sí.")
    later = answers.answer("¿Aceptan Amex?", 4, lambda q: "Ya no.")
    assert (later.hit, later.answer, later.nearest, len(answers)) == (False, "Ya no.", None, 1)
    assert answers.answer("¿Puedo pagar con American Express?", 4, lambda q: "computed").answer == "Ya no."


def test_an_answer_from_another_version_is_never_served() -> None:
    answers = cache()
    answers.answer("¿Puedo pagar con American Express?", 5, lambda q: "Sí, en la versión 5.")
    older = answers.answer("¿Puedo pagar con American Express?", 4, lambda q: "Sí, en la versión 4.")
    assert (older.hit, older.answer, len(answers)) == (False, "Sí, en la versión 4.", 2)


@pytest.mark.parametrize(("question", "version", "message"), [
    (None, 1, "question is the question's text"),
    ("   ", 1, "question is empty"),
    ("¿Venden pizza?", "3", r"version is the index's generation \(an int"),
    ("¿Venden pizza?", True, "version is the index's generation"),
])
def test_a_request_that_cannot_be_answered_is_refused_before_anything_is_kept(question, version, message) -> None:
    answers = cache()
    with pytest.raises(SemanticCacheError, match=message) as caught:
        answers.answer(question, version, lambda q: "x")
    assert isinstance(caught.value, LabError) and len(answers) == 0 and answers.misses == 0


@pytest.mark.parametrize(("threshold", "message"), [(1.5, "threshold must be a number between 0 and 1"),
                                                    (float("nan"), "threshold"), ("0.9", "threshold")])
def test_a_threshold_outside_zero_to_one_is_refused(threshold, message) -> None:
    with pytest.raises(SemanticCacheError, match=message):
        SemanticAnswerCache(TableEmbedder(QUESTIONS), threshold=threshold)


def test_an_embedder_without_queries_or_with_unusable_vectors_is_named() -> None:
    with pytest.raises(SemanticCacheError, match=r"embed_query\(text\)"):
        SemanticAnswerCache(object())
    zero = SemanticAnswerCache(TableEmbedder({"¿Hola?": [0.0, 0.0]}))
    with pytest.raises(SemanticCacheError, match="not one finite, non-zero row"):
        zero.answer("¿Hola?", 1, lambda q: "x")
    mixed = SemanticAnswerCache(TableEmbedder({"¿Hola?": [1.0, 0.0], "¿Adiós?": [1.0, 0.0, 0.0]}))
    mixed.answer("¿Hola?", 1, lambda q: "x")
    with pytest.raises(SemanticCacheError, match="3 dimensions, the cached questions have 2"):
        mixed.answer("¿Adiós?", 1, lambda q: "y")


LABELLED = [LabelledQuestion("a", "¿Puedo pagar con American Express?", frozenset()),
            LabelledQuestion("b", "¿Aceptan Amex?", frozenset()),
            LabelledQuestion("c", "¿Abren el domingo?", frozenset()),
            LabelledQuestion("d", "¿Venden pizza?", frozenset())]


def test_every_pair_of_distinct_questions_is_labelled_once_with_its_cosine() -> None:
    pairs = pair_similarities(TableEmbedder(QUESTIONS), LABELLED, [("b", "a")])
    assert list(pairs.columns) == ["first", "second", "same_answer", "cosine"] and len(pairs) == 6
    assert pairs.loc[pairs["same_answer"], ["first", "second"]].values.tolist() == [["a", "b"]]
    assert pairs.set_index(["first", "second"]).loc[("a", "d"), "cosine"] == pytest.approx(np.cos(np.radians(40)))


def test_the_table_counts_hits_and_false_hits_at_each_threshold() -> None:
    table = cache_threshold_table(pair_similarities(TableEmbedder(QUESTIONS), LABELLED, [("a", "b")]),
                                  thresholds=(0.5, 0.8, 0.99))
    # cosines: a-b 0.98 (the paraphrase), b-d 0.87, a-d 0.77, c-d 0.64, b-c 0.17, a-c 0
    assert table[["threshold", "hits", "false_hits"]].values.tolist() == [[0.5, 1, 3], [0.8, 1, 1], [0.99, 0, 0]]
    assert table["hit_rate"].tolist() == [1.0, 1.0, 0.0] and table["false_hit_rate"].tolist() == [0.6, 0.2, 0.0]
    assert lowest_safe_threshold(table) == 0.99 and lowest_safe_threshold(table.iloc[:2]) is None


@pytest.mark.parametrize(("paraphrases", "message"), [([("a", "zz")], "names 'zz', which is not a labelled"),
                                                      ([("a", "a")], "names one question twice")])
def test_a_paraphrase_pair_must_name_two_labelled_questions(paraphrases, message) -> None:
    with pytest.raises(SemanticCacheError, match=message):
        pair_similarities(TableEmbedder(QUESTIONS), LABELLED, paraphrases)


def test_repeated_ids_and_one_sided_labels_are_refused() -> None:
    with pytest.raises(SemanticCacheError, match=r"question ids repeat \(\['a'\]\)"):
        pair_similarities(TableEmbedder(QUESTIONS), [*LABELLED, LABELLED[0]], [])
    with pytest.raises(SemanticCacheError, match="both kinds"):
        cache_threshold_table(pd.DataFrame({"same_answer": [False, False], "cosine": [0.9, 0.8]}))
    with pytest.raises(SemanticCacheError, match="cosine missing"):
        cache_threshold_table(pd.DataFrame({"same_answer": [True]}))


@pytest.fixture(scope="module")
def e5_table() -> pd.DataFrame:
    """The bakery's labelled questions with e5's vectors, all kept with the lab (no model call)."""
    page_id = bakery_workspace().page_id
    questions = [*bakery_questions(page_id), *heldout_bakery_questions(page_id), *unanswerable_bakery_questions()]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(MISSES_ENV, "error")
        similarities = pair_similarities(e5_embedder(), questions, bakery_paraphrases())
    return cache_threshold_table(similarities)


def test_the_bakery_table_has_one_row_per_threshold_and_every_pair_of_102_questions(e5_table) -> None:
    assert list(e5_table.columns) == ["threshold", "hits", "same_answer_pairs", "hit_rate", "false_hits",
                                      "different_answer_pairs", "false_hit_rate"]
    assert e5_table["threshold"].tolist() == list(THRESHOLDS)
    assert (e5_table["same_answer_pairs"] + e5_table["different_answer_pairs"] == 102 * 101 // 2).all()
    assert set(e5_table["same_answer_pairs"]) == {len(bakery_paraphrases())}


def test_hits_and_false_hits_fall_as_the_threshold_rises(e5_table) -> None:
    for column in ("hits", "hit_rate", "false_hits", "false_hit_rate"):
        assert e5_table[column].is_monotonic_decreasing, column
    assert e5_table["false_hits"].iloc[0] > 0 and e5_table["hits"].iloc[-1] < e5_table["hits"].iloc[0]


def test_the_default_threshold_serves_no_wrong_answer_with_a_step_of_margin_and_still_serves_some(e5_table) -> None:
    at_default = e5_table.set_index("threshold").loc[DEFAULT_THRESHOLD]
    assert at_default["false_hits"] == 0 and at_default["hits"] > 0
    assert lowest_safe_threshold(e5_table) == pytest.approx(DEFAULT_THRESHOLD - 0.01)


def test_the_paraphrase_pairs_name_labelled_bakery_questions_from_both_sets() -> None:
    page_id = bakery_workspace().page_id
    first, heldout = {q.id for q in bakery_questions(page_id)}, {q.id for q in heldout_bakery_questions(page_id)}
    pairs = bakery_paraphrases()
    assert len(set(map(frozenset, pairs))) == len(pairs) == 14
    assert all(a in first and b in heldout for a, b in pairs)
