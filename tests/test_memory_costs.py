"""The month's bill: the source's formulas reproduced, the rewrite calls counted, tiers priced, and what a summary loses."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lab.datasets.study_notes import load_study_fortnight
from lab.memory import (MEMORY_PLANS, ContextParams, first_sentence_summary, monthly_costs, strategy_contexts,
                        summary_context, summary_rewrites, tiered_context, totals, what_each_strategy_keeps)
from lab.services import ModelPrice


def test_the_month_reproduces_the_input_output_and_budget_figures() -> None:
    bill = monthly_costs().set_index("plan")
    assert list(bill.index) == list(MEMORY_PLANS)
    # 0.369 USD of input a conversation, 30 a month: 11.07 USD, over the 10 USD budget on input alone
    assert bill.loc["history", "usd_input"] * 30 == pytest.approx(11.07)
    assert bill.loc["retrieval", "usd_input"] * 30 == pytest.approx(2.25)
    # output is the same for every plan: 30 replies of 250 tokens at 10 USD per million
    assert set(bill["output_tokens"]) == {7_500}
    assert bill["usd_output"].tolist() == pytest.approx([0.075] * 4)
    assert bill.loc["history", "usd_month"] == pytest.approx(13.32)
    assert bill["within_budget"].tolist() == [False, True, True, True]
    assert bill.loc["retrieval", "share_of_budget"] == pytest.approx(0.45)


def test_the_summary_s_rewrite_calls_are_counted_and_priced() -> None:
    rewrites = summary_rewrites()
    assert rewrites["before_turn"].tolist() == [6, 11, 16, 21, 26]
    # instruction + previous summary + five exchanges of 400 tokens; the summary written is 100 a turn, capped at 800
    assert rewrites["input_tokens"].tolist() == [2_050, 2_550, 2_850, 2_850, 2_850]
    assert rewrites["output_tokens"].tolist() == [500, 800, 800, 800, 800]
    bill = monthly_costs().set_index("plan")
    assert bill.loc["summary", "rewrite_calls"] == 5 and bill.loc["history", "rewrite_calls"] == 0
    assert bill.loc["summary", "usd_rewrites"] == pytest.approx((13_150 * 2 + 3_700 * 10) / 1e6)
    assert bill.loc["summary", "usd_conversation"] == pytest.approx(0.106 + 0.075 + 0.06330)


@given(n=st.integers(1, 12), T=st.integers(1, 80))
def test_one_rewrite_per_n_turns_before_the_last(n: int, T: int) -> None:
    assert len(summary_rewrites(T, ContextParams(n=n))) == (T - 1) // n


def test_tiers_add_the_retrieved_fragments_to_the_summary() -> None:
    assert [tiered_context(t) for t in (1, 6, 30)] == [summary_context(t) + 900 for t in (1, 6, 30)]
    assert monthly_costs().set_index("plan").loc["tiers", "input_tokens"] == totals(30)["summary"] + 30 * 900


def test_the_bill_follows_the_named_price_and_the_number_of_conversations() -> None:
    cheap = ContextParams(price=ModelPrice("a-cheaper-model", 1.0, 5.0))
    assert monthly_costs(params=cheap)["usd_month"].tolist() == pytest.approx(
        [value / 2 for value in monthly_costs()["usd_month"]])
    assert monthly_costs(conversations=1)["usd_month"].tolist() == pytest.approx(
        monthly_costs()["usd_conversation"].tolist())
    with pytest.raises(ValueError, match="conversations"):
        monthly_costs(conversations=0)
    with pytest.raises(ValueError, match="budget_usd"):
        monthly_costs(budget_usd=0)
    with pytest.raises(ValueError, match="instruction"):
        summary_rewrites(instruction=-1)


FORTNIGHT = load_study_fortnight()


def test_history_keeps_every_fact_and_the_summary_only_what_led_a_message() -> None:
    kept = what_each_strategy_keeps(FORTNIGHT["turns"], FORTNIGHT["probes"]).set_index("fact")
    assert kept["history"].all()
    assert kept["summary"].to_dict() == {"exam day": False, "exam day, other words": False, "answer style": True,
                                         "weak topic": False, "pandas version": True}
    # retrieval finds a fact when the question shares its words, and misses it otherwise
    assert kept.loc["exam day", "retrieval"] and not kept.loc["exam day, other words", "retrieval"]
    assert (kept["tiers"] >= kept["summary"]).all() and (kept["tiers"] >= kept["retrieval"]).all()
    assert (kept["summary_tokens"] < kept["history_tokens"]).all()


def test_the_summary_folds_only_what_the_last_rewrite_covered() -> None:
    turns = FORTNIGHT["turns"]
    contexts = strategy_contexts(turns, "When is my exam?")
    assert "Thursday 12 March" in contexts["history"] and "Thursday 12 March" not in contexts["summary"]
    # 12 turns, a rewrite every 5: turns 11 and 12 travel whole, turns 1-10 as first sentences
    assert turns[10]["assistant"] in contexts["summary"] and turns[9]["assistant"] not in contexts["summary"]
    assert contexts["summary"].count("\n") >= 10


def test_the_first_sentence_summary_drops_the_oldest_lines_past_its_cap() -> None:
    turns = [{"user": f"Topic {n} matters. Detail {n}.", "assistant": "ok"} for n in range(1, 6)]
    assert first_sentence_summary(turns, 1_000).split("\n") == [f"Topic {n} matters." for n in range(1, 6)]
    capped = first_sentence_summary(turns, 8)
    assert capped.split("\n")[-1] == "Topic 5 matters." and "Topic 1" not in capped
    assert first_sentence_summary(turns, 0) == ""
