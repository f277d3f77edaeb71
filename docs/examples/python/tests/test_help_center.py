"""The help-center reader against a served Notion simulator: the ``notion_simulator`` fixture comes
with the lab (installed, it registers a pytest plugin); pyproject.toml names the workspace it serves."""

from __future__ import annotations

import pytest
from notion_client import APIResponseError, Client
from notion_client.errors import HTTPResponseError

from help_center import article_text, published_articles


@pytest.fixture
def notion(notion_simulator) -> Client:
    """The official SDK, pointed at the simulator exactly as it would be at api.notion.com."""
    return Client(auth=notion_simulator.token, base_url=notion_simulator.base_url)


def test_published_articles_follow_every_cursor(notion, notion_simulator) -> None:
    help_center = notion_simulator.data_source_id("help-center")
    titles = published_articles(notion, help_center, page_size=2)
    assert titles == ["Delivery times", "Invoices", "Refunds", "Resetting a password"]  # the draft is left out
    queries = [r for r in notion_simulator.requests if r.route == "data_sources.query"]
    assert len(queries) == 2  # four rows, two per page: one cursor followed


def test_an_article_reads_nested_blocks_and_tables(notion, notion_simulator) -> None:
    lines = article_text(notion, notion_simulator.page_id("invoices"))
    assert lines == ["Invoices are sent by email the day an order ships.", "Country | VAT", "Germany | 19 %",
                     "Spain | 21 %", "Correcting an invoice"]
    assert "The refund goes to whoever paid, never to the recipient." in article_text(
        notion, notion_simulator.page_id("refunds"))


def test_the_integration_sees_only_what_is_shared(notion, notion_simulator) -> None:
    titles = {published for published in published_articles(notion, notion_simulator.data_source_id("help-center"))}
    assert "Salaries 2026" not in titles
    with pytest.raises(APIResponseError) as refused:
        notion.pages.retrieve(page_id=notion_simulator.page_id("salaries"))
    assert refused.value.status == 404 and refused.value.code == "object_not_found"
    finance = Client(auth=notion_simulator.token_for("finance-bot"), base_url=notion_simulator.base_url)
    assert finance.pages.retrieve(page_id=notion_simulator.page_id("salaries"))["id"]


def test_an_edit_in_the_workspace_shows_in_the_next_read(notion, notion_simulator) -> None:
    page_id = notion_simulator.page_id("delivery-times")
    block = notion_simulator.workspace.find_block(page_id, "same day")
    notion_simulator.workspace.edit_block_text(block.id, "Orders placed before 12:00 ship the same day.")
    assert article_text(notion, page_id) == ["Orders placed before 12:00 ship the same day."]
    edited = notion.pages.retrieve(page_id=page_id)["last_edited_time"]
    assert edited > "2026-01-10T10:00:00.000Z"  # stamped now, to the minute, as Notion does


@pytest.mark.notion_simulator(connection_budget=3, window_seconds=1)
def test_a_burst_waits_for_retry_after_instead_of_failing(notion, notion_simulator) -> None:
    for _ in range(4):
        notion.users.me()
    statuses = [r.status for r in notion_simulator.requests]
    assert statuses == [200, 200, 200, 429, 200]  # the SDK waited the second Retry-After asked for


def test_an_overloaded_notion_reaches_the_caller(notion, notion_simulator) -> None:
    with notion_simulator.limited(p_overload=1.0):
        with pytest.raises(HTTPResponseError) as overloaded:
            notion.users.me()
    assert overloaded.value.status == 529  # notion-client 3.1 does not retry a 529
    assert notion.users.me()["type"] == "bot"  # faults off again after the with
