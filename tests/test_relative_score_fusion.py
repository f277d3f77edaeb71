"""Fusion by scaled scores (vector databases' hybrid search): min-max per list, weighted sum, and the
recipe field that chooses it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from lab.retrieval import (BM25Retriever, Recipe, RelativeScoreFusion, SearchCorpus, TfidfRetriever,
                           reciprocal_rank_fusion, relative_score_fusion)
from lab.retrieval.recipe import LEXICAL, TUNED
from lab.vectors import Hit


def test_each_list_is_scaled_to_0_1_as_weaviate_documents_it() -> None:
    # Weaviate's own example: scores 1, 8, 6, 11 become 0, 0.7, 0.5, 1
    fused = dict(relative_score_fusion([[("d", 11.0), ("b", 8.0), ("c", 6.0), ("a", 1.0)]], [1.0]))
    assert fused == pytest.approx({"d": 1.0, "b": 0.7, "c": 0.5, "a": 0.0})


def test_an_item_a_list_did_not_return_gets_nothing_from_it_and_weights_scale_each_list() -> None:
    keyword = [("a", 12.0), ("b", 4.0), ("c", 2.0)]
    dense = [("b", 0.9), ("c", 0.8), ("d", 0.5)]
    fused = dict(relative_score_fusion([keyword, dense], [0.25, 0.75]))
    assert fused["a"] == pytest.approx(0.25)                      # first in one list only
    assert fused["b"] == pytest.approx(0.25 * 0.2 + 0.75 * 1.0)
    assert fused["c"] == pytest.approx(0.75 * 0.75)
    assert fused["d"] == pytest.approx(0.0)
    assert [item for item, _ in relative_score_fusion([keyword, dense], [0.25, 0.75])][0] == "b"


def test_a_sure_first_hit_outweighs_a_close_race_where_ranks_would_tie() -> None:
    sure = [("x", 0.95), ("y", 0.20), ("z", 0.10)]       # the dense list is far surer of x
    close = [("y", 10.0), ("x", 9.9), ("z", 1.0)]       # the keyword list barely prefers y
    by_score = [item for item, _ in relative_score_fusion([close, sure], [0.5, 0.5])]
    assert by_score[0] == "x"
    # by ranks alone, x and y each come first once and second once: a tie
    by_rank = reciprocal_rank_fusion([[i for i, _ in close], [i for i, _ in sure]])
    assert by_rank[0][1] == by_rank[1][1]


def test_equal_scores_keep_every_item_at_1_and_ties_follow_rank_then_list() -> None:
    fused = relative_score_fusion([[("a", 3.0), ("b", 3.0)], [("c", 5.0)]], [0.5, 0.5])
    assert fused == [("a", 0.5), ("c", 0.5), ("b", 0.5)]
    assert relative_score_fusion([[], [("c", 1.0)]], [0.5, 0.5]) == [("c", 0.5)]


@pytest.mark.parametrize("rankings, weights, message", [
    ([[("a", 1.0)]], [0.5, 0.5], "1 rankings need 1 weights"),
    ([[("a", 1.0)]], [-1.0], "weights must be >= 0"),
    ([[("a", 1.0)]], [0.0], "positive sum"),
    ([[("a", 1.0), ("a", 0.5)]], [1.0], "lists an item twice"),
])
def test_bad_rankings_or_weights_are_refused_by_name(rankings, weights, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        relative_score_fusion(rankings, weights)


CORPUS = SearchCorpus(
    ids=("a1", "a2", "b1", "c1"), page_ids=("pa", "pa", "pb", "pc"),
    titles=("Entregas", "Entregas", "Horario", "Recetas internas"),
    sections=("Costos", "Costos", "Tienda", "Masa"),
    texts=("Entregas > Costos\nEl envío a domicilio cuesta 40 pesos.",
           "Entregas > Costos\nEl envío es gratis desde 600 pesos en la zona 1.",
           "Horario > Tienda\nAbrimos de 8:00 a 19:00; el envío sale a las 10:00.",
           "Recetas internas > Masa\nEl envío de la masa madre entre sucursales cuesta poco."),
    audiences=("customers", "customers", "customers", "staff"))


def test_sections_come_back_once_and_a_staff_chunk_never_reaches_customers() -> None:
    fusion = RelativeScoreFusion([BM25Retriever(), TfidfRetriever()], unit="section").fit(CORPUS)
    hits = fusion.search("¿Cuánto cuesta el envío?", k=10, audience="customers")
    assert [(h.page_id, h.section) for h in hits].count(("pa", "Costos")) == 1
    assert "c1" not in {h.id for h in hits} and len(hits) == 2
    assert [h.id for h in fusion.search("¿Cuánto cuesta el envío?", k=10, audience="staff")] == ["c1"]
    assert all(isinstance(h, Hit) and 0 <= h.score <= 1 for h in hits)


def test_min_score_reads_on_the_fused_scale_and_weights_must_match_the_lists() -> None:
    fusion = RelativeScoreFusion([BM25Retriever(), TfidfRetriever()], weights=(0.5, 0.5)).fit(CORPUS)
    assert all(h.score >= 0.6 for h in fusion.search("envío gratis zona", k=10, min_score=0.6))
    with pytest.raises(ValueError, match="2 retrievers need 2 weights, not 1"):
        RelativeScoreFusion([BM25Retriever(), TfidfRetriever()], weights=(1.0,)).fit(CORPUS)
    with pytest.raises(ValueError, match="at least one retriever"):
        RelativeScoreFusion([]).fit(CORPUS)


class _Dense:
    """A stand-in dense model: two dimensions, 'envío' and 'horario'."""

    name = "toy-2"
    max_input_tokens = 512

    def _vector(self, text: str) -> list[float]:
        lowered = text.lower()
        return [1.0 + lowered.count("envío"), 0.1 + lowered.count("abrimos")]

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return np.array([self._vector(t) for t in texts], dtype="float32")

    def embed_query(self, text: str) -> np.ndarray:
        return np.array(self._vector(text), dtype="float32")


def test_a_recipe_fusing_by_scores_gives_the_dense_list_alpha_and_the_others_the_rest() -> None:
    recipe = Recipe(lsa_components=2, fusion="relative", alpha=0.6)
    assert recipe.retriever().weights == pytest.approx([0.5, 0.5])  # no dense list: every list alike
    with_dense = replace(recipe, dense=_Dense()).retriever()
    assert isinstance(with_dense, RelativeScoreFusion) and with_dense.weights == pytest.approx([0.2, 0.2, 0.6])
    with pytest.raises(ValueError, match="fusion must be 'rrf' or 'relative'"):
        Recipe(lsa_components=2, fusion="max").retriever()
    with pytest.raises(ValueError, match="between 0 and 1"):
        replace(recipe, dense=_Dense(), alpha=1.5).retriever()


def test_tuned_fuses_bm25f_and_e5_by_scores_and_lexical_keeps_the_ranked_lsa_fusion() -> None:
    assert (TUNED.fusion, TUNED.lsa_components, TUNED.bm25f, TUNED.alpha) == ("relative", None, True, 0.5)
    assert TUNED.dense is not None
    assert (LEXICAL.fusion, LEXICAL.lsa_components, LEXICAL.dense) == ("rrf", 128, None)
