"""Embedding a corpus with Voyage AI: requests under its per-request limits, and the standard and batch price."""

from __future__ import annotations

import pytest

from lab.services import (VOYAGE_PRICES, VOYAGE_REQUEST_TEXTS, VOYAGE_REQUEST_TOKENS, EmbeddingPrice,
                          embedding_bill)


def test_the_bill_counts_requests_by_texts_or_tokens_whichever_limit_binds_first() -> None:
    assert embedding_bill(315, 49_510).requests == 1
    assert embedding_bill(VOYAGE_REQUEST_TEXTS + 1, 1_000).requests == 2  # texts bind
    assert embedding_bill(10, VOYAGE_REQUEST_TOKENS["voyage-4"] * 3 + 1).requests == 4  # tokens bind
    assert embedding_bill(0, 0).requests == 0


def test_the_batch_api_takes_a_third_off_the_list_price() -> None:
    bill = embedding_bill(100_000, 15_000_000, "voyage-4")
    assert bill.usd == pytest.approx(15 * 0.06) and bill.usd_batch == pytest.approx(bill.usd * 0.67)
    assert bill.family == "voyage-4" and bill.model == "voyage-4"
    lite, large = (embedding_bill(1, 1_000_000, model) for model in ("voyage-4-lite", "voyage-4-large"))
    assert (lite.usd, large.usd) == (VOYAGE_PRICES["voyage-4-lite"].cost(1_000_000), pytest.approx(0.12))


def test_a_model_without_a_kept_price_needs_one_and_a_family_without_a_token_limit_counts_texts() -> None:
    with pytest.raises(LookupError, match="no price is kept for 'voyage-3.5'.*EmbeddingPrice"):
        embedding_bill(10, 100, "voyage-3.5")
    bill = embedding_bill(2_500, 10_000_000, "voyage-3.5", price=EmbeddingPrice("voyage-3.5", 0.06))
    assert bill.requests == 3 and bill.usd_batch == bill.usd  # no discount given


@pytest.mark.parametrize("texts, tokens", [(-1, 0), (0, -5), (1.5, 0), (True, 3)])
def test_counts_that_are_not_whole_numbers_are_refused(texts, tokens) -> None:
    with pytest.raises(ValueError, match="must be a whole number"):
        embedding_bill(texts, tokens)
