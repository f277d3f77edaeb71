"""The Chinese support handbook: its workspace spec, its labelled questions, and the keyword trap.

The trap is what lesson 07 demonstrates: with both audiences in one index, a support agent's
question about refund approval is lexically closest to the HR pay policy; filtering by audience
before ranking sends it to the support refund page, its gold answer.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from lab.datasets.handbook import (AUDIENCES, HANDBOOK_PATH, HR_INTEGRATION, QUESTIONS_PATH, SUPPORT_INTEGRATION,
                                   build_handbook_workspace, load_handbook_questions, load_handbook_workspace,
                                   write_handbook_workspace)
from lab.simulator import NotionSimulator, Workspace

REFUND_APPROVAL = "退款审批需要谁批准？"
SUPPORT_REFUND_PAGE = "returns-and-refunds"
HR_PAGE = "pay-and-expenses"
CUTOFF = "2026-04-09T16:00:00.000Z"
HAN_RUN = re.compile(r"[\u4e00-\u9fff]+")


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return load_handbook_workspace()


@pytest.fixture(scope="module")
def questions() -> list[dict[str, Any]]:
    return load_handbook_questions()


def _pages(spec: dict[str, Any], audience: str | None = None) -> list[dict[str, Any]]:
    return [page for page in spec["pages"] if audience is None or page["type"] == audience]


def _blocks(blocks: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for block in blocks:
        yield block
        yield from _blocks(block.get("children", []))


def _texts(page: dict[str, Any]) -> Iterator[str]:
    for block in _blocks(page["blocks"]):
        if "text" in block:
            yield block["text"]
        for row in block.get("rows", []):
            yield from row


def _han_count(page: dict[str, Any]) -> int:
    return sum(len(run) for text in _texts(page) for run in HAN_RUN.findall(text))


def _headings(page: dict[str, Any]) -> set[str]:
    return {block["text"] for block in _blocks(page["blocks"]) if block["type"] in ("heading_2", "heading_3")}


# ---------------------------------------------------------------- a tiny bigram TF-IDF

def _bigrams(text: str) -> list[str]:
    """Overlapping pairs of Han characters inside each run; punctuation, digits and Latin break runs."""
    return [run[i:i + 2] for run in HAN_RUN.findall(text) for i in range(len(run) - 1)]


def _rank_pages(query: str, pages: list[dict[str, Any]], audience: str | None = None) -> list[tuple[str, float]]:
    """Pages by cosine between raw-count TF x smoothed-IDF vectors, L2-normalised; ties keep page order.

    The index is fitted on every page, as the lesson's index holds both audiences; ``audience``
    drops the other audience's pages before ranking.
    """
    docs = [Counter(_bigrams("\n".join([page["title"], *_texts(page)]))) for page in pages]
    vocabulary = {gram: i for i, gram in enumerate(sorted(set().union(*docs)))}

    def vector(counts: Counter[str]) -> np.ndarray:
        out = np.zeros(len(vocabulary))
        for gram, count in counts.items():
            if gram in vocabulary:  # bigrams no page contains carry no evidence
                out[vocabulary[gram]] = count
        return out

    tf = np.array([vector(doc) for doc in docs])
    idf = np.log((1 + len(docs)) / (1 + (tf > 0).sum(axis=0))) + 1
    weights = tf * idf
    weights /= np.linalg.norm(weights, axis=1, keepdims=True)
    query_weights = vector(Counter(_bigrams(query))) * idf
    scores = weights @ (query_weights / np.linalg.norm(query_weights))
    order = np.argsort(-scores, kind="stable")
    return [(pages[i]["key"], float(scores[i])) for i in order if audience in (None, pages[i]["type"])]


# ---------------------------------------------------------------- the workspace spec

def test_regenerating_the_workspace_writes_the_committed_bytes(tmp_path: Path) -> None:
    fresh = write_handbook_workspace(tmp_path / "handbook.json")
    assert fresh.read_bytes() == HANDBOOK_PATH.read_bytes()


def test_the_seed_moves_only_the_timestamps() -> None:
    def without_times(spec: dict[str, Any]) -> list[dict[str, Any]]:
        return [{k: v for k, v in page.items() if k not in ("created", "edited")} for page in spec["pages"]]

    default, other = build_handbook_workspace(), build_handbook_workspace(seed=7)
    assert build_handbook_workspace() == default
    assert without_times(other) == without_times(default)
    assert [p["edited"] for p in other["pages"]] != [p["edited"] for p in default["pages"]]


def test_the_knowledge_base_holds_ten_support_pages_and_one_hr_page(spec: dict[str, Any]) -> None:
    assert len(_pages(spec, "客服")) == 10
    assert [page["key"] for page in _pages(spec, "人事")] == [HR_PAGE]
    assert len({page["key"] for page in spec["pages"]}) == len(spec["pages"])


def test_every_page_is_a_publishable_row_whose_type_is_an_audience_option(spec: dict[str, Any]) -> None:
    (source,) = spec["data_sources"]
    assert source["title"] == "客服知识库"
    assert source["properties"]["受众"] == {"type": "select", "options": list(AUDIENCES)}
    assert {name: prop["type"] for name, prop in source["properties"].items()} == {
        "名称": "title", "受众": "select", "可发布": "checkbox"}
    for page in spec["pages"]:
        assert page["parent"] == {"type": "data_source", "key": source["key"]}, page["key"]
        assert page["publishable"] is True and page["type"] in AUDIENCES, page["key"]


def test_every_page_has_between_250_and_700_han_characters(spec: dict[str, Any]) -> None:
    sizes = {page["key"]: _han_count(page) for page in spec["pages"]}
    assert all(250 <= size <= 700 for size in sizes.values()), sizes


def test_every_page_has_two_to_four_level_two_sections(spec: dict[str, Any]) -> None:
    for page in spec["pages"]:
        sections = [block for block in page["blocks"] if block["type"] == "heading_2"]
        assert 2 <= len(sections) <= 4, page["key"]
        assert page["blocks"][0]["type"] == "heading_2", f"{page['key']} has text before its first section"


def test_the_support_pages_mix_paragraphs_lists_toggle_faqs_and_tables(spec: dict[str, Any]) -> None:
    kinds = Counter(block["type"] for page in _pages(spec, "客服") for block in _blocks(page["blocks"]))
    for kind in ("paragraph", "bulleted_list_item", "numbered_list_item", "toggle", "callout", "table"):
        assert kinds[kind] > 0, kind
    assert all(any(block["type"] in ("toggle", "table") for block in page["blocks"]) for page in spec["pages"])


def test_every_toggle_keeps_its_answer_in_a_child_block(spec: dict[str, Any]) -> None:
    toggles = [block for page in spec["pages"] for block in _blocks(page["blocks"]) if block["type"] == "toggle"]
    assert toggles
    for toggle in toggles:
        assert toggle["text"].endswith("？"), toggle["text"]
        assert [child["type"] for child in toggle["children"]] == ["paragraph"], toggle["text"]


def test_every_table_has_a_header_row_and_rows_of_equal_width(spec: dict[str, Any]) -> None:
    tables = [block for page in spec["pages"] for block in _blocks(page["blocks"]) if block["type"] == "table"]
    assert tables
    for table in tables:
        assert table["has_column_header"] is True and len(table["rows"]) >= 3
        assert len({len(row) for row in table["rows"]}) == 1, table["rows"][0]


def test_timestamps_are_utc_minutes_before_the_cutoff_and_edits_follow_creation(spec: dict[str, Any]) -> None:
    minute = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$")
    for record in spec["data_sources"] + spec["pages"]:
        for stamp in (record["created"], record["edited"]):
            assert minute.match(stamp) and stamp < CUTOFF, (record["key"], stamp)
            datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.000Z")  # raises on an impossible date
        assert record["created"] <= record["edited"], record["key"]
    assert all(page["created"] >= spec["data_sources"][0]["created"] for page in spec["pages"])


def test_both_assistants_are_connected_to_the_whole_knowledge_base(spec: dict[str, Any]) -> None:
    integrations = {i["key"]: i for i in spec["integrations"]}
    assert {key: i["name"] for key, i in integrations.items()} == {SUPPORT_INTEGRATION: "客服助手",
                                                                  HR_INTEGRATION: "人事助手"}
    for integration in integrations.values():
        assert integration["shares"] == [{"type": "data_source", "key": "kb"}]
        assert integration["capabilities"] == ["read_content"]


def test_authors_are_declared_users(spec: dict[str, Any]) -> None:
    users = {user["key"] for user in spec["users"]}
    for record in spec["data_sources"] + spec["pages"]:
        assert {record["created_by"], record["edited_by"]} <= users, record["key"]


# ---------------------------------------------------------------- the simulator serves it

def test_the_workspace_builds_in_the_simulator_and_both_assistants_see_every_page(spec: dict[str, Any]) -> None:
    workspace = Workspace.from_spec(spec)
    assert len(workspace.pages) == len(spec["pages"])
    for key in (SUPPORT_INTEGRATION, HR_INTEGRATION):
        integration = workspace.integration_by_key(key)
        assert all(workspace.can_see(integration, page_id) for page_id in workspace.pages), key


def test_a_data_source_query_on_the_audience_select_returns_only_that_audience(spec: dict[str, Any]) -> None:
    simulator = NotionSimulator(Workspace.from_spec(spec), seed=0)
    (ds_id,) = simulator.workspace.data_sources
    body = json.dumps({"filter": {"property": "受众", "select": {"equals": "人事"}}}).encode()
    headers = {"Authorization": f"Bearer {simulator.token_for(SUPPORT_INTEGRATION)}", "Notion-Version": "2026-03-11"}
    response = simulator.handle("POST", f"/v1/data_sources/{ds_id}/query", headers=headers, body=body)
    assert response.status == 200, response.body
    rows = response.body["results"]
    assert [row["properties"]["名称"]["title"][0]["plain_text"] for row in rows] == ["薪酬与报销政策"]
    assert rows[0]["properties"]["受众"]["select"]["name"] == "人事"


# ---------------------------------------------------------------- the labelled questions

def test_the_question_file_is_hand_formatted_json_with_two_space_indent() -> None:
    text = QUESTIONS_PATH.read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=2) + "\n"


def test_there_are_about_twenty_questions_with_unique_ids_and_two_or_three_for_hr(
        questions: list[dict[str, Any]]) -> None:
    assert 18 <= len(questions) <= 24
    assert len({q["id"] for q in questions}) == len(questions)
    assert all(set(q) == {"id", "question", "audience", "gold"} and q["gold"] for q in questions)
    audiences = Counter(q["audience"] for q in questions)
    assert set(audiences) <= set(AUDIENCES)
    assert 2 <= audiences["人事"] <= 3


def test_every_gold_page_exists_is_publishable_and_serves_the_question_audience(
        spec: dict[str, Any], questions: list[dict[str, Any]]) -> None:
    pages = {page["key"]: page for page in spec["pages"]}
    for question in questions:
        for gold in question["gold"]:
            page = pages.get(gold["page"])
            assert page is not None, (question["id"], gold["page"])
            assert page["publishable"] and page["type"] == question["audience"], question["id"]


def test_every_gold_section_is_a_heading_of_its_page(spec: dict[str, Any], questions: list[dict[str, Any]]) -> None:
    pages = {page["key"]: page for page in spec["pages"]}
    for question in questions:
        for gold in question["gold"]:
            assert gold["section"] in _headings(pages[gold["page"]]), (question["id"], gold["section"])


def test_every_support_page_answers_at_least_one_question(spec: dict[str, Any],
                                                         questions: list[dict[str, Any]]) -> None:
    answered = {gold["page"] for question in questions for gold in question["gold"]}
    assert answered == {page["key"] for page in spec["pages"]}


# ---------------------------------------------------------------- the keyword trap

def test_the_refund_approval_question_is_labelled_with_the_support_refund_page(
        questions: list[dict[str, Any]]) -> None:
    (question,) = [q for q in questions if q["question"] == REFUND_APPROVAL]
    assert question["audience"] == "客服"
    assert question["gold"] == [{"page": SUPPORT_REFUND_PAGE, "section": "办理步骤"}]


def test_the_refund_page_avoids_the_approval_words_the_hr_page_repeats(spec: dict[str, Any]) -> None:
    pages = {page["key"]: "".join(_texts(page)) for page in spec["pages"]}
    for word in ("审批", "批准"):
        assert word not in pages[SUPPORT_REFUND_PAGE]
        assert pages[HR_PAGE].count(word) >= 5, word


def test_without_an_audience_filter_the_refund_approval_question_is_closest_to_the_hr_page(
        spec: dict[str, Any]) -> None:
    ranking = _rank_pages(REFUND_APPROVAL, _pages(spec))
    assert ranking[0][0] == HR_PAGE
    assert ranking[0][1] > 2 * ranking[1][1], ranking[:3]  # not a near tie that a small edit could flip


def test_with_the_support_filter_the_refund_approval_question_is_closest_to_its_gold_page(
        spec: dict[str, Any]) -> None:
    ranking = _rank_pages(REFUND_APPROVAL, _pages(spec), audience="客服")
    assert ranking[0][0] == SUPPORT_REFUND_PAGE, ranking[:3]
