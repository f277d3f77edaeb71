"""Retrievers: one search interface, the audience filter before ranking, the threshold, RRF, CJK terms.

BM25's scores are checked against bm25s in tests/test_vectors_bm25.py; here the retriever is
only checked to score exactly like the lab's BM25 it wraps.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from lab.retrieval.evaluation import source_units
from lab.retrieval.fields import BM25FRetriever
from lab.retrieval import (RRF, RelativeScoreFusion, BM25Retriever, EmbeddingRetriever, LsaRetriever, SearchCorpus,
                           StoredVectorRetriever, TfidfRetriever, UnknownAudienceError, reciprocal_rank_fusion)
from lab.retrieval.labelled_sets import handbook_questions, study_note_corpus, study_note_questions
from lab.embedders.lsa import LsaEmbedder
from lab.index import IndexStore, ModelMismatchError
from lab.vectors import BM25, CJKBigramAnalyzer, Hit, NotFittedError, WordAnalyzer

from handbook_read import read_handbook

ENGLISH = WordAnalyzer(stop_words="en")
STAFF, MANAGERS = "staff", "managers"

# Five staff pages about the shop and one managers' page that repeats the query's words.
CHUNKS = [
    {"id": "refunds:steps:00", "page_id": "refunds", "title": "Refunds", "section": "Steps",
     "text": "Refunds > Steps\nCheck the order, create a return, the warehouse inspects the item, money goes back."},
    {"id": "refunds:timing:00", "page_id": "refunds", "title": "Refunds", "section": "Timing",
     "text": "Refunds > Timing\nCard payments come back in seven to fifteen working days."},
    {"id": "delivery:zones:00", "page_id": "delivery", "title": "Delivery", "section": "Zones",
     "text": "Delivery > Zones\nWe deliver inside the ring road; stairs without a lift cost extra."},
    {"id": "warranty:terms:00", "page_id": "warranty", "title": "Warranty", "section": "Terms",
     "text": "Warranty > Terms\nCompressors are covered for ten years, everything else for three."},
    {"id": "hours:holidays:00", "page_id": "hours", "title": "Opening hours", "section": "Holidays",
     "text": "Opening hours > Holidays\nShops close at six on public holidays."},
    {"id": "pay:approval:00", "page_id": "pay", "title": "Pay policy", "section": "Approval",
     "text": "Pay policy > Approval\nRefund approval: who must approve a refund? Approval of every refund "
             "above the limit needs a second approval."},
]
AUDIENCES = {"refunds": STAFF, "delivery": STAFF, "warranty": STAFF, "hours": STAFF, "pay": MANAGERS}
QUERY = "who must approve a refund approval"


@pytest.fixture(scope="module")
def corpus() -> SearchCorpus:
    return SearchCorpus.from_chunks(CHUNKS, AUDIENCES)


class _StoredLsa(StoredVectorRetriever):
    """LSA-4 vectors of the corpus written to an index, then searched as the index's stored rows (the
    corpus keeps its own row order: the stored vectors are matched to it by chunk id)."""

    def __init__(self, corpus: SearchCorpus) -> None:
        lsa = LsaRetriever(n_components=4, analyzer=ENGLISH).fit(corpus)
        self.store = IndexStore(":memory:")
        self.store.put_chunks([{**c, "type": "", "order": 0, "tokens": 1, "fingerprint": "f", "edited": ""}
                               for c in CHUNKS], lsa.matrix_[[corpus.ids.index(c["id"]) for c in CHUNKS]], "lsa-4")
        super().__init__("lsa-4", encode=lambda query: lsa.lsa_.transform(lsa.vectorizer_.transform([query]))[0])

    def fit(self, corpus: SearchCorpus) -> _StoredLsa:
        stored = SearchCorpus.from_index(self.store)
        return super().fit(replace(corpus, vector_source=stored.vector_source, stored_models=stored.stored_models))


def _stored(corpus: SearchCorpus) -> _StoredLsa:
    return _StoredLsa(corpus)


RETRIEVERS = {
    "tfidf": lambda corpus: TfidfRetriever(analyzer=ENGLISH),
    "lsa": lambda corpus: LsaRetriever(n_components=4, analyzer=ENGLISH),
    "bm25": lambda corpus: BM25Retriever(analyzer=ENGLISH),
    "stored": _stored,
    "embedded": lambda corpus: EmbeddingRetriever(LsaEmbedder(4, analyzer=ENGLISH).fit(corpus.texts)),
    "rrf": lambda corpus: RRF([BM25Retriever(analyzer=ENGLISH), TfidfRetriever(analyzer=ENGLISH)]),
    "relative": lambda corpus: RelativeScoreFusion([BM25Retriever(analyzer=ENGLISH), TfidfRetriever(analyzer=ENGLISH)],
                                                   weights=(0.25, 0.75)),
}


# ---------------------------------------------------------------- the interface

@pytest.mark.parametrize("name", sorted(RETRIEVERS))
def test_every_retriever_returns_hits_that_name_chunk_page_title_and_section(name: str, corpus: SearchCorpus) -> None:
    hits = RETRIEVERS[name](corpus).fit(corpus).search("refund card payments working days", k=3)
    assert 1 <= len(hits) <= 3 and all(isinstance(hit, Hit) for hit in hits)
    by_id = {c["id"]: c for c in CHUNKS}
    for hit in hits:
        chunk = by_id[hit.id]
        assert (hit.page_id, hit.title, hit.section) == (chunk["page_id"], chunk["title"], chunk["section"])
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def _agree_to_float32(many: list[Hit], single: list[Hit]) -> bool:
    """Same scores to float32 precision, and the same chunk wherever a score stands clear of the others."""
    def clear(hit: Hit) -> bool:
        return hit.score > 1e-3 and all(abs(hit.score - other.score) > 1e-5 for other in single if other is not hit)
    return (len(many) == len(single)
            and all(abs(a.score - b.score) <= 1e-5 and (a.id == b.id or not clear(b)) for a, b in zip(many, single)))


@pytest.mark.parametrize("name", RETRIEVERS)
def test_search_many_answers_each_query_as_search_does(name: str, corpus: SearchCorpus) -> None:
    retriever = RETRIEVERS[name](corpus).fit(corpus)
    queries = [QUERY, "delivery stairs lift", "warranty compressors", "nothing matches this"]
    for audience, min_score in ((None, None), (STAFF, None), (STAFF, 0.01)):
        many = retriever.search_many(queries, k=3, audience=audience, min_score=min_score)
        single = [retriever.search(query, k=3, audience=audience, min_score=min_score) for query in queries]
        if name in ("lsa", "stored", "embedded"):  # BLAS adds a batch's dot products in another order than one query's
            assert all(_agree_to_float32(a, b) for a, b in zip(many, single))
        else:
            assert many == single
    assert retriever.search_many([], k=3) == []
    with pytest.raises(TypeError, match="single str"):
        retriever.search_many(QUERY)


def test_searching_before_fit_raises_not_fitted() -> None:
    with pytest.raises(NotFittedError, match="fit"):
        TfidfRetriever().search("anything")
    with pytest.raises(NotFittedError, match="fit"):
        RRF([BM25Retriever()]).search("anything")


def test_k_must_be_a_positive_integer(corpus: SearchCorpus) -> None:
    retriever = TfidfRetriever(analyzer=ENGLISH).fit(corpus)
    for k in (0, -2, 2.5):
        with pytest.raises(ValueError, match="positive integer"):
            retriever.search(QUERY, k=k)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(RETRIEVERS))
@pytest.mark.parametrize("min_score", [float("nan"), "0.1", [0.1], True])
def test_a_min_score_that_is_not_a_number_is_refused_rather_than_silently_returning_nothing(
        name: str, min_score: object, corpus: SearchCorpus) -> None:
    retriever = RETRIEVERS[name](corpus).fit(corpus)
    with pytest.raises(ValueError, match="min_score must be a number"):
        retriever.search_many([QUERY], k=3, min_score=min_score)  # type: ignore[arg-type]
    assert len(retriever.search(QUERY, k=3, min_score=np.float32(0.0))) >= 1


@pytest.mark.parametrize("parameters", [{"weights": (float("inf"), 1, 1)}, {"k1": float("inf")}])
def test_bm25f_refuses_an_infinite_weight_or_k1_which_would_make_every_score_nan(corpus: SearchCorpus,
                                                                               parameters: dict) -> None:
    with pytest.raises(ValueError, match="finite numbers? >= 0"):
        BM25FRetriever(analyzer=ENGLISH, **parameters).fit(corpus)


def test_parameters_are_stored_unchanged_and_shown_in_the_repr() -> None:
    retriever = BM25Retriever(k1=0.9, b=0.4)
    assert retriever.get_params()["k1"] == 0.9 and retriever.get_params()["idf"] == "lucene"
    assert repr(retriever) == "BM25Retriever(k1=0.9, b=0.4)"


def test_a_corpus_refuses_columns_of_different_lengths_and_repeated_ids() -> None:
    with pytest.raises(ValueError, match="one entry per chunk"):
        SearchCorpus(ids=("a", "b"), page_ids=("p",), titles=("t", "t"), sections=(None, None), texts=("x", "y"),
                     audiences=(None, None))
    with pytest.raises(ValueError, match="unique"):
        SearchCorpus.from_chunks([CHUNKS[0], CHUNKS[0]])


# ---------------------------------------------------------------- the audience filter

@pytest.mark.parametrize("name", sorted(RETRIEVERS))
def test_the_hidden_page_is_the_best_match_yet_never_reaches_the_other_audience(name: str,
                                                                              corpus: SearchCorpus) -> None:
    retriever = RETRIEVERS[name](corpus).fit(corpus)
    assert retriever.search(QUERY, k=1)[0].page_id == "pay"
    for k in range(1, 6):
        hits = retriever.search(QUERY, k=k, audience=STAFF)
        assert "pay" not in {hit.page_id for hit in hits}
        assert all(AUDIENCES[hit.page_id] == STAFF for hit in hits)


@pytest.mark.parametrize("name", ["tfidf", "lsa", "stored", "rrf"])
def test_filtering_before_ranking_still_returns_k_results_when_k_are_visible(name: str,
                                                                           corpus: SearchCorpus) -> None:
    retriever = RETRIEVERS[name](corpus).fit(corpus)
    visible = sum(1 for a in corpus.audiences if a == STAFF)
    for k in range(1, visible + 1):
        assert len(retriever.search(QUERY, k=k, audience=STAFF)) == k
    # post-filtering the unfiltered top-k would have lost the hidden row and returned k - 1
    assert "pay" in {h.page_id for h in retriever.search(QUERY, k=visible)}


def test_bm25_filtered_search_returns_every_visible_match_up_to_k(corpus: SearchCorpus) -> None:
    retriever = BM25Retriever(analyzer=ENGLISH).fit(corpus)
    query = "refunds days lift holidays approval"
    matching_staff = [h for h in retriever.search(query, k=10) if h.page_id != "pay"]
    assert len(matching_staff) == 4
    assert retriever.search(query, k=4, audience=STAFF) == matching_staff
    assert retriever.search(query, k=4, audience=MANAGERS)[0].page_id == "pay"


def test_hidden_rows_get_no_score_at_all_so_the_ranking_of_the_rest_is_unchanged(corpus: SearchCorpus) -> None:
    retriever = TfidfRetriever(analyzer=ENGLISH).fit(corpus)
    everyone = retriever.search(QUERY, k=len(CHUNKS))
    staff = retriever.search(QUERY, k=len(CHUNKS), audience=STAFF)
    assert staff == [hit for hit in everyone if hit.page_id != "pay"]


def test_an_unknown_audience_is_refused_naming_the_known_ones(corpus: SearchCorpus) -> None:
    retriever = TfidfRetriever(analyzer=ENGLISH).fit(corpus)
    with pytest.raises(UnknownAudienceError, match="'managers', 'staff'"):
        retriever.search(QUERY, audience="staf")
    unlabelled = TfidfRetriever(analyzer=ENGLISH).fit(SearchCorpus.from_chunks(CHUNKS))
    with pytest.raises(UnknownAudienceError, match="audiences=..."):
        unlabelled.search(QUERY, audience=STAFF)


# ---------------------------------------------------------------- the abstain threshold

def test_without_a_threshold_a_cosine_retriever_returns_unrelated_rows_at_zero(corpus: SearchCorpus) -> None:
    hits = TfidfRetriever(analyzer=ENGLISH).fit(corpus).search("baroque violin tuning", k=3)
    assert [h.score for h in hits] == [0.0, 0.0, 0.0]
    assert [h.id for h in hits] == [c["id"] for c in CHUNKS[:3]]  # ties in corpus order


def test_a_threshold_turns_an_unrelated_question_into_no_answer(corpus: SearchCorpus) -> None:
    retriever = TfidfRetriever(analyzer=ENGLISH).fit(corpus)
    assert retriever.search("baroque violin tuning", k=3, min_score=0.05) == []


def test_a_threshold_keeps_only_hits_scoring_at_least_min_score(corpus: SearchCorpus) -> None:
    retriever = TfidfRetriever(analyzer=ENGLISH).fit(corpus)
    everything = retriever.search(QUERY, k=len(CHUNKS))
    cut = everything[1].score
    kept = retriever.search(QUERY, k=len(CHUNKS), min_score=cut)
    assert kept == [h for h in everything if h.score >= cut] and len(kept) >= 2
    assert all(h.score >= cut for h in kept)


def test_the_threshold_applies_after_the_audience_filter(corpus: SearchCorpus) -> None:
    retriever = BM25Retriever(analyzer=ENGLISH).fit(corpus)
    best_pay = retriever.search(QUERY, k=1)[0].score
    assert retriever.search(QUERY, k=5, audience=STAFF, min_score=best_pay) == []


# ---------------------------------------------------------------- BM25

def test_bm25_retriever_scores_exactly_like_the_lab_bm25_on_the_corpus_texts(corpus: SearchCorpus) -> None:
    retriever = BM25Retriever(k1=1.2, b=0.6, analyzer=ENGLISH).fit(corpus)
    reference = BM25(k1=1.2, b=0.6, analyzer=ENGLISH).fit(corpus.texts)
    for query in (QUERY, "card payments", "stairs lift extra"):
        np.testing.assert_array_equal(retriever.score(query), reference.score(query))
        assert [(h.id, h.score) for h in retriever.search(query, k=3)] == [
            (corpus.ids[row], score) for row, score in reference.top_k(query, 3)]


def test_bm25_ranks_only_rows_that_contain_a_query_term(corpus: SearchCorpus) -> None:
    retriever = BM25Retriever(analyzer=ENGLISH).fit(corpus)
    assert [h.page_id for h in retriever.search("compressors", k=5)] == ["warranty"]
    assert retriever.search("baroque violin", k=5) == []


# ---------------------------------------------------------------- stored dense vectors

def test_stored_vectors_rank_like_the_model_that_wrote_them(corpus: SearchCorpus) -> None:
    lsa = LsaRetriever(n_components=4, analyzer=ENGLISH).fit(corpus)
    stored = _stored(corpus).fit(corpus)
    for query in (QUERY, "card payments"):
        assert [h.id for h in stored.search(query, k=4)] == [h.id for h in lsa.search(query, k=4)]


def test_stored_vectors_follow_the_corpus_order_not_the_store_order() -> None:
    reordered = SearchCorpus.from_chunks(CHUNKS[::-1], AUDIENCES)
    stored = _stored(SearchCorpus.from_chunks(CHUNKS, AUDIENCES)).fit(reordered)
    hit = stored.search(QUERY, k=1)[0]
    assert hit.page_id == "pay" and reordered.ids[0] == "pay:approval:00"


def test_a_corpus_chunk_without_a_stored_vector_or_a_query_of_another_dimension_is_refused(
        corpus: SearchCorpus) -> None:
    extra = SearchCorpus.from_chunks(CHUNKS + [{**CHUNKS[0], "id": "refunds:steps:01"}], AUDIENCES)
    with pytest.raises(ModelMismatchError, match="refunds:steps:01"):
        _stored(corpus).fit(extra)
    wrong = StoredVectorRetriever("lsa-4", lambda query: np.ones(7, dtype=np.float32))
    with pytest.raises(ModelMismatchError, match="dimension 7.*made by another model"):
        wrong.fit(SearchCorpus.from_index(_stored(corpus).store)).search(QUERY)
    with pytest.raises(ModelMismatchError, match="no stored 'lsa-4' vectors.*from_index"):
        StoredVectorRetriever("lsa-4", lambda query: np.ones(4)).fit(corpus)


# ---------------------------------------------------------------- reciprocal rank fusion

def test_rrf_sums_one_over_sixty_plus_rank_across_rankings() -> None:
    fused = dict(reciprocal_rank_fusion([["a", "b", "c"], ["b", "c", "d"]]))
    assert fused == pytest.approx({"a": 1 / 61, "b": 1 / 62 + 1 / 61, "c": 1 / 63 + 1 / 62, "d": 1 / 63})
    assert [item for item, _ in reciprocal_rank_fusion([["a", "b", "c"], ["b", "c", "d"]])] == ["b", "c", "a", "d"]


def test_rrf_prefers_an_item_both_lists_rank_well_to_one_a_single_list_ranks_first() -> None:
    fused = reciprocal_rank_fusion([["solo", "both"], ["x", "both"], ["y", "both"]])
    assert fused[0][0] == "both"


def test_rrf_breaks_ties_by_best_rank_then_by_the_earlier_ranking() -> None:
    assert [i for i, _ in reciprocal_rank_fusion([["a", "b"], ["b", "a"]])] == ["a", "b"]
    assert [i for i, _ in reciprocal_rank_fusion([["b", "a"], ["a", "b"]])] == ["b", "a"]
    assert [i for i, _ in reciprocal_rank_fusion([["x", "p"], ["y", "q"]])] == ["x", "y", "p", "q"]


def test_rrf_with_k_zero_is_the_sum_of_reciprocal_ranks() -> None:
    assert dict(reciprocal_rank_fusion([["a", "b"], ["b"]], k=0)) == {"a": 1.0, "b": 1 / 2 + 1}


def test_rrf_refuses_a_ranking_with_a_repeated_item_and_a_negative_k() -> None:
    with pytest.raises(ValueError, match="twice"):
        reciprocal_rank_fusion([["a", "a"]])
    with pytest.raises(ValueError, match="k must be >= 0"):
        reciprocal_rank_fusion([["a"]], k=-1)


def test_the_rrf_retriever_fuses_what_its_retrievers_return(corpus: SearchCorpus) -> None:
    bm25, tfidf = BM25Retriever(analyzer=ENGLISH), TfidfRetriever(analyzer=ENGLISH)
    hybrid = RRF([bm25, tfidf], depth=4).fit(corpus)
    expected = reciprocal_rank_fusion([[h.id for h in bm25.search(QUERY, 4)], [h.id for h in tfidf.search(QUERY, 4)]])
    hits = hybrid.search(QUERY, k=3)
    assert [(h.id, h.score) for h in hits] == [(item, pytest.approx(score)) for item, score in expected[:3]]


def test_rrf_min_score_applies_to_the_fused_score(corpus: SearchCorpus) -> None:
    hybrid = RRF([BM25Retriever(analyzer=ENGLISH), TfidfRetriever(analyzer=ENGLISH)]).fit(corpus)
    hits = hybrid.search(QUERY, k=6, min_score=1 / 61 + 1 / 62)
    assert hits and all(h.score >= 1 / 61 + 1 / 62 for h in hits)


# ---------------------------------------------------------------- Chinese

def test_bigrams_find_a_chinese_phrase_that_whole_word_tokens_miss() -> None:
    chunks = [{"id": "r", "page_id": "r", "title": "退货", "section": None,
               "text": "退款到账时间：信用卡七至十五个工作日。"},
              {"id": "d", "page_id": "d", "title": "配送", "section": None,
               "text": "配送范围：九楼没有电梯要加收搬运费。"}]
    corpus = SearchCorpus.from_chunks(chunks)
    query = "信用卡退款多久到账"
    assert BM25Retriever(analyzer=WordAnalyzer(stop_words=None)).fit(corpus).search(query) == []
    assert BM25Retriever(analyzer=CJKBigramAnalyzer()).fit(corpus).search(query)[0].id == "r"


def test_handbook_refund_approval_lands_on_hr_unfiltered_and_on_the_refund_page_for_support() -> None:
    handbook = read_handbook()
    corpus = handbook.corpus()
    (question,) = [q for q in handbook_questions(handbook.workspace.page_id) if q.id == "h01"]
    hr_page = handbook.workspace.page_id("pay-and-expenses")
    for retriever in (BM25Retriever(analyzer=CJKBigramAnalyzer()), TfidfRetriever(analyzer=CJKBigramAnalyzer())):
        retriever.fit(corpus)
        assert retriever.search(question.question, k=1)[0].page_id == hr_page
        support = retriever.search(question.question, k=8, audience=question.audience)
        assert hr_page not in {h.page_id for h in support}
        assert source_units(support)[0] in question.relevant
    assert len(support) == 8  # the cosine ranks every visible chunk: the filter did not shrink the top 8


def test_study_note_set_has_a_row_per_note_and_one_question_nothing_answers() -> None:
    corpus, questions = study_note_corpus(), study_note_questions()
    assert len(corpus) == 12 and set(corpus.page_ids) == set(corpus.ids)
    assert [q.id for q in questions if not q.relevant] == ["s8"]


def test_the_handbook_is_chunked_with_chinese_markers_and_every_chunk_carries_its_page_audience() -> None:
    handbook = read_handbook()
    corpus = handbook.corpus()
    assert set(corpus.audiences) == {"客服", "人事"}
    assert any("\n问题：" in text for text in corpus.texts)  # toggle FAQs keep their role in Chinese
    assert not any("Pregunta:" in text for text in corpus.texts)
    hr_page = handbook.workspace.page_id("pay-and-expenses")
    assert {a for p, a in zip(corpus.page_ids, corpus.audiences) if p == hr_page} == {"人事"}


def test_a_corpus_read_from_the_index_follows_its_id_order_and_its_hits_name_pages(corpus: SearchCorpus) -> None:
    stored = _stored(corpus)
    from_index = SearchCorpus.from_index(stored.store, AUDIENCES)
    assert list(from_index.ids) == sorted(c["id"] for c in CHUNKS)
    assert from_index.audiences[from_index.ids.index("pay:approval:00")] == MANAGERS
    plain = StoredVectorRetriever("lsa-4", stored.encode).fit(from_index)
    hit = plain.search(QUERY, k=1, audience=STAFF)[0]
    assert isinstance(hit, Hit) and AUDIENCES[hit.page_id] == STAFF
    assert plain.search(QUERY, k=6)[0].page_id == "pay"


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_a_query_vector_holding_nan_or_infinity_is_refused_rather_than_finding_nothing(corpus: SearchCorpus,
                                                                                       bad: float) -> None:
    query = np.full(4, bad)
    retriever = StoredVectorRetriever("lsa-4", lambda _: query).fit(SearchCorpus.from_index(_stored(corpus).store))
    with pytest.raises(ValueError, match="query vector for 'lsa-4' holds NaN or infinity"):
        retriever.search(QUERY)