"""Why a chunk scores what it does: the shared words' products add up to the cosine."""

from __future__ import annotations

import numpy as np
import pytest

from lab.chunking import Chunk
from lab.chunking.records import fingerprint
from lab.retrieval import OfflineIndex
from lab.index import IndexStore
from lab.vectors import WordAnalyzer

TEXTS = {
    "lead": "Rol de canela. Lleva nuez picada.",
    "allergens": "Alérgenos del rol de canela: gluten, leche, huevo y nuez; trazas de almendra y cacahuate.",
    "hours": "Abrimos de martes a domingo; el lunes descansamos.",
    "nuts": "Productos con nuez: el rol, la rosca y el pan de elote.",
}


def _chunk(key: str, text: str) -> Chunk:
    return Chunk(id=f"p1:{key}:00", page_id="p1", title="Ficha", type="ficha", section=key, order=0, text=text,
                 body=text, start=0, end=len(text), tokens=len(text.split()), fingerprint=fingerprint(text),
                 edited="2026-04-09T16:00:00.000Z", chunker="test")


@pytest.fixture(scope="module")
def index() -> OfflineIndex:
    chunks = [_chunk(key, text) for key, text in TEXTS.items()]
    return OfflineIndex(chunks, analyzer=WordAnalyzer(stop_words="es"), lsa_components=2)


def test_the_shared_words_products_add_up_to_the_cosine(index: OfflineIndex) -> None:
    question = "¿El rol de canela lleva nuez?"
    for chunk in index.chunks:
        breakdown = index.explain(question, chunk)
        assert sum(q * d for _, q, d in breakdown.shared) == pytest.approx(breakdown.score)
        assert breakdown.distinct_terms == index.matrix.getrow(index.chunks.index(chunk)).nnz


def test_the_rank_counts_the_chunks_that_score_strictly_higher_as_the_store_ranks_them(index) -> None:
    question = "¿El rol de canela lleva nuez?"
    store = IndexStore(":memory:")
    index.save(store)
    hits = index.searcher(store).search(question, k=len(index.chunks))
    by_id = {c.id: c for c in index.chunks}
    assert [index.explain(question, by_id[h.id]).rank for h in hits if h.score > 0] == [1, 2, 3]


def test_a_chunk_that_shares_no_word_scores_zero_and_says_so(index: OfflineIndex) -> None:
    hours = next(c for c in index.chunks if c.section == "hours")
    breakdown = index.explain("¿El rol lleva nuez?", hours)
    assert breakdown.score == 0 and breakdown.shared == ()
    assert "no shared word" in str(breakdown)


def test_term_chunks_counts_the_chunks_holding_each_known_word_in_question_order(index) -> None:
    assert index.term_chunks("¿Nuez o canela en bicicleta?") == {"nuez": 3, "canela": 2}
    in_chunks = np.bincount(index.matrix.indices, minlength=index.matrix.shape[1])
    idf = index.tfidf.idf_[index.tfidf.vocabulary_["nuez"]]
    assert idf == pytest.approx(np.log((1 + 4) / (1 + in_chunks[index.tfidf.vocabulary_["nuez"]])) + 1)


def test_explaining_a_chunk_the_index_was_not_fitted_on_is_refused(index: OfflineIndex) -> None:
    with pytest.raises(ValueError, match="not in this index"):
        index.explain("nuez", _chunk("other", "Otra cosa con nuez."))
