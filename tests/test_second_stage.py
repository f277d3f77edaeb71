"""Paid rungs: Voyage AI's reranker client, reranking and rewriting around any retriever, and ladder steps gated by keys."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from lab.clock import SimulatedClock
from lab.exercises.runs import read_pages
from lab.retrieval import (BM25Retriever, MissingKeyError, Recipe, Reranked, Rewritten, SearchCorpus, Step,
                           bakery_questions, claude_rewriter, climb)
from lab.services import (VOYAGE_RERANK_PRICES, ModelAnswer, RerankError, RerankPrice, RerankReplyError, Skipped,
                          VoyageReranker, read_scores, rerank_tokens)
from lab.simulator import bakery_workspace
from tests.fake_transport import ScriptedSession, answer
from tests.leaks import shown

KEY = "pa-test-voyage-key-0123456789SECRET"

CORPUS = SearchCorpus(
    ids=("a", "b", "c", "d"), page_ids=("p1", "p1", "p2", "p3"), titles=("Pan", "Pan", "Horario", "Envíos"),
    sections=(None, "Alérgenos", None, None),
    texts=("pan de trigo con nuez", "el pan lleva nuez y trigo", "abrimos los domingos", "envío a domicilio"),
    audiences=(None, None, None, None))


class PrefersWord:
    """A reranker that scores a passage by whether it contains ``word``, and counts its calls."""

    name = "prefers-word"

    def __init__(self, word: str) -> None:
        self.word = word
        self.calls: list[tuple[str, list[str]]] = []

    def scores(self, query: str, documents: Sequence[str]) -> list[float]:
        self.calls.append((query, list(documents)))
        return [1.0 if self.word in document else 0.1 for document in documents]


def test_the_reranker_posts_the_question_and_passages_and_reads_scores_back_in_order() -> None:
    reply = {"object": "list", "data": [{"index": 1, "relevance_score": 0.9}, {"index": 0, "relevance_score": 0.2}],
             "model": "rerank-2.5", "usage": {"total_tokens": 42}}
    session = ScriptedSession(answer(200, reply))
    reranker = VoyageReranker(KEY, session=session, clock=SimulatedClock())
    assert reranker.scores("¿lleva nuez?", ["pan de trigo", "lleva nuez"]) == [0.2, 0.9]
    [sent] = session.sent
    assert sent["json"] == {"query": "¿lleva nuez?", "documents": ["pan de trigo", "lleva nuez"],
                            "model": "rerank-2.5", "truncation": True}
    assert sent["headers"]["Authorization"] == f"Bearer {KEY}"
    assert reranker.tokens_ == 42 and KEY not in repr(reranker)
    assert reranker.scores("q", []) == [] and len(session.sent) == 1


def test_the_reranker_retries_then_fails_without_showing_its_key() -> None:
    busy = answer(503, {"detail": f"overloaded for {KEY}"})
    reranker = VoyageReranker(KEY, session=ScriptedSession(busy, busy, busy, busy, busy), clock=SimulatedClock())
    with pytest.raises(RerankError, match="answered 503") as raised:
        reranker.scores("q", ["x"])
    assert KEY not in shown(raised.value)
    partial = answer(200, {"data": [{"index": 0, "relevance_score": 0.5}]})
    with pytest.raises(RerankError, match="scored 1 of 2"):
        VoyageReranker(KEY, session=ScriptedSession(partial), clock=SimulatedClock()).scores("q", ["x", "y"])
    with pytest.raises(RerankError, match="VOYAGE_API_KEY is not set"):
        VoyageReranker("")


@pytest.mark.parametrize("data, problem", [
    ([{"index": 0, "relevance_score": 0.9}, {"index": 2, "relevance_score": 0.5}], "index 2, out of range: 2 passages"),
    ([{"index": -1, "relevance_score": 0.9}, {"index": 0, "relevance_score": 0.5}], "index -1, out of range"),
    ([{"index": 1, "relevance_score": 0.9}, {"index": 1, "relevance_score": 0.5}], "index 1 twice"),
    ([{"index": 1, "relevance_score": 0.9}], "scored 1 of 2 passages: no score for index 0"),
    ([{"index": "1", "relevance_score": 0.9}, {"index": 0, "relevance_score": 0.5}], "item 1 .* whole-number 'index'"),
    ([{"index": True, "relevance_score": 0.9}, {"index": 0, "relevance_score": 0.5}], "no whole-number 'index'"),
    ([{"index": 1}, {"index": 0, "relevance_score": 0.5}], "item 1 .* no finite 'relevance_score'"),
    ([{"index": 1, "relevance_score": float("nan")}, {"index": 0, "relevance_score": 0.5}], "no finite"),
    (None, "no 'data' list"),
])
def test_a_rerank_reply_that_does_not_score_each_passage_once_raises_naming_the_problem(data, problem: str) -> None:
    reply = {"object": "list", "model": "rerank-2.5", **({} if data is None else {"data": data})}
    reranker = VoyageReranker(KEY, session=ScriptedSession(answer(200, reply)), clock=SimulatedClock())
    with pytest.raises(RerankReplyError, match=problem):
        reranker.scores("¿lleva nuez?", ["pan de trigo", "lleva nuez"])
    assert reranker.tokens_ == 0  # a reply that cannot be read is not counted as read
    assert issubclass(RerankReplyError, RerankError)


def test_read_scores_puts_a_reply_listed_best_first_back_in_the_order_sent() -> None:
    data = [{"index": 2, "relevance_score": 0.8}, {"index": 0, "relevance_score": 0.5},
            {"index": 1, "relevance_score": 0.1}]
    assert read_scores({"data": data}, 3) == [0.5, 0.1, 0.8]
    assert read_scores({"data": []}, 0) == []


def test_a_rerank_request_is_billed_for_the_query_beside_each_passage_at_its_model_s_price() -> None:
    assert rerank_tokens(13, [200, 100, 50]) == 13 * 3 + 350
    assert rerank_tokens(5, []) == 0
    with pytest.raises(ValueError, match="whole numbers >= 0"):
        rerank_tokens(-1, [3])
    price = VOYAGE_RERANK_PRICES["rerank-2.5"]
    assert price.cost(1_000_000) == pytest.approx(0.05)
    assert VOYAGE_RERANK_PRICES["rerank-2.5-lite"].cost(1_000_000) == pytest.approx(0.02)
    with pytest.raises(ValueError, match="names its model"):
        RerankPrice("", 0.05)
    with pytest.raises(ValueError, match="usd_per_million"):
        RerankPrice("rerank-2.5", float("inf"))


class FirstStage(BM25Retriever):
    """BM25 that records how many hits each search asked it for."""

    def search(self, query: str, k: int = 10, audience: str | None = None, min_score: float | None = None,
               where=None):
        self.asked = k
        return super().search(query, k, audience=audience, min_score=min_score, where=where)


def test_reranked_sends_only_its_depth_and_keeps_the_first_stage_s_next_hits_below_unread() -> None:
    reranker = PrefersWord("lleva")
    first = FirstStage()
    search = Reranked(first, reranker, depth=2).fit(CORPUS)
    plain = BM25Retriever().fit(CORPUS).search("pan nuez trigo domingos", k=4)
    hits = search.search("pan nuez trigo domingos", k=4)
    assert [hit.id for hit in plain] == ["a", "b", "c"]
    assert first.asked == 4 and len(reranker.calls[0][1]) == 2  # asked for 4, only the best 2 were sent
    assert [hit.id for hit in hits] == ["b", "a", "c"]  # the 2 reordered, then the rest as the first stage had it
    assert [hit.score for hit in hits] == [1.0, 0.1, plain[2].score]
    assert [hit.id for hit in search.search("pan nuez trigo domingos", k=4, min_score=0.05)] == ["b", "a"]


def test_reranked_reorders_the_first_stage_s_best_and_asks_once_per_question() -> None:
    reranker = PrefersWord("lleva")
    search = Reranked(BM25Retriever(), reranker, depth=3).fit(CORPUS)
    hits = search.search("pan nuez trigo", k=2)
    assert [hit.id for hit in hits] == ["b", "a"]
    assert [hit.score for hit in hits] == [1.0, 0.1]
    search.search("pan nuez trigo", k=1)
    assert len(reranker.calls) == 1  # the same question and passages: scored once
    assert search.search("pan nuez trigo", k=2, min_score=0.5)[0].id == "b"
    assert len(search.search("pan nuez trigo", k=2, min_score=0.5)) == 1
    assert search.search("zzz", k=2) == []


def test_rewritten_searches_with_the_rewrite_and_falls_back_on_an_empty_one() -> None:
    asked: list[str] = []

    def rewrite(question: str) -> str:
        asked.append(question)
        return {"¿abren el domingo?": "abrimos los domingos"}.get(question, "  ")

    search = Rewritten(BM25Retriever(), rewrite).fit(CORPUS)
    assert search.search("¿abren el domingo?", k=1)[0].id == "c"
    assert search.search("¿abren el domingo?", k=1)[0].id == "c"
    assert search.search("nuez", k=1)[0].id in {"a", "b"}  # empty rewrite: the question as asked
    assert asked == ["¿abren el domingo?", "nuez"]
    assert search.rewrites_ == {"¿abren el domingo?": "abrimos los domingos", "nuez": "nuez"}


def test_claude_rewriter_is_skipped_without_a_key_and_asks_the_model_with_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert isinstance(claude_rewriter(), Skipped)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    sent = []

    def fake_call(prompt, **options):
        sent.append((prompt.system, prompt.text, options["model"]))
        return ModelAnswer("horario de apertura los domingos", "m", 10, 5, "end_turn")

    rewrite = claude_rewriter(model="claude-test", call=fake_call)
    assert rewrite("¿y los domingos?") == "horario de apertura los domingos"
    assert sent[0][1:] == ("¿y los domingos?", "claude-test") and "search query" in sent[0][0]


def test_a_ladder_step_that_needs_a_missing_key_is_shown_as_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LAB_TEST_RERANK_KEY", raising=False)
    pages, questions = read_pages(10), bakery_questions(bakery_workspace().page_id)[:12]
    steps = [Step("a reranker", {"rerank": PrefersWord("nuez")}, requires=("LAB_TEST_RERANK_KEY",)),
             Step("the breadcrumb left out of the indexed text", {"breadcrumb": False})]
    ladder = climb(Recipe(), steps, pages, questions)
    table = ladder.table.set_index("step")
    assert table.loc["a reranker", "skipped"] == "needs LAB_TEST_RERANK_KEY"
    assert not table.loc["a reranker", "kept"] and table.loc["a reranker"].isna()["recall@8"]
    assert table.loc["the breadcrumb left out of the indexed text", "skipped"] == ""
    assert "a reranker" not in ladder.per_question
    monkeypatch.setenv("LAB_TEST_RERANK_KEY", "set")
    measured = climb(Recipe(), steps[:1], pages, questions).table.set_index("step")
    assert measured.loc["a reranker", "skipped"] == "" and measured["recall@8"].notna().all()


def test_a_ladder_without_gated_steps_keeps_its_columns() -> None:
    ladder = climb(Recipe(), [Step("headings twice", {"heading_weight": 2})], read_pages(10), bakery_questions(bakery_workspace().page_id)[:5])
    assert "skipped" not in ladder.table.columns


def test_a_recipe_naming_a_paid_model_without_its_key_says_which_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOYAGE_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(MissingKeyError, match="VOYAGE_API_KEY"):
        Recipe(rerank="voyage").retriever()
    with pytest.raises(MissingKeyError, match="ANTHROPIC_API_KEY"):
        Recipe(rewrite="claude").retriever()
    with pytest.raises(ValueError, match="names no model"):
        Recipe(rerank="cohere").retriever()


def test_leaving_the_breadcrumb_out_removes_the_title_line_from_the_indexed_texts() -> None:
    pages = read_pages(10)
    with_crumb, without = Recipe().corpus(pages), Recipe(breadcrumb=False).corpus(pages)
    assert with_crumb.ids == without.ids
    first = with_crumb.texts[0]
    assert first.startswith(with_crumb.titles[0]) and not without.texts[0].startswith(with_crumb.titles[0] + " >")
    assert first.endswith(without.texts[0])
