"""Context-cost models of the memory lesson: per-turn formulas, totals, closed forms, cost."""

from __future__ import annotations

import pytest

from lab.services import DEFAULT_MODEL, DEFAULT_PRICE, ModelPrice
from hypothesis import given
from hypothesis import strategies as st

from lab.memory import (
    STRATEGIES,
    ContextParams,
    context_table,
    cost_usd,
    first_turn_retrieval_is_cheaper,
    history_context,
    history_to_retrieval_ratio,
    history_total_closed_form,
    retrieval_context,
    summary_context,
    totals,
)

token_sizes = st.integers(min_value=0, max_value=5_000)
params_strategy = st.builds(
    ContextParams,
    p=token_sizes, u=token_sizes, r=token_sizes,
    n=st.integers(min_value=1, max_value=12),
    per_summarised_turn=st.integers(min_value=0, max_value=500),
    summary_cap=st.integers(min_value=0, max_value=5_000),
    k=st.integers(min_value=0, max_value=10), f=token_sizes,
)
turn_counts = st.integers(min_value=1, max_value=200)


def simulate_rolling_summary(T: int, params: ContextParams) -> list[int]:
    """Play the conversation turn by turn, folding the recent turns into the summary every n turns."""
    summary, recent, sent = 0, [], []
    for _ in range(T):
        if len(recent) == params.n:
            summary = min(params.summary_cap, summary + params.per_summarised_turn * len(recent))
            recent = []
        sent.append(params.p + summary + sum(recent) + params.u)
        recent.append(params.u + params.r)
    return sent


def test_thirty_turn_totals_with_the_default_params_are_184500_53000_37500() -> None:
    assert totals(30) == {"history": 184_500, "summary": 53_000, "retrieval": 37_500}


def test_default_params_are_the_lesson_scenario() -> None:
    params = ContextParams()
    assert (params.p, params.u, params.r, params.n) == (200, 150, 250, 5)
    assert (params.per_summarised_turn, params.summary_cap, params.k, params.f) == (100, 800, 3, 300)
    assert params.price == DEFAULT_PRICE and params.price.model == DEFAULT_MODEL
    assert (params.price.input_usd_per_million, params.price.output_usd_per_million) == (2.00, 10.00)


def test_per_turn_contexts_at_turns_1_10_20_30_match_the_lesson_table() -> None:
    assert [history_context(t) for t in (1, 10, 20, 30)] == [350, 3_950, 7_950, 11_950]
    assert [summary_context(t) for t in (1, 10, 20, 30)] == [350, 2_450, 2_750, 2_750]
    assert [retrieval_context(t) for t in (1, 10, 20, 30)] == [1_250] * 4


def test_summary_drops_on_the_turn_after_each_rewrite_and_peaks_at_2750_once_capped() -> None:
    sent = [summary_context(t) for t in range(1, 31)]
    drops = [t for t in range(2, 31) if sent[t - 1] < sent[t - 2]]
    assert drops == [6, 11, 16, 21, 26]
    assert max(sent[10:]) == 2_750 and min(sent[10:]) == 1_150


def test_rolling_summary_formula_equals_a_turn_by_turn_simulation_with_the_defaults() -> None:
    assert [summary_context(t) for t in range(1, 31)] == simulate_rolling_summary(30, ContextParams())


@given(params=params_strategy, T=turn_counts)
def test_rolling_summary_formula_equals_a_turn_by_turn_simulation_for_any_params(params: ContextParams, T: int) -> None:
    assert [summary_context(t, params) for t in range(1, T + 1)] == simulate_rolling_summary(T, params)


@given(params=params_strategy, T=turn_counts)
def test_history_total_equals_its_closed_form_for_any_params(params: ContextParams, T: int) -> None:
    assert totals(T, params)["history"] == history_total_closed_form(T, params)


@given(params=params_strategy, T=turn_counts)
def test_retrieval_total_is_T_times_p_plus_kf_plus_u(params: ContextParams, T: int) -> None:
    assert totals(T, params)["retrieval"] == T * (params.p + params.k * params.f + params.u)


