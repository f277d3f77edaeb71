"""The offline rungs benchmark measures its first candidate against TUNED on the 55 (quick mode), candidate
5's features rebuild TUNED's fused list and order, and candidate 6's reorderings do what they say."""

from __future__ import annotations

import pytest

from bench import offline_rungs


@pytest.mark.slow
def test_quick_run_measures_dense_feedback_against_tuned_with_the_ladders_rule(capsys) -> None:
    table = offline_rungs.main(quick=True)
    assert table.index.tolist() == ["1a dense feedback, dense top 3"]
    first = table.iloc[0]
    assert 0 < first["55 recall@8"] <= 1 and 0 < first["55 MRR"] <= 1
    assert first["55 gain recall@8"].startswith(("+", "-")) and "[" in first["55 gain MRR"]
    assert first["kept by the rule"] in (True, False)
    assert "measured" in capsys.readouterr().out


@pytest.mark.slow
def test_learned_fusion_features_rebuild_tuned_and_its_candidates_keep_tuneds_order_under_tuneds_weights() -> None:
    import numpy as np

    from lab.retrieval import TUNED
    from lab.retrieval.fields import BM25FRetriever
    from lab.retrieval.fusion import RelativeScoreFusion
    from lab.retrieval.retrievers import EmbeddingRetriever

    dense_feedback, sentence_scored, _ = offline_rungs._classes()
    corpus, questions, _ = offline_rungs._bakery()
    bm25f = BM25FRetriever(weights=(2, 2, 1), analyzer=TUNED.analyzer).fit(corpus)
    dense = EmbeddingRetriever(TUNED.dense_embedder()).fit(corpus)
    base = RelativeScoreFusion([bm25f, dense], weights=[0.5, 0.5], unit="section", depth=100).fit(corpus)
    chunks_as_sentences = sentence_scored(dense, np.arange(len(corpus)), dense.matrix_, mix=0.0).fit(corpus)
    features = offline_rungs.SectionFeatures(base, dense, chunks_as_sentences,
                                             dense_feedback(dense, first=base).fit(corpus))

    class TunedWeights:  # TUNED's own sum of the two scaled scores, as a probability
        def predict_proba(self, rows: np.ndarray) -> np.ndarray:
            fused = 0.5 * rows[:, 0] + 0.5 * rows[:, 1]
            return np.stack([1 - fused, fused], axis=1)

    learned = offline_rungs.LearnedFusion(features, [0, 1], TunedWeights())
    for question in questions[:10]:
        hits, places, keys, rows = features.of(question.question)
        assert [hit.id for hit in hits[:50]] == [hit.id for hit in base.search(question.question, 50)]
        assert rows.shape == (len(places), len(offline_rungs.FEATURES)) and places == sorted(places)
        assert np.allclose(0.5 * rows[:, 0] + 0.5 * rows[:, 1], [hits[place].score for place in places])
        assert np.allclose(rows[:, 4], rows[:, 5])  # the chunks stand in for their sentences here
        assert [hit.id for hit in learned.search(question.question, len(places))] == [hits[p].id for p in places]


class _Listed:
    """A fitted retriever's stand-in: the same hits for every question."""

    def __init__(self, hits) -> None:
        self.hits = hits

    def search(self, query: str, k: int = 10):
        return self.hits[:k]


def _hits(pages: str):
    from lab.vectors.search import Hit

    return [Hit(id=f"c{i}", score=10.0 - i, title=page, section=f"s{i}", page_id=page) for i, page in enumerate(pages)]


def test_a_page_cap_moves_each_pages_sections_past_the_cap_after_the_others_in_order() -> None:
    capped = offline_rungs.PageCap(_Listed(_hits("AAABAC")), cap=2).search("any", k=6)
    assert [hit.id for hit in capped] == ["c0", "c1", "c3", "c5", "c2", "c4"]


def test_maximal_marginal_relevance_keeps_the_order_at_lam_1_and_takes_the_least_similar_next_at_lam_0() -> None:
    import numpy as np

    hits = _hits("ABCD")
    vectors = np.array([[1.0, 0.0], [1.0, 0.0], [0.6, 0.8], [0.0, 1.0]])  # c1 repeats c0, c3 is unlike it
    rows = {hit.id: row for row, hit in enumerate(hits)}
    relevance = offline_rungs.MaximalMarginalRelevance(_Listed(hits), vectors, rows, lam=1.0)
    diverse = offline_rungs.MaximalMarginalRelevance(_Listed(hits), vectors, rows, lam=0.0)
    assert [hit.id for hit in relevance.search("any", k=4)] == ["c0", "c1", "c2", "c3"]
    assert [hit.id for hit in diverse.search("any", k=4)][:2] == ["c0", "c3"]
