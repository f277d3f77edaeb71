"""Tuning pieces: heading weighting, BM25F fields, RM3 feedback, fusion by section, the paired bootstrap
and the ladder's rule."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lab.retrieval import (RRF, BM25FRetriever, BM25FRM3Retriever, BM25Retriever, HeadingWeighted, Recipe, RM3Retriever, SearchCorpus,
                           Step, climb, paired_gain)
from lab.retrieval.evaluation import LabelledQuestion
from lab.retrieval.recipe import keeps
from lab.retrieval.significance import Gain
from lab.vectors import CharNgramAnalyzer

CORPUS = SearchCorpus(
    ids=("a", "b", "c"), page_ids=("p1", "p2", "p3"),
    titles=("Ficha: Polvorón", "Política de entregas", "Aviso: 1 de mayo"),
    sections=("Alérgenos", "Costos", "Horario"),
    texts=("Ficha: Polvorón > Alérgenos\nLleva cacahuate y trigo.",
           "Política de entregas > Costos\nEl envío cuesta 40 pesos en la zona 1; el cacahuate no.",
           "Aviso: 1 de mayo > Horario\nAbrimos de 8:00 a 14:00."),
    audiences=(None, None, None), urls=("u1", "u2", "u3"), edited=("e1", "e2", "e3"))


def test_hits_carry_the_page_url_and_last_edit_for_citations() -> None:
    hit = BM25Retriever().fit(CORPUS).search("cacahuate", k=1)[0]
    assert (hit.url, hit.edited) == ("u1", "e1")


def test_a_corpus_without_urls_or_edits_gives_none_for_every_row() -> None:
    bare = SearchCorpus(ids=("a",), page_ids=("p",), titles=("T",), sections=(None,), texts=("x",), audiences=(None,))
    assert bare.urls == (None,) and bare.edited == (None,)


def test_heading_weight_lifts_the_chunk_whose_heading_names_the_question() -> None:
    question = "¿Alérgenos del polvorón?"
    plain = BM25Retriever().fit(CORPUS).score(question)
    weighted = HeadingWeighted(BM25Retriever(), weight=3).fit(CORPUS)
    assert weighted.retriever.score(question)[0] > plain[0]
    assert weighted.search(question, k=1)[0].id == "a" and weighted.corpus_ is CORPUS


def test_heading_weight_one_leaves_the_texts_alone_and_zero_is_refused() -> None:
    assert HeadingWeighted(BM25Retriever(), 1).fit(CORPUS).retriever.corpus_.texts == CORPUS.texts
    with pytest.raises(ValueError, match="weight must be a positive integer"):
        HeadingWeighted(BM25Retriever(), 0).fit(CORPUS)


def test_bm25f_without_length_normalisation_scores_like_bm25_over_repeated_headings() -> None:
    fields = BM25FRetriever(weights=(3, 3, 1), b=(0, 0, 0)).fit(CORPUS)
    repeated = HeadingWeighted(BM25Retriever(b=0), weight=3).fit(CORPUS).retriever
    for question in ("¿Alérgenos del polvorón?", "costos de entregas", "cacahuate"):
        assert np.allclose(fields.score(question), repeated.score(question))


def test_bm25f_does_not_let_a_long_body_dilute_a_title_match() -> None:
    body = " ".join(["pan"] * 200)
    corpus = SearchCorpus(ids=("short", "long"), page_ids=("p1", "p2"), titles=("Canela", "Canela"),
                          sections=(None, None), texts=("Canela\nUn pan.", f"Canela\n{body}"), audiences=(None, None))
    fields = BM25FRetriever().fit(corpus).score("canela")
    repeated = HeadingWeighted(BM25Retriever(), weight=2).fit(corpus).retriever.score("canela")
    assert fields[0] == pytest.approx(fields[1]) and repeated[0] > repeated[1]


def test_bm25f_ranks_a_batch_of_queries_as_its_scores_rank_each_one() -> None:
    fields = BM25FRetriever().fit(CORPUS)
    questions = ["¿Alérgenos del polvorón?", "cacahuate cacahuate", "horario", "nada que ver"]
    for question, hits in zip(questions, fields.search_many(questions, k=3)):
        scores = fields.score(question)
        matched = [row for row in np.argsort(-scores, kind="stable") if scores[row] > 0]
        assert [hit.id for hit in hits] == [CORPUS.ids[row] for row in matched]
        assert [hit.score for hit in hits] == pytest.approx([scores[row] for row in matched])
    assert fields.search("cacahuate", k=3, min_score=100.0) == []


def test_bm25f_wants_one_weight_and_one_b_per_field() -> None:
    with pytest.raises(ValueError, match="one value per field"):
        BM25FRetriever(weights=(2, 1)).fit(CORPUS)


def test_fusing_by_section_returns_each_section_once_at_its_best_chunk() -> None:
    corpus = SearchCorpus(ids=("a1", "a2", "b"), page_ids=("p", "p", "q"), titles=("Canela", "Canela", "Nuez"),
                          sections=("Alérgenos", "Alérgenos", None),
                          texts=("Canela > Alérgenos\nLleva nuez.", "Canela > Alérgenos\nLleva nuez y nuez.",
                                 "Nuez\nLa nuez."), audiences=(None, None, None))
    by_chunk = RRF([BM25Retriever()]).fit(corpus).search("nuez", k=3)
    by_section = RRF([BM25Retriever()], unit="section").fit(corpus).search("nuez", k=3)
    best_of_p = next(h.id for h in by_chunk if h.page_id == "p")
    assert [h.id for h in by_chunk] == ["b", "a2", "a1"] and [h.id for h in by_section] == ["b", best_of_p]


def test_recipes_sharing_fitted_lists_search_as_if_each_were_fitted_alone() -> None:
    shared: dict = {}
    Recipe(lsa_components=2).retriever(shared).fit(CORPUS)
    reused = Recipe(lsa_components=2, bm25f=True).retriever(shared).fit(CORPUS)
    alone = Recipe(lsa_components=2, bm25f=True).retriever().fit(CORPUS)
    assert len(shared) == 3  # BM25, LSA, BM25F: the second recipe fitted only its new keyword list
    assert reused.search("cacahuate en mayo", k=3) == alone.search("cacahuate en mayo", k=3)


def test_rm3_adds_the_top_documents_words_to_the_query() -> None:
    rm3 = RM3Retriever(fb_docs=1, fb_terms=10).fit(CORPUS)
    weights = rm3.expanded_query("polvorón")
    vocabulary = rm3.bm25_.vocabulary_
    assert vocabulary["trigo"] in weights and sum(weights.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("feedback", [RM3Retriever, BM25FRM3Retriever])
def test_rm3_learns_its_feedback_words_only_from_the_rows_the_caller_may_see(feedback) -> None:
    corpus = SearchCorpus(
        ids=("open", "hidden"), page_ids=("p1", "p2"), titles=("Entregas", "Costos internos"),
        sections=(None, None), audiences=("staff", "managers"),
        texts=("Entregas\nEl cacahuate llega en bicicleta.", "Costos internos\nEl cacahuate cuesta margen secreto."))
    retriever = feedback(fb_docs=2).fit(corpus)
    vocabulary = retriever.bm25_.vocabulary_ if feedback is RM3Retriever else retriever.vocabulary_
    secret = vocabulary["secreto"]
    assert secret in retriever.expanded_query("cacahuate")  # unfiltered, both rows feed the expansion
    assert secret not in retriever.expanded_query("cacahuate", visible=corpus.allowed("staff"))
    staff = retriever.search("cacahuate", k=2, audience="staff")
    assert [h.id for h in staff] == ["open"]


def test_rm3_with_only_the_original_query_ranks_like_bm25() -> None:
    rm3 = RM3Retriever(original_weight=1.0).fit(CORPUS)
    bm25 = BM25Retriever().fit(CORPUS)
    assert [h.id for h in rm3.search("cacahuate trigo", k=3)] == [h.id for h in bm25.search("cacahuate trigo", k=3)]
    assert RM3Retriever().fit(CORPUS).search("violín", k=3) == []


def test_rm3_on_bm25f_fields_without_length_normalisation_expands_and_scores_like_rm3_on_bm25() -> None:
    fields = BM25FRM3Retriever(weights=(1, 1, 1), b=(0, 0, 0), fb_docs=2).fit(CORPUS)
    plain = RM3Retriever(b=0.0, fb_docs=2).fit(CORPUS)
    by_term = lambda retriever, vocabulary: {  # noqa: E731
        term: retriever.expanded_query("cacahuate").get(column) for term, column in vocabulary.items()}
    expected = {t: w for t, w in by_term(plain, plain.bm25_.vocabulary_).items() if w is not None}
    found = {t: w for t, w in by_term(fields, fields.vocabulary_).items() if w is not None}
    assert found.keys() == expected.keys() and "trigo" in found
    assert [found[t] for t in expected] == pytest.approx(list(expected.values()))
    assert fields.score("cacahuate") == pytest.approx(plain.score("cacahuate"))


def test_rm3_on_bm25f_with_only_the_original_query_ranks_like_bm25f() -> None:
    rm3 = BM25FRM3Retriever(original_weight=1.0).fit(CORPUS)
    fields = BM25FRetriever().fit(CORPUS)
    assert [h.id for h in rm3.search("cacahuate mayo", k=3)] == [h.id for h in fields.search("cacahuate mayo", k=3)]
    assert rm3.search("violín", k=3) == []
    with pytest.raises(ValueError, match="original_weight"):
        BM25FRM3Retriever(original_weight=1.5).fit(CORPUS)


def test_a_recipe_with_feedback_and_fields_runs_rm3_on_bm25f() -> None:
    assert isinstance(Recipe(bm25f=True, feedback=True).retriever(), BM25FRM3Retriever)
    assert isinstance(Recipe(feedback=True).retriever(), RM3Retriever)


def test_the_paired_bootstrap_interval_contains_the_mean_and_counts_wins_and_losses() -> None:
    before = pd.Series([0.0, 1.0, 0.5, 1.0], index=list("abcd"))
    after = pd.Series([1.0, 1.0, 0.0, 1.0], index=list("abcd"))
    gain = paired_gain(before, after, n_resamples=2_000, seed=1)
    assert gain.low <= gain.mean <= gain.high and (gain.won, gain.lost) == (1, 1)
    assert gain == paired_gain(before, after, n_resamples=2_000, seed=1)


def test_the_ladder_keeps_a_step_that_raises_two_measures_and_drops_one_that_costs_a_question() -> None:
    up, flat, down = Gain(0.03, 0, 0.1, 2, 0), Gain(0.0, -0.01, 0.01, 0, 0), Gain(-0.03, -0.1, 0, 0, 2)
    assert keeps({"r": up, "m": up, "n": flat})
    assert not keeps({"r": up, "m": up, "n": down})
    assert not keeps({"r": up, "m": flat, "n": flat})


class _Page:
    def __init__(self, info, blocks):
        self.info, self.blocks = info, blocks


def _pages_and_questions():
    from lab.notion.pages import PageMetadata

    def paragraph(text: str) -> dict:
        return {"type": "paragraph", "paragraph": {"rich_text": [{"plain_text": text}]}}

    pages = [_Page(PageMetadata(id=f"p{i}", title=title, type="faq", edited="e", url=f"u{i}"), [(0, paragraph(text))])
             for i, (title, text) in enumerate([("Polvorones", "Los polvorones llevan cacahuate."),
                                                 ("Entregas", "Repartimos en bicicleta de carga.")])]
    return pages, [LabelledQuestion("q1", "¿El polvorón lleva cacahuate?", frozenset({("p0", None)}))]


def test_climb_measures_each_step_against_the_recipe_kept_so_far() -> None:
    pages, questions = _pages_and_questions()
    ladder = climb(Recipe(), [Step("4-grams", {"analyzer": CharNgramAnalyzer(n=4)})], pages, questions)
    assert list(ladder.table["step"]) == ["start", "4-grams"]
    assert set(ladder.per_question) == {"start", "4-grams"}
    # any rung may follow any kept rung: fields after feedback run RM3 on BM25F
    both = climb(Recipe(feedback=True), [Step("fields", {"bm25f": True})], pages, questions)
    assert list(both.table["step"]) == ["start", "fields"]


@pytest.mark.parametrize("retriever", [BM25Retriever(), BM25FRetriever(), RM3Retriever(),
                                       RRF([BM25Retriever(), BM25FRetriever()])])
def test_a_query_that_is_not_text_is_a_type_error_naming_it(retriever) -> None:
    fitted = retriever.fit(CORPUS)
    with pytest.raises(TypeError, match="a query is a str .* query 0 is NoneType"):
        fitted.search(None)
    with pytest.raises(TypeError, match="query 1 is int"):
        fitted.search_many(["pan", 7])
    with pytest.raises(TypeError, match="wrap it in a list"):
        fitted.search_many("pan")
