"""The Voyage AI client against a fake server on loopback and a scripted transport: batches, input types, retries."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest
import requests

from lab.clock import SimulatedClock
from lab.retry import RetryPolicy
from lab.services.voyage import EmbeddingError, VoyageEmbedder, missing_key_message, voyage_from_env
from tests.fake_transport import ScriptedSession, answer, policy_waits
from tests.leaks import leaks, shown

KEY = "pa-test-secret-key-123"


class FakeVoyage(BaseHTTPRequestHandler):
    calls: list[dict] = []
    fail_first_with_429 = False

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        FakeVoyage.calls.append({"body": body, "auth": self.headers.get("Authorization")})
        if self.headers.get("Authorization") != f"Bearer {KEY}":
            return self._send(401, {"detail": f"bad key {self.headers.get('Authorization')}"})
        if FakeVoyage.fail_first_with_429 and len(FakeVoyage.calls) == 1:
            return self._send(429, {"detail": "slow down"}, {"Retry-After": "3"})
        dim = body.get("output_dimension", 8)
        data = [{"object": "embedding", "index": i,
                 "embedding": (np.ones(dim) * (len(text) + (0.5 if body["input_type"] == "query" else 0))).tolist()}
                for i, text in enumerate(body["input"])]
        self._send(200, {"object": "list", "data": list(reversed(data)), "model": body["model"],
                         "usage": {"total_tokens": 10 * len(body["input"])}})

    def _send(self, status: int, payload: dict, headers: dict | None = None) -> None:
        raw = json.dumps(payload).encode()
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def fake_url():
    FakeVoyage.calls = []
    FakeVoyage.fail_first_with_429 = False
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeVoyage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1/embeddings"
    server.shutdown()
    server.server_close()


def test_texts_go_in_batches_of_128_and_come_back_in_input_order(fake_url) -> None:
    embedder = VoyageEmbedder(KEY, dimension=4, url=fake_url)
    texts = [f"t{'x' * i}" for i in range(300)]
    result = embedder.embed_documents(texts)
    assert [len(c["body"]["input"]) for c in FakeVoyage.calls] == [128, 128, 44]
    assert all(c["body"]["input_type"] == "document" and c["body"]["model"] == "voyage-4" for c in FakeVoyage.calls)
    assert result.vectors.shape == (300, 4) and result.vectors.dtype == np.float32
    assert [row[0] for row in result.vectors[:3]] == [1.0, 2.0, 3.0]
    assert result.tokens == 3000 and result.requests == 3


def test_queries_use_the_query_input_type_and_the_output_dimension(fake_url) -> None:
    embedder = VoyageEmbedder(KEY, model="voyage-4-lite", dimension=256, url=fake_url)
    vector = embedder.embed_query("¿lleva nuez?")
    body = FakeVoyage.calls[0]["body"]
    assert body["input_type"] == "query" and body["output_dimension"] == 256 and body["model"] == "voyage-4-lite"
    assert vector.shape == (256,) and embedder.name == "voyage-4-lite-256"


def test_a_429_waits_its_retry_after_then_succeeds(fake_url) -> None:
    FakeVoyage.fail_first_with_429 = True
    clock = SimulatedClock()
    result = VoyageEmbedder(KEY, dimension=2, url=fake_url, clock=clock).embed_documents(["a", "b"])
    assert clock.now() == 3.0 and result.requests == 2 and result.vectors.shape == (2, 2)


def test_the_key_never_appears_in_reprs_or_errors(fake_url) -> None:
    embedder = VoyageEmbedder(KEY, url=fake_url)
    assert KEY not in repr(embedder)
    wrong = VoyageEmbedder("pa-wrong-key", url=fake_url)
    with pytest.raises(EmbeddingError) as caught:
        wrong.embed_documents(["x"])
    assert "401" in str(caught.value) and "pa-wrong-key" not in str(caught.value)


def test_without_a_key_nothing_is_called(monkeypatch) -> None:
    monkeypatch.delenv("VOYAGE_API_KEY", raising=False)
    assert voyage_from_env() is None
    assert missing_key_message() == ("VOYAGE_API_KEY is not set: Voyage AI is not called; the offline TF-IDF and "
                                     "LSA vectors stand in.")
    with pytest.raises(EmbeddingError, match="not set"):
        VoyageEmbedder("")
    with pytest.raises(ValueError, match="input_type"):
        VoyageEmbedder(KEY).embed(["x"], "passage")


def _embeddings(*texts: str) -> requests.Response:
    return answer(200, {"object": "list", "data": [{"object": "embedding", "index": i, "embedding": [1.0, 0.0]}
                                                    for i, _ in enumerate(texts)],
                        "usage": {"total_tokens": 4}})


def test_every_wait_is_the_retry_policys_decision() -> None:
    script = [answer(503, {"detail": "unavailable"}), answer(429, {"detail": "slow down"}, {"Retry-After": "3"}),
              requests.ConnectionError("connection reset"), answer(429, {"detail": "again"}), _embeddings("a")]
    policy = RetryPolicy(max_attempts=5, seed=11)
    clock = SimulatedClock()
    embedder = VoyageEmbedder(KEY, dimension=2, session=ScriptedSession(*script), clock=clock, retry=policy)
    result = embedder.embed_documents(["a"])
    assert result.requests == 5 and result.vectors.shape == (1, 2)
    assert clock.now() == pytest.approx(sum(policy_waits(policy, script, idempotent=True)))


def test_when_the_policy_gives_up_the_error_says_what_came_back() -> None:
    unavailable = answer(503, {"detail": "unavailable"})
    embedder = VoyageEmbedder(KEY, session=ScriptedSession(unavailable, unavailable), clock=SimulatedClock(),
                              retry=RetryPolicy(max_attempts=2))
    with pytest.raises(EmbeddingError, match="answered 503 after 2 attempt"):
        embedder.embed_documents(["a"])
    refused = VoyageEmbedder(KEY, session=ScriptedSession(answer(400, {"detail": "too long"})), clock=SimulatedClock())
    with pytest.raises(EmbeddingError, match="answered 400 after 1 attempt"):
        refused.embed_documents(["a"])


def test_the_key_never_appears_in_the_embedders_errors_or_repr() -> None:
    echoed = answer(401, {"detail": f"invalid key {KEY}"})
    embedder = VoyageEmbedder(KEY, session=ScriptedSession(echoed), clock=SimulatedClock())
    with pytest.raises(EmbeddingError) as caught:
        embedder.embed_documents(["a"])
    assert "[redacted]" in str(caught.value)
    assert leaks(KEY, shown(embedder, caught.value)) == []


def test_a_key_with_a_line_break_is_refused_without_being_shown() -> None:
    key = "pa-first-line-of-it\nsecond-line-of-it"
    with pytest.raises(ValueError, match="the Voyage AI key contains a line break") as caught:
        VoyageEmbedder(key, session=ScriptedSession())
    assert leaks(key, shown(caught.value)) == []


def test_a_batch_closes_before_its_texts_could_pass_the_family_s_token_limit(fake_url) -> None:
    from lab.services import VOYAGE_REQUEST_TOKENS

    assert VOYAGE_REQUEST_TOKENS["voyage-4"] == 320_000
    long_text = "pan " * 25_000  # 100,000 bytes: at most 100,000 tokens
    embedder = VoyageEmbedder(KEY, dimension=4, url=fake_url, batch_size=1_000)
    embedder.embed_documents([long_text] * 7 + ["corto"])
    assert [len(c["body"]["input"]) for c in FakeVoyage.calls] == [3, 3, 2]
    FakeVoyage.calls.clear()
    # a model without a published request limit is batched by count only
    VoyageEmbedder(KEY, model="voyage-3.5", dimension=4, url=fake_url, batch_size=1_000).embed_documents([long_text] * 7)
    assert [len(c["body"]["input"]) for c in FakeVoyage.calls] == [7]


def test_request_batches_respect_both_limits_and_cover_every_text_once() -> None:
    from lab.services import request_batches

    texts = ["a" * size for size in (5, 5, 5, 20, 1, 1, 1, 1)]
    batches = request_batches(texts, max_texts=3, max_tokens=12)
    assert batches == [(0, 2), (2, 3), (3, 4), (4, 7), (7, 8)]
    assert [i for start, end in batches for i in range(start, end)] == list(range(len(texts)))
    assert request_batches([], 5, 10) == []
    assert request_batches(["年" * 4], 5, 10) == [(0, 1)]  # 12 bytes, alone in its batch
    with pytest.raises(ValueError, match="max_texts"):
        request_batches(texts, 0, None)
    with pytest.raises(ValueError, match="batch_size must be from 1 to 1000"):
        VoyageEmbedder(KEY, batch_size=1_001, session=ScriptedSession())


def test_models_of_one_family_share_a_vector_space_and_other_families_mean_re_embedding() -> None:
    from lab.services import same_vector_space, voyage_family

    assert voyage_family("voyage-4-lite") == voyage_family("voyage-4-large") == "voyage-4"
    assert same_vector_space("voyage-4-large", "voyage-4-lite")
    assert not same_vector_space("voyage-3.5", "voyage-4")
    assert voyage_family("voyage-code-3") == "voyage-code-3"


def test_embedding_prices_name_the_model_and_the_batch_api_takes_a_third_off() -> None:
    from lab.services import VOYAGE_PRICES, EmbeddingPrice

    assert {model: price.usd_per_million for model, price in VOYAGE_PRICES.items()} == {
        "voyage-4-large": 0.12, "voyage-4": 0.06, "voyage-4-lite": 0.02}
    price = VOYAGE_PRICES["voyage-4"]
    assert price.cost(1_000_000) == pytest.approx(0.06)
    assert price.cost(1_000_000, batch=True) == pytest.approx(0.06 * 0.67)
    with pytest.raises(ValueError, match="names its model"):
        EmbeddingPrice("", 0.06)
    with pytest.raises(ValueError, match="batch_discount"):
        EmbeddingPrice("m", 0.06, batch_discount=1.0)
    with pytest.raises(ValueError, match="tokens must be >= 0"):
        price.cost(-1)