@given(params=params_strategy, T=turn_counts)
def test_summary_context_never_exceeds_its_ceiling(params: ContextParams, T: int) -> None:
    ceiling = params.p + params.summary_cap + (params.n - 1) * (params.u + params.r) + params.u
    assert all(summary_context(t, params) <= ceiling for t in range(1, T + 1))


def test_closed_form_worked_example_is_10500_plus_174000() -> None:
    assert 30 * (200 + 150) == 10_500 and 400 * 30 * 29 // 2 == 174_000
    assert history_total_closed_form(30) == 10_500 + 174_000


def test_context_table_has_one_row_per_turn_and_cumulative_columns_ending_at_the_totals() -> None:
    table = context_table(30)
    assert list(table.columns) == ["turn", *STRATEGIES, *(f"{s}_cumulative" for s in STRATEGIES)]
    assert table.shape == (30, 7)
    assert table["turn"].tolist() == list(range(1, 31))
    assert all(str(dtype) == "int64" for dtype in table.dtypes)
    last = table.iloc[-1]
    assert {s: int(last[f"{s}_cumulative"]) for s in STRATEGIES} == totals(30)


@given(params=params_strategy, T=st.integers(min_value=1, max_value=60))
def test_cumulative_columns_are_running_sums_of_the_per_turn_columns(params: ContextParams, T: int) -> None:
    table = context_table(T, params)
    for s in STRATEGIES:
        assert table[f"{s}_cumulative"].tolist() == table[s].cumsum().tolist()


def test_cost_of_the_thirty_turn_conversation_is_0369_0106_0075_usd() -> None:
    costs = {name: cost_usd(tokens) for name, tokens in totals(30).items()}
    assert costs == pytest.approx({"history": 0.369, "summary": 0.106, "retrieval": 0.075})


def test_cost_follows_the_price_parameter() -> None:
    other = ModelPrice("another-model", 3.0, 15.0)
    assert cost_usd(1_000_000, ContextParams(price=other)) == pytest.approx(3.0)
    assert other.cost(1_000_000, 1_000_000) == pytest.approx(18.0)


def test_at_turn_30_full_history_sends_9_56_times_the_retrieval_context() -> None:
    assert history_to_retrieval_ratio(30) == pytest.approx(11_950 / 1_250)
    assert round(history_to_retrieval_ratio(30), 1) == 9.6


def test_retrieval_becomes_cheaper_than_full_history_from_turn_4() -> None:
    assert first_turn_retrieval_is_cheaper() == 4
    assert retrieval_context(3) > history_context(3) and retrieval_context(4) < history_context(4)


@given(params=params_strategy)
def test_first_cheaper_turn_is_where_the_per_turn_lines_cross(params: ContextParams) -> None:
    turn = first_turn_retrieval_is_cheaper(params)
    if params.u + params.r == 0:
        assert turn is None
    else:
        assert retrieval_context(turn, params) < history_context(turn, params)
        assert all(retrieval_context(t, params) >= history_context(t, params) for t in range(1, turn))


def test_turns_are_numbered_from_one() -> None:
    with pytest.raises(ValueError, match="numbered from 1"):
        history_context(0)
    with pytest.raises(TypeError, match="whole number"):
        summary_context(2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="T .* >= 1"):
        context_table(0)


def test_params_refuse_negative_sizes_and_a_zero_rewrite_period() -> None:
    with pytest.raises(ValueError, match="u must be >= 0"):
        ContextParams(u=-1)
    with pytest.raises(ValueError, match="n .* must be >= 1"):
        ContextParams(n=0)
    with pytest.raises(TypeError, match="p must be a whole number"):
        ContextParams(p=200.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="names its model"):
        ContextParams(price=2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="input_usd_per_million"):
        ModelPrice("m", -2.0, 1.0)
    with pytest.raises(ValueError, match="names the model"):
        ModelPrice("", 2.0, 1.0)


def test_params_are_frozen_and_overridable_one_field_at_a_time() -> None:
    params = ContextParams(k=5)
    assert (params.k, params.f) == (5, 300)
    with pytest.raises(AttributeError):
        params.k = 4  # type: ignore[misc]
