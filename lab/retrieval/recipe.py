"""A retrieval recipe: every choice the tuning ladder makes, in one value that builds the search.

The ladder of lesson 10 changes one knob at a time (the analyzer, how much headings count, the
chunk size, pseudo-relevance feedback, fusion with LSA, headings as BM25F fields, fusion with a
second analysis, a model of word meaning, sections as the unit ranked, the breadcrumb line, fusion
by scores rather than ranks and the dense list's weight; with a key, a paid dense model, a
reranker over the first results, a model that rewrites the question) and keeps what helps. A
step that needs a key nobody set is shown as skipped, not measured. A :class:`Recipe`
holds those knobs; ``dataclasses.replace(recipe, heading_weight=2)`` is one step.
:func:`climb` measures each step against the recipe kept so far and decides whether to keep it.
:data:`TUNED` is where the bakery's ladder ends: the method the answering lesson searches with.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import pandas as pd

from lab.errors import LabError
from lab.chunking.chunker import Chunker
from lab.chunking.corpus import chunk_pages
from lab.chunking.section_tokens import SectionTokenChunker
from lab.embedders import E5_MODEL, embedder_named
from lab.retrieval.corpus import SearchCorpus, chunk_body
from lab.retrieval.filters import ChunkFilter
from lab.retrieval.evaluation import LabelledQuestion, Metric, NdcgAt, RecallAt, ReciprocalRank, evaluate_search
from lab.retrieval.feedback import BM25FRM3Retriever, RM3Retriever
from lab.retrieval.fields import BM25FRetriever
from lab.retrieval.fusion import RRF, RelativeScoreFusion
from lab.retrieval.headings import HeadingWeighted
from lab.retrieval.retrievers import BM25Retriever, EmbeddingRetriever, LsaRetriever, Retriever
from lab.retrieval.second_stage import Reranked, Rewritten, claude_rewriter
from lab.retrieval.significance import Gain, paired_gain
from lab.vectors import CharNgramAnalyzer, WordAnalyzer
from lab.services.anthropic import Skipped
from lab.services.voyage_rerank import reranker_from_env
from lab.vectors.search import Hit

__all__ = ["MissingKeyError", "Recipe", "TUNED", "LEXICAL", "RECIPES", "LADDER_METRICS", "Step", "Ladder", "climb", "keeps"]

#: The three measures of every rung: does the answer come back, how high, and how high all of it.
LADDER_METRICS: tuple[Metric, ...] = (RecallAt(8), ReciprocalRank(), NdcgAt(10))
_DEPTH = 50  # chunks each search returns before sections are deduplicated and scored


@dataclass(frozen=True)
class Recipe:
    """How to cut the pages and build the retriever that searches them.

    Parameters
    ----------
    analyzer : text -> terms, for BM25 (and LSA's TF-IDF when fused).
    heading_weight : how many times a chunk's title and section count (1: once, as written).
    chunker : how pages become chunks (lesson 03's 300/50 token windows by default).
    feedback : RM3 pseudo-relevance feedback on the keyword lists, BM25 or BM25F (Anserini's 10
        documents, 10 terms, 0.5).
    lsa_components : fuse with LSA of that many dimensions by reciprocal rank (``None``: no fusion).
    random_state : seed of LSA's start vector.
    bm25f : score title, section and body as BM25F fields (weights ``heading_weight``,
        ``heading_weight``, 1; b = 0.75 each) instead of repeating the headings in the text.
    fuse_analyzers : more analyzers, each a BM25 (built like the first) fused by reciprocal rank.
    unit : what the fusion ranks: "chunk", or "section" (each section once, at its best chunk).
    dense : a dense model whose cosine ranking is fused by reciprocal rank too: the name of a model
        the lab runs itself (``lab.embedders.E5_MODEL``, multilingual-e5-small), or an embedder
        (``embed_documents``, ``embed_query``, ``name``) such as Voyage AI's (``None``: no dense list).
    breadcrumb : whether a chunk's "Title > Section" first line is part of the text the lists
        index (BM25F reads title and section as fields either way).
    rerank : a reranker that reorders the best 30 (``"voyage"``: Voyage AI's rerank-2.5, needs
        ``VOYAGE_API_KEY``; or an object with ``scores(query, documents)``); ``None``: no reranking.
    rewrite : a model that rewrites each question before the search (``"claude"``: needs
        ``ANTHROPIC_API_KEY``; or a function ``question -> query``); ``None``: the question as asked.
    fusion : how several lists become one: ``"rrf"``, by reciprocal rank (:class:`RRF`), or
        ``"relative"``, by scores scaled to 0-1 and weighted (:class:`RelativeScoreFusion`).
    alpha : with ``fusion="relative"`` and a dense list, the dense list's weight (Weaviate's alpha);
        the other lists share ``1 - alpha`` equally. Without a dense list every list weighs the same.
    """

    analyzer: Callable[[str], list[str]] = WordAnalyzer()
    heading_weight: int = 1
    chunker: Chunker = field(default_factory=SectionTokenChunker, compare=False)
    feedback: bool = False
    lsa_components: int | None = None
    random_state: int = 0
    bm25f: bool = False
    fuse_analyzers: tuple[Callable[[str], list[str]], ...] = ()
    unit: Literal["chunk", "section"] = "chunk"
    dense: Any = None
    breadcrumb: bool = True
    rerank: Any = None
    rewrite: Any = None
    fusion: Literal["rrf", "relative"] = "rrf"
    alpha: float = 0.5

    def corpus(self, pages: Iterable[Any]) -> SearchCorpus:
        """Chunk read pages (``KnowledgeBaseRead.pages``) with this recipe's chunker, urls and edits kept."""
        pages = list(pages)
        chunks = chunk_pages(pages, chunker=self.chunker).chunks
        corpus = SearchCorpus.from_chunks(chunks, pages={page.info.id: page.info for page in pages})
        if not self.breadcrumb:
            corpus = corpus.with_texts(chunk_body(text, title) for text, title in zip(corpus.texts, corpus.titles))
        return corpus

    def retriever(self, shared: MutableMapping[Hashable, Retriever] | None = None) -> Retriever:
        """A new, unfitted retriever made the way this recipe says.

        With ``shared``, each ranked list (a BM25, the LSA) is fitted once per corpus and kept
        there, so recipes that differ elsewhere reuse it: the ladder refits only what a step changes.
        """
        rankers = [(("keyword", analyzer, self.bm25f, self.feedback, self.heading_weight), self._keyword(analyzer))
                   for analyzer in (self.analyzer, *self.fuse_analyzers)]
        if self.lsa_components is not None:
            lsa = LsaRetriever(self.lsa_components, analyzer=self.analyzer, random_state=self.random_state)
            rankers.append((("lsa", self.analyzer, self.heading_weight, self.lsa_components, self.random_state),
                            self._weighted(lsa)))
        if self.dense is not None:
            rankers.append((("dense", self.dense_name), EmbeddingRetriever(self.dense_embedder())))
        built = [ranker if shared is None else _FitOnce(key, ranker, shared) for key, ranker in rankers]
        first: Retriever = built[0] if len(built) == 1 and self.unit == "chunk" else self._fused(built)
        if self.rewrite is not None:
            first = Rewritten(first, _resolved(self.rewrite, {"claude": claude_rewriter}, "rewrite"))
        if self.rerank is not None:
            first = Reranked(first, _resolved(self.rerank, {"voyage": reranker_from_env}, "rerank"))
        return first

    def _fused(self, lists: list[Retriever]) -> Retriever:
        if self.fusion == "rrf":
            return RRF(lists, unit=self.unit)
        if self.fusion != "relative":
            raise ValueError(f"fusion must be 'rrf' or 'relative', not {self.fusion!r}")
        if not 0 <= self.alpha <= 1:
            raise ValueError(f"alpha is the dense list's weight, between 0 and 1, not {self.alpha!r}")
        if self.dense is None or len(lists) == 1:
            weights = [1 / len(lists)] * len(lists)
        else:  # the dense list is the last one built
            weights = [(1 - self.alpha) / (len(lists) - 1)] * (len(lists) - 1) + [self.alpha]
        return RelativeScoreFusion(lists, weights=weights, unit=self.unit)

    @property
    def dense_name(self) -> str | None:
        """The name the dense model's vectors are stored under (``None`` without a dense list)."""
        return self.dense if self.dense is None or isinstance(self.dense, str) else str(self.dense.name)

    def dense_embedder(self) -> Any:
        """The dense model as an embedder (an offline one by its name), or ``None`` without a dense list."""
        return embedder_named(self.dense) if isinstance(self.dense, str) else self.dense

    def _keyword(self, analyzer: Callable[[str], list[str]]) -> Retriever:
        if self.bm25f:
            fields = BM25FRM3Retriever if self.feedback else BM25FRetriever
            return fields(weights=(self.heading_weight, self.heading_weight, 1), analyzer=analyzer)
        return self._weighted(RM3Retriever(analyzer=analyzer) if self.feedback else BM25Retriever(analyzer=analyzer))

    def _weighted(self, retriever: Retriever) -> Retriever:
        return HeadingWeighted(retriever, self.heading_weight) if self.heading_weight != 1 else retriever


def _resolved(choice: Any, named: Mapping[str, Callable[[], Any]], field_name: str) -> Any:
    """A recipe's paid model: the object given, or the one its name makes from the environment's key."""
    if not isinstance(choice, str):
        return choice
    if choice not in named:
        raise ValueError(f"{field_name}={choice!r} names no model; use {', '.join(map(repr, named))} or pass one")
    made = named[choice]()
    if made is None or isinstance(made, Skipped):
        raise MissingKeyError(f"{field_name}={choice!r} needs its API key: {made or 'VOYAGE_API_KEY is not set'}")
    return made


class MissingKeyError(LabError, RuntimeError):
    """A recipe names a paid model whose API key is not set (a ladder skips such a step instead)."""


class _FitOnce(Retriever):
    """A ranked list fitted once per ``(key, corpus)`` in ``shared``, then searched by every recipe that builds it."""

    def __init__(self, key: Hashable, retriever: Retriever, shared: MutableMapping[Hashable, Retriever]) -> None:
        self.key = key
        self.retriever = retriever
        self.shared = shared

    def fit(self, corpus: SearchCorpus) -> _FitOnce:
        if (self.key, corpus) not in self.shared:
            self.shared[self.key, corpus] = self.retriever.fit(corpus)
        self.fitted_ = self.shared[self.key, corpus]
        return self

    def search(self, query: str, k: int = 10, audience: str | None = None,
               min_score: float | None = None, where: ChunkFilter | None = None) -> list[Hit]:
        self._check_fitted("fitted_")
        return self.fitted_.search(query, k, audience=audience, min_score=min_score, where=where)


#: Where the bakery's ladder ends: BM25F over accent-folded character 4-grams of words (title and
#: section weighted 2, body 1) and multilingual-e5-small's cosine ranking, each list's scores scaled
#: to 0-1 and added with equal weights, each section ranked once, at its best chunk.
TUNED = Recipe(analyzer=CharNgramAnalyzer(n=4), heading_weight=2, bm25f=True, dense=E5_MODEL, unit="section",
               fusion="relative")
#: The ladder's best recipe without a model of word meaning, for an index whose chunks were not embedded
#: (the model costs about a tenth of a second a chunk on one core, so a large first index may do without it):
#: the same BM25F fused by reciprocal rank with LSA-128 over the same terms (headings counted twice).
LEXICAL = replace(TUNED, dense=None, fusion="rrf", lsa_components=128)

#: The recipes an index can record by name (``search_recipe`` in its ``meta``) to be searched with.
RECIPES: dict[str, Recipe] = {"tuned": TUNED, "lexical": LEXICAL}


@dataclass(frozen=True)
class Step:
    """One rung: a name a reader understands, the recipe fields it changes, and the API keys it needs.

    A step whose ``requires`` names an environment variable that is not set is skipped by
    :func:`climb`: shown in the table as skipped, never measured, never kept.
    """

    name: str
    changes: Mapping[str, Any]
    requires: tuple[str, ...] = ()

    def missing_keys(self) -> list[str]:
        """The environment variables this step needs and nobody set."""
        return [name for name in self.requires if not os.environ.get(name, "").strip()]


def keeps(gains: Mapping[str, Gain], tolerance: float = 0.02) -> bool:
    """The ladder's rule: keep a step that raises at least two of the measures and lowers none
    by more than ``tolerance`` (one question's worth of recall@8 on 55 questions)."""
    return (sum(gain.mean > 0 for gain in gains.values()) >= 2
            and all(gain.mean >= -tolerance for gain in gains.values()))


@dataclass(frozen=True)
class Ladder:
    """What :func:`climb` measured: one table row per rung, each rung's per-question scores, the
    recipe reached."""

    table: pd.DataFrame
    per_question: dict[str, pd.DataFrame]
    recipe: Recipe


class _Rungs:
    """Scores recipes on one set of pages, sharing corpora (per chunker) and fitted lists between rungs."""

    def __init__(self, pages: Sequence[Any], questions: Sequence[LabelledQuestion], metrics: Sequence[Metric]) -> None:
        self.pages, self.questions, self.metrics = pages, questions, metrics
        self.corpora: dict[tuple[Chunker, bool], SearchCorpus] = {}
        self.shared: dict[Hashable, Retriever] = {}

    def scores(self, recipe: Recipe) -> pd.DataFrame:
        key = (recipe.chunker, recipe.breadcrumb)
        if key not in self.corpora:
            self.corpora[key] = recipe.corpus(self.pages)
        retriever = recipe.retriever(self.shared).fit(self.corpora[key])
        return evaluate_search(lambda q: retriever.search(q.question, k=_DEPTH), self.questions, self.metrics)


def climb(start: Recipe, steps: Sequence[Step], pages: Sequence[Any], questions: Sequence[LabelledQuestion],
          metrics: Sequence[Metric] = LADDER_METRICS, seed: int = 0) -> Ladder:
    """Measure ``start``, then each step applied to the recipe kept so far; keep it if :func:`keeps`.

    Each row gives the step's means, each measure's gain over the recipe kept so far with its
    95% paired-bootstrap interval (seeded; as numbers, ``low``/``high``, and as text), the questions
    whose recall@8 went up or down, and whether the step was kept.
    """
    names = [m.name for m in metrics]
    rungs = _Rungs(pages, questions, metrics)
    current, current_scores = start, rungs.scores(start)
    rows = [{"step": "start", **{n: current_scores[n].mean() for n in names}, "kept": True}]
    per_question = {"start": current_scores}
    gated = any(step.requires for step in steps)
    if gated:
        rows[0]["skipped"] = ""
    for step in steps:
        missing = step.missing_keys()
        if missing:
            rows.append({"step": step.name, "kept": False, "skipped": f"needs {', '.join(missing)}"})
            continue
        candidate = replace(current, **step.changes)
        scores = rungs.scores(candidate)
        gains = {n: paired_gain(current_scores.set_index("question")[n], scores.set_index("question")[n],
                                seed=seed) for n in names}
        kept = keeps(gains)
        row: dict[str, Any] = {"step": step.name, **{n: scores[n].mean() for n in names}}
        for n, gain in gains.items():
            row[f"gain {n}"] = gain.mean
            row[f"low {n}"], row[f"high {n}"] = gain.low, gain.high
            row[f"95% CI {n}"] = f"[{gain.low:+.3f}, {gain.high:+.3f}]"
        first = gains[names[0]]
        row.update({f"{names[0]} up/down": f"{first.won}/{first.lost}", "kept": kept})
        if gated:
            row["skipped"] = ""
        rows.append(row)
        per_question[step.name] = scores
        if kept:
            current, current_scores = candidate, scores
    return Ladder(table=pd.DataFrame(rows), per_question=per_question, recipe=current)
