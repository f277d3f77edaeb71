"""Replies played back to the paid rungs: the file lesson 10 plays drives the same client code as a live
call (the request each client builds, the reply it reads), its errors end in the clients' typed errors,
and a file of replies is checked before it is trusted."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest

from lab.clock import SimulatedClock
from lab.course.lesson10 import PLAYBACK
from lab.retrieval import REWRITE_SYSTEM, BM25Retriever, Rewritten, claude_rewriter
from lab.services import (DEFAULT_MODEL, VOYAGE_RERANK_URL, ModelCallError, RecordingError, RecordingMismatch,
                          RerankError, VoyageReranker, call_model, read_replies)
from tests.leaks import shown
from tests.test_second_stage import CORPUS

ENV = "LAB_TEST_PLAYED_BACK_KEY"
KEY = "pa-played-back-0123456789SECRET"


@pytest.fixture(scope="module")
def played():
    return read_replies(PLAYBACK)


def _passages(played) -> list[str]:
    """As many stand-in passages as the recorded rerank reply scores (the client never reads their text back)."""
    return [f"passage {i}" for i in range(len(played.reply("rerank").answers["passages"]))]


def test_the_lesson_s_file_says_its_replies_were_written_for_it_and_measure_nothing(played) -> None:
    assert "written for lesson 10" in played.note and "measure nothing" in played.note
    assert set(played.replies) == {"rerank", "rerank_rate_limited", "rerank_server_error", "rewrite",
                                   "rewrite_server_error"}
    rerank = played.reply("rerank")
    assert rerank.status == 200 and set(rerank.body) == {"object", "data", "model", "usage"}  # Voyage's shape
    assert rerank.body["object"] == "list" and rerank.body["model"] == "rerank-2.5"
    listed = [item["relevance_score"] for item in rerank.body["data"]]
    assert listed == sorted(listed, reverse=True)  # best first, as the API lists them
    assert played.reply("rewrite").body["type"] == "message"


def test_the_recorded_rerank_reply_is_read_by_the_client_that_reads_a_live_one(played) -> None:
    session = played.session("rerank")
    reranker = VoyageReranker(KEY, session=session, clock=SimulatedClock())
    passages = _passages(played)
    scores = reranker.scores("¿Cuánto tiempo tengo?", passages)
    [sent] = session.sent
    assert sent["url"] == VOYAGE_RERANK_URL and KEY not in repr(session.sent)  # headers are not kept
    body = sent["json"]
    assert body["model"] == "rerank-2.5" and body["query"] == "¿Cuánto tiempo tengo?"
    assert len(body["documents"]) == len(passages) == 30 and "top_k" not in body and body["truncation"] is True
    reply = {item["index"]: item["relevance_score"] for item in played.reply("rerank").body["data"]}
    assert scores == [reply[i] for i in range(30)]
    assert reranker.tokens_ == played.reply("rerank").body["usage"]["total_tokens"]


def test_the_recorded_rewrite_is_read_by_call_model_and_searched_as_the_rung_searches_it(played,
                                                                                        monkeypatch) -> None:
    monkeypatch.setenv(ENV, KEY)
    session = played.session("rewrite")
    rewrite = claude_rewriter(api_key_env=ENV, call=partial(call_model, session=session, clock=SimulatedClock()))
    search = Rewritten(BM25Retriever(), rewrite).fit(CORPUS)
    search.search(played.reply("rewrite").answers["question"], k=2)
    [sent] = session.sent
    assert sent["url"].endswith("/v1/messages")
    assert sent["json"] == {"model": DEFAULT_MODEL, "max_tokens": 200, "system": REWRITE_SYSTEM,
                            "messages": [{"role": "user", "content": played.reply("rewrite").answers["question"]}]}
    written = played.reply("rewrite").body["content"][0]["text"]
    assert list(search.rewrites_.values()) == [written]


def test_a_429_is_waited_out_and_a_500_on_every_attempt_raises_rerank_error(played) -> None:
    clock = SimulatedClock()
    session = played.session("rerank_rate_limited", "rerank")
    assert len(VoyageReranker(KEY, session=session, clock=clock).scores("q", _passages(played))) == 30
    assert len(session.sent) == 2 and clock.now() > 0  # waited on the simulated clock, then sent again
    session = played.session(*["rerank_server_error"] * 5)
    with pytest.raises(RerankError, match="answered 500 after 5 attempt") as raised:
        VoyageReranker(KEY, session=session, clock=SimulatedClock()).scores("q", _passages(played))
    assert KEY not in shown(raised.value)


def test_a_messages_500_is_not_sent_again_and_raises_model_call_error(played, monkeypatch) -> None:
    monkeypatch.setenv(ENV, KEY)
    session = played.session("rewrite_server_error")
    rewrite = claude_rewriter(api_key_env=ENV, call=partial(call_model, session=session, clock=SimulatedClock()))
    with pytest.raises(ModelCallError, match="answered 500 api_error") as raised:
        rewrite("¿y los domingos?")
    assert raised.value.status_code == 500 and len(session.sent) == 1  # the model may have written: not resent
    assert KEY not in shown(raised.value)


def test_check_refuses_a_reply_written_for_another_request_naming_the_first_difference(played) -> None:
    passages = list(played.reply("rerank").answers["passages"])
    query = played.reply("rerank").answers["query"]
    played.check("rerank", query=query, passages=passages)
    with pytest.raises(RecordingMismatch, match="item 2 is .* there and 'Otra > Sección' here"):
        played.check("rerank", passages=[passages[0], "Otra > Sección", *passages[2:]])
    with pytest.raises(RecordingMismatch, match="30 recorded, 29 sent"):
        played.check("rerank", passages=passages[:-1])
    with pytest.raises(RecordingMismatch, match="answers the query"):
        played.check("rerank", query="¿otra pregunta?")
    with pytest.raises(RecordingMismatch, match="does not say which passages"):
        played.check("rewrite", passages=passages)
    with pytest.raises(KeyError, match="no reply called 'embed'"):
        played.session("embed")


@pytest.mark.parametrize("content, problem", [
    ({"replies": {"a": {"status": 200, "body": {}}}}, "no 'note'"),
    ({"note": "written", "replies": {}}, "no 'replies'"),
    ({"note": "written", "replies": {"a": {"status": 700, "body": {}}}}, "reply 'a' has no HTTP 'status'"),
    ({"note": "written", "replies": {"a": {"status": True, "body": {}}}}, "reply 'a' has no HTTP 'status'"),
    ({"note": "written", "replies": {"a": {"status": 200}}}, "reply 'a' has no 'body'"),
    ({"note": "written", "replies": {"a": {"status": 200, "body": {}, "answers": []}}}, "not an object"),
])
def test_a_file_of_replies_is_refused_naming_what_it_lacks(content: dict, problem: str, tmp_path: Path) -> None:
    path = tmp_path / "replies.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    with pytest.raises(RecordingError, match=problem):
        read_replies(path)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordingError, match="replies.json is not valid JSON"):
        read_replies(path)
