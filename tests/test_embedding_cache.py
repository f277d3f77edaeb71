"""Vectors kept by model and text: the model is called only for texts the cache lacks."""

from __future__ import annotations

import numpy as np
import pytest

from lab.embedders import (MISSES_ENV, CachedEmbedder, EmbeddedTexts, EmbeddingCache, EmbeddingCacheMiss,
                           EmbeddingError, text_key)


class CountingModel:
    """A model that says how often it was asked, and for what."""

    name = "counting-4"

    def __init__(self) -> None:
        self.documents: list[str] = []
        self.queries: list[str] = []

    def embed_documents(self, texts):
        self.documents += texts
        return EmbeddedTexts(model=self.name, vectors=np.array([_vector(t) for t in texts], dtype=np.float32),
                             texts=len(texts), tokens=0, batches=1)

    def embed_query(self, text):
        self.queries.append(text)
        return _vector("q:" + text)


def _vector(text: str) -> np.ndarray:
    return np.random.default_rng(sum(map(ord, text))).standard_normal(4).astype(np.float32)


@pytest.fixture()
def model() -> CountingModel:
    return CountingModel()


def _embedder(model: CountingModel, cache: EmbeddingCache) -> CachedEmbedder:
    return CachedEmbedder(model.name, lambda: model, cache)


def test_a_text_is_embedded_once_and_then_answered_from_the_cache(model) -> None:
    embedder = _embedder(model, EmbeddingCache())
    first = embedder.embed_documents(["uno", "dos", "uno"]).vectors
    again = embedder.embed_documents(["dos", "uno", "tres"]).vectors
    assert model.documents == ["uno", "dos", "tres"] and embedder.misses_ == 3
    assert np.array_equal(first[0], again[1]) and np.array_equal(first[0], first[2])
    assert np.array_equal(first[1], _vector("dos"))


def test_queries_and_passages_of_one_text_are_kept_apart(model) -> None:
    embedder = _embedder(model, EmbeddingCache())
    passage = embedder.embed_documents(["horario"]).vectors[0]
    query = embedder.embed_query("horario")
    assert not np.array_equal(passage, query) and model.queries == ["horario"]
    assert np.array_equal(embedder.embed_query("horario"), query) and model.queries == ["horario"]


def test_the_model_is_not_loaded_while_every_text_is_kept(model) -> None:
    cache = EmbeddingCache()
    cache.put(text_key(model.name, "passage", "uno"), _vector("uno"))

    def refuse():
        raise AssertionError("the model was loaded")

    embedder = CachedEmbedder(model.name, refuse, cache)
    assert np.array_equal(embedder.embed_documents(["uno"]).vectors[0], _vector("uno")) and embedder.misses_ == 0


def test_a_saved_cache_reads_back_the_same_bytes_and_keeps_no_text(model, tmp_path) -> None:
    path = tmp_path / "counting-4.npz"
    embedder = _embedder(model, EmbeddingCache(path))
    vectors = embedder.embed_documents(["pan de muerto", "rosca"]).vectors
    embedder.cache.save()
    assert b"rosca" not in path.read_bytes()  # only each text's digest is kept
    again = CachedEmbedder(model.name, lambda: pytest.fail("loaded"), EmbeddingCache(path))
    assert again.embed_documents(["rosca", "pan de muerto"]).vectors.tobytes() == vectors[::-1].tobytes()


def test_misses_can_be_refused_so_a_run_that_would_embed_is_caught(model, monkeypatch) -> None:
    monkeypatch.setenv(MISSES_ENV, "error")
    embedder = _embedder(model, EmbeddingCache())
    with pytest.raises(EmbeddingCacheMiss, match="1 text.*not in the counting-4 cache.*'nuevo'"):
        embedder.embed_documents(["nuevo"])
    assert model.documents == []


def test_a_damaged_cache_file_or_a_vector_holding_nan_is_refused(tmp_path) -> None:
    path = tmp_path / "bad.npz"
    np.savez(path, keys=np.array(["a", "b"]), vectors=np.zeros((1, 4), dtype=np.float32))
    with pytest.raises(EmbeddingError, match="is damaged"):
        EmbeddingCache(path)
    with pytest.raises(EmbeddingError, match="only a finite vector"):
        EmbeddingCache().put("k", np.array([np.nan, 1.0]))
