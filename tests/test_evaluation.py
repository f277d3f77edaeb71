"""Retrieval metrics, checked against rankings small enough to score by hand.

The running example: the ranking a, b, c, d against the relevant set {b, d, e}. Relevant
units sit at ranks 2 and 4; e is never retrieved.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

from lab.retrieval.evaluation import (
    IdealPrecisionAt,
    LabelledQuestion,
    NdcgAt,
    PrecisionAt,
    RecallAt,
    ReciprocalRank,
    compare_methods,
    dedupe,
    evaluate_search,
    ideal_precision_at_k,
    mean_table,
    miss_table,
    misses,
    ndcg_at_k,
    per_query_table,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
    source_unit,
    source_units,
)

RANKED = ["a", "b", "c", "d"]
RELEVANT = {"b", "d", "e"}


# ---------------------------------------------------------------- precision and its ceiling

def test_precision_at_k_counts_relevant_units_among_the_first_k() -> None:
    assert precision_at_k(RANKED, RELEVANT, 1) == 0.0
    assert precision_at_k(RANKED, RELEVANT, 2) == 1 / 2
    assert precision_at_k(RANKED, RELEVANT, 3) == 1 / 3
    assert precision_at_k(RANKED, RELEVANT, 4) == 2 / 4


def test_precision_divides_by_k_even_when_the_ranking_is_shorter() -> None:
    # an abstaining retriever that returns one right answer fills one of three slots
    assert precision_at_k(["b"], {"b"}, 3) == 1 / 3


def test_the_ideal_ceiling_is_min_k_and_relevant_count_over_k() -> None:
    assert ideal_precision_at_k(3, 1) == 1.0
    assert ideal_precision_at_k(3, 3) == 1.0
    assert ideal_precision_at_k(3, 4) == 3 / 4
    assert ideal_precision_at_k(1, 3) == 1 / 3
    assert ideal_precision_at_k(0, 5) == 0.0


def test_a_perfect_ranking_reaches_the_ceiling_at_every_k() -> None:
    relevant = {"x", "y"}
    perfect = ["x", "y", "p", "q", "r"]
    for k in range(1, 6):
        assert precision_at_k(perfect, relevant, k) == ideal_precision_at_k(len(relevant), k)


# ---------------------------------------------------------------- recall, MRR, nDCG

def test_recall_at_k_is_the_share_of_relevant_units_found() -> None:
    assert recall_at_k(RANKED, RELEVANT, 1) == 0.0
    assert recall_at_k(RANKED, RELEVANT, 2) == 1 / 3
    assert recall_at_k(RANKED, RELEVANT, 4) == 2 / 3
    assert recall_at_k(RANKED, RELEVANT, 10) == 2 / 3  # e is never retrieved


def test_reciprocal_rank_is_one_over_the_rank_of_the_first_relevant_unit() -> None:
    assert reciprocal_rank(RANKED, RELEVANT) == 1 / 2
    assert reciprocal_rank(["d", "a"], RELEVANT) == 1.0
    assert reciprocal_rank(["a", "c"], RELEVANT) == 0.0


def test_reciprocal_rank_with_a_cutoff_ignores_what_lies_beyond_it() -> None:
    assert reciprocal_rank(["a", "c", "b"], RELEVANT, k=2) == 0.0
    assert reciprocal_rank(["a", "c", "b"], RELEVANT, k=3) == 1 / 3


def test_ndcg_uses_binary_gains_and_a_log2_discount() -> None:
    dcg = 1 / math.log2(2 + 1) + 1 / math.log2(4 + 1)  # relevant at ranks 2 and 4
    ideal = 1 / math.log2(1 + 1) + 1 / math.log2(2 + 1) + 1 / math.log2(3 + 1)  # three relevant, first three ranks
    assert ndcg_at_k(RANKED, RELEVANT, 4) == pytest.approx(dcg / ideal)
    assert ndcg_at_k(RANKED, RELEVANT, 4) == pytest.approx(1.061606 / 2.130930, abs=1e-6)


def test_ndcg_ideal_counts_only_as_many_relevant_units_as_fit_in_k() -> None:
    # with k = 1 the ideal is one relevant unit at rank 1, so a relevant first hit scores 1
    assert ndcg_at_k(["b", "a"], RELEVANT, 1) == 1.0
    assert ndcg_at_k(["a", "b"], RELEVANT, 2) == pytest.approx((1 / math.log2(3)) / (1 + 1 / math.log2(3)))


def test_ndcg_of_a_perfect_ranking_is_one_and_of_no_hit_is_zero() -> None:
    assert ndcg_at_k(["b", "d", "e", "a"], RELEVANT, 4) == pytest.approx(1.0)
    assert ndcg_at_k(["a", "c"], RELEVANT, 10) == 0.0


# ---------------------------------------------------------------- empty gold sets

def test_a_question_without_relevant_units_has_zero_precision_and_ceiling() -> None:
    assert precision_at_k(["a", "b"], set(), 2) == 0.0
    assert ideal_precision_at_k(0, 2) == 0.0


def test_recall_mrr_and_ndcg_are_undefined_without_relevant_units() -> None:
    assert math.isnan(recall_at_k(["a"], set(), 1))
    assert math.isnan(reciprocal_rank(["a"], set()))
    assert math.isnan(ndcg_at_k(["a"], set(), 1))
    assert math.isnan(recall_at_k([], set(), 1))


def test_averages_leave_out_questions_where_a_metric_is_undefined() -> None:
    rankings = {"q1": ["b", "a"], "q2": ["a", "c"], "q3": ["a"]}
    relevant = {"q1": {"b"}, "q2": {"c"}, "q3": set()}
    table = per_query_table(rankings, relevant, [PrecisionAt(1), RecallAt(2), ReciprocalRank()])
    means = mean_table(table).set_index("metric")
    assert means.loc["P@1", "mean"] == pytest.approx((1 + 0 + 0) / 3)  # precision is defined for q3: 0
    assert means.loc["P@1", "questions"] == 3
    assert means.loc["recall@2", "mean"] == pytest.approx((1 + 1) / 2)
    assert means.loc["MRR", "mean"] == pytest.approx((1 + 1 / 2) / 2)
    assert means.loc["MRR", "questions"] == 2


# ---------------------------------------------------------------- deduplication by source unit

class _Hit:
    def __init__(self, chunk: str, page_id: str, section: str | None) -> None:
        self.id, self.page_id, self.section = chunk, page_id, section


def test_a_section_cut_into_three_chunks_counts_once_at_its_best_rank() -> None:
    hits = [_Hit("p1:a:00", "p1", "A"), _Hit("p1:a:01", "p1", "A"), _Hit("p2:b:00", "p2", "B"),
            _Hit("p1:a:02", "p1", "A"), _Hit("p3:lead:00", "p3", None)]
    units = source_units(hits, "section")
    assert units == [("p1", "A"), ("p2", "B"), ("p3", None)]
    # without deduplication the three pieces of A would fill P@3 with one answer
    assert precision_at_k(units, {("p1", "A")}, 3) == 1 / 3
    # and the second relevant section moves up from chunk rank 3 to unit rank 2
    assert reciprocal_rank(units, {("p2", "B")}) == 1 / 2


def test_page_level_judges_every_section_of_a_page_as_the_same_unit() -> None:
    hits = [_Hit("p1:a:00", "p1", "A"), _Hit("p1:b:00", "p1", "B"), _Hit("p2:lead:00", "p2", None)]
    assert source_units(hits, "page") == ["p1", "p2"]
    assert source_unit({"page_id": "p9", "section": "X"}, "page") == "p9"
    assert source_unit({"page_id": "p9", "section": "X"}, "section") == ("p9", "X")


def test_dedupe_keeps_first_occurrences_in_order() -> None:
    assert dedupe(["c", "a", "c", "b", "a"]) == ["c", "a", "b"]


def test_a_ranking_that_repeats_a_unit_is_refused() -> None:
    with pytest.raises(ValueError, match="deduplicate"):
        precision_at_k(["a", "a"], {"a"}, 2)
    with pytest.raises(ValueError, match="deduplicate"):
        reciprocal_rank(["a", "a"], {"a"})


def test_an_unknown_level_or_a_bad_k_is_refused_with_the_valid_choices() -> None:
    with pytest.raises(ValueError, match="'section', 'page'"):
        source_unit({"page_id": "p", "section": None}, "chunk")  # type: ignore[arg-type]
    for k in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="positive integer"):
            precision_at_k(RANKED, RELEVANT, k)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="negative"):
        ideal_precision_at_k(-1, 3)


# ---------------------------------------------------------------- tables over many questions

def test_per_query_table_has_one_row_per_question_and_one_column_per_metric() -> None:
    table = per_query_table({"q1": RANKED}, {"q1": RELEVANT},
                            [PrecisionAt(4), IdealPrecisionAt(4), RecallAt(4), ReciprocalRank(), NdcgAt(4)])
    assert list(table.columns) == ["question", "relevant", "P@4", "ideal P@4", "recall@4", "MRR", "nDCG@4"]
    row = table.iloc[0]
    assert (row["relevant"], row["P@4"], row["ideal P@4"], row["recall@4"], row["MRR"]) == (3, 0.5, 0.75, 2 / 3, 0.5)


def test_per_query_table_refuses_a_question_without_judgments_and_duplicate_metric_names() -> None:
    with pytest.raises(KeyError, match="q2"):
        per_query_table({"q2": ["a"]}, {"q1": {"a"}}, [PrecisionAt(1)])
    with pytest.raises(ValueError, match="distinct"):
        per_query_table({"q1": ["a"]}, {"q1": {"a"}}, [PrecisionAt(1), PrecisionAt(1)])


def test_evaluate_search_passes_each_question_deduplicates_and_scores() -> None:
    questions = [LabelledQuestion("q1", "where is A?", frozenset({("p1", "A")}), audience="staff"),
                 LabelledQuestion("q2", "where is C?", frozenset({("p3", "C")}))]
    seen = []

    def search(question: LabelledQuestion) -> list[_Hit]:
        seen.append((question.id, question.audience))
        return [_Hit("c0", "p2", "B"), _Hit("c1", "p2", "B"), _Hit("c2", "p1", "A")]

    table = evaluate_search(search, questions, [RecallAt(2), ReciprocalRank()])
    assert seen == [("q1", "staff"), ("q2", None)]
    assert table["recall@2"].tolist() == [1.0, 0.0]  # A is the 2nd unit once B's two chunks count once
    assert table["MRR"].tolist() == [0.5, 0.0]
    assert misses(table, "recall@2") == ["q2"]


def test_misses_names_the_missing_column() -> None:
    with pytest.raises(KeyError, match="recall@8"):
        misses(pd.DataFrame({"question": ["q1"], "MRR": [0.0]}), "recall@8")


def test_compare_methods_gives_one_row_of_means_per_method_and_each_per_question_table() -> None:
    questions = [LabelledQuestion("q1", "?", frozenset({("p1", "A")})),
                 LabelledQuestion("q2", "?", frozenset({("p2", "B")}))]
    searches = {"finds A": lambda q: [_Hit("c", "p1", "A")], "finds nothing": lambda q: []}
    summary, per_question = compare_methods(searches, questions, [RecallAt(8), ReciprocalRank()])
    assert summary.to_dict("records") == [{"method": "finds A", "recall@8": 0.5, "MRR": 0.5},
                                          {"method": "finds nothing", "recall@8": 0.0, "MRR": 0.0}]
    assert list(per_question) == ["finds A", "finds nothing"]
    assert per_question["finds A"]["recall@8"].tolist() == [1.0, 0.0]


def test_miss_table_lists_questions_some_method_misses_most_missed_first_and_says_all_for_every_method() -> None:
    questions = [LabelledQuestion(q, f"text {q}", frozenset({q})) for q in ("q1", "q2", "q3")]
    per_question = {"A": pd.DataFrame({"question": ["q1", "q2", "q3"], "recall@8": [0.0, 1.0, 0.0]}),
                    "B": pd.DataFrame({"question": ["q1", "q2", "q3"], "recall@8": [1.0, 1.0, 0.0]})}
    table = miss_table(per_question, questions, "recall@8")
    assert table.to_dict("records") == [
        {"question": "q3", "text": "text q3", "methods missing": 2, "missed by": "all"},
        {"question": "q1", "text": "text q1", "methods missing": 1, "missed by": "A"}]
