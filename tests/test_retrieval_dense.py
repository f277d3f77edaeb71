"""A dense embedder as a retriever and as a rung of the ladder: what it is sent, what it ranks, what it refuses."""

from __future__ import annotations

import numpy as np
import pytest

from lab.chunking import InputTooLongError
from lab.embedders.lsa import LsaEmbedder
from lab.index import ModelMismatchError
from lab.retrieval import (RRF, EmbeddingRetriever, LsaRetriever, Recipe, SearchCorpus, Step, climb,
                           reciprocal_rank_fusion)
from lab.services.voyage import VoyageEmbedder
from lab.vectors import WordAnalyzer
from tests.leaks import leaks, shown
from tests.test_embeddings import KEY, FakeVoyage, fake_url  # noqa: F401 (the fixture)
from tests.test_retrieval_tuning import CORPUS, _pages_and_questions

ENGLISH = WordAnalyzer(stop_words="en")


class CountingEmbedder:
    """An embedder that records every text it is sent: documents by a letter count, queries alike."""

    name = "letters-26"
    max_input_tokens = None

    def __init__(self) -> None:
        self.documents: list[str] = []
        self.queries: list[str] = []

    @staticmethod
    def _vector(text: str) -> np.ndarray:
        counts = np.zeros(26, dtype=np.float32)
        for char in text.lower():
            if "a" <= char <= "z":
                counts[ord(char) - 97] += 1
        return counts

    def embed_documents(self, texts):
        self.documents += texts
        return type("Result", (), {"vectors": np.stack([self._vector(t) for t in texts]), "tokens": len(texts)})()

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return self._vector(text) * 3  # any length: the retriever makes it a unit vector


def test_an_embedding_retriever_ranks_by_the_cosine_of_the_embedders_vectors() -> None:
    embedder = CountingEmbedder()
    hits = EmbeddingRetriever(embedder).fit(CORPUS).search("cacahuate", k=3)
    rows = np.stack([embedder._vector(t) for t in CORPUS.texts])
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    query = embedder._vector("cacahuate") / np.linalg.norm(embedder._vector("cacahuate"))
    expected = np.argsort(-(rows @ query), kind="stable")
    assert [h.id for h in hits] == [CORPUS.ids[i] for i in expected]
    assert [h.score for h in hits] == pytest.approx(sorted(rows @ query, reverse=True), abs=1e-6)


def test_the_chunks_are_embedded_once_at_fit_and_each_distinct_query_once() -> None:
    embedder = CountingEmbedder()
    retriever = EmbeddingRetriever(embedder).fit(CORPUS)
    for _ in range(3):
        retriever.search_many(["cacahuate", "mayo", "cacahuate"], k=2)
    assert embedder.documents == list(CORPUS.texts)
    assert embedder.queries == ["cacahuate", "mayo"]


def test_an_offline_lsa_embedder_ranks_like_the_lsa_retriever_fitted_on_the_same_texts() -> None:
    corpus = SearchCorpus.from_chunks([{"id": f"c{i}", "page_id": f"p{i}", "title": "T", "section": None, "text": t}
                                       for i, t in enumerate(["refunds take ten days", "delivery inside the ring",
                                                              "refunds need approval", "the shop opens at nine",
                                                              "approval of every refund"])])
    embedded = EmbeddingRetriever(LsaEmbedder(3, analyzer=ENGLISH).fit(corpus.texts)).fit(corpus)
    lsa = LsaRetriever(3, analyzer=ENGLISH).fit(corpus)
    assert [h.id for h in embedded.search("refund approval", k=5)] == [h.id for h in lsa.search("refund approval", k=5)]


def test_an_embedder_that_returns_too_few_vectors_is_a_model_mismatch() -> None:
    class Short(CountingEmbedder):
        def embed_documents(self, texts):
            return super().embed_documents(texts[:-1])

    with pytest.raises(ModelMismatchError, match="returned 2 vectors for 3 chunk texts"):
        EmbeddingRetriever(Short()).fit(CORPUS)


def test_a_chunk_longer_than_the_model_reads_is_refused_before_any_call() -> None:
    embedder = CountingEmbedder()
    embedder.max_input_tokens = 5
    with pytest.raises(InputTooLongError):
        EmbeddingRetriever(embedder).fit(CORPUS)
    assert embedder.documents == []


def test_a_recipe_with_a_dense_model_fuses_its_ranking_with_the_keyword_list() -> None:
    embedder = CountingEmbedder()
    fused = Recipe(dense=embedder).retriever().fit(CORPUS)
    assert isinstance(fused, RRF)
    keyword = Recipe().retriever().fit(CORPUS).search("cacahuate trigo", k=3)
    dense = EmbeddingRetriever(CountingEmbedder()).fit(CORPUS).search("cacahuate trigo", k=3)
    expected = reciprocal_rank_fusion([[h.id for h in keyword], [h.id for h in dense]])
    assert [h.id for h in fused.search("cacahuate trigo", k=3)] == [chunk_id for chunk_id, _ in expected]


def test_a_dense_rung_measures_the_recipe_reached_against_itself_fused_with_the_model() -> None:
    pages, questions = _pages_and_questions()
    ladder = climb(Recipe(), [Step("unchanged", {})], pages, questions)
    table = climb(ladder.recipe, [Step("fused with letters-26 by RRF", {"dense": CountingEmbedder()})], pages,
                  questions).table
    assert list(table["step"]) == ["start", "fused with letters-26 by RRF"]
    assert {"gain MRR", "low MRR", "high MRR", "95% CI MRR"} <= set(table.columns)


def test_voyage_vectors_rank_the_corpus_and_the_key_stays_out_of_every_repr_and_error(fake_url) -> None:
    embedder = VoyageEmbedder(KEY, model="voyage-4", dimension=8, url=fake_url)
    retriever = EmbeddingRetriever(embedder).fit(CORPUS)
    assert len(retriever.search("cacahuate", k=3)) == 3
    kinds = [call["body"]["input_type"] for call in FakeVoyage.calls]
    assert kinds == ["document", "query"]
    assert not leaks(KEY, shown(retriever, Recipe(dense=embedder)))

