"""Retrieval: search chunks with one interface, filter by audience, version and date before ranking, fuse rankings.

- :class:`SearchCorpus` holds the chunks (text, page, section, audience, version, last edit); a search
  returns :class:`~lab.vectors.Hit` records, as the stored index does.
- :class:`ChunkFilter` keeps the chunks of one version of the documentation, or edited in a window of
  dates (:mod:`lab.retrieval.filters`); every search takes one as ``where``, applied before ranking.
- :class:`TfidfRetriever`, :class:`LsaRetriever`, :class:`BM25Retriever` (Lucene's idf),
  :class:`StoredVectorRetriever` (any model's vectors in an index) and :class:`EmbeddingRetriever`
  (a dense embedder called at fit and query time) share
  ``search(query, k, audience=None, min_score=None, where=None)``.
- :class:`RRF` fuses retrievers by reciprocal rank (k = 60), chunks or sections, and
  :class:`RelativeScoreFusion` by scores scaled to 0-1 and weighted (vector databases' hybrid); :class:`HeadingWeighted`
  counts titles and sections more, :class:`BM25FRetriever` scores them as fields;
  :class:`RM3Retriever` and :class:`BM25FRM3Retriever` add pseudo-relevance feedback to BM25 and BM25F.
- :mod:`lab.retrieval.recipe` holds the tuning ladder (:class:`Recipe`, :func:`climb`, :data:`TUNED`)
  and :mod:`lab.retrieval.significance` the paired bootstrap that says how sure a gain is.
- :class:`IndexSearcher` is how an index is searched: the recipe it serves (TUNED), fitted once on
  every chunk it holds, its fitted state kept in the index; :func:`search_serving` searches the
  dense model an index serves with a query vector; :class:`OfflineIndex` is lesson 05's TF-IDF and
  LSA written to an index and asked through it.
- :class:`AuditedRetriever` wraps any retriever and appends who asked, a keyed hash of the query
  and the page ids returned to a :class:`SearchLog` (JSONL).
- :mod:`lab.retrieval.labelled_sets` loads the labelled questions with gold answers as units
  (lesson 07 reads the Chinese handbook with its audiences in its own cells).
"""

from lab.retrieval.corpus import SearchCorpus, UnknownAudienceError
from lab.retrieval.filters import ChunkFilter, InvalidDateError, UnknownVersionError
from lab.retrieval.evaluation import (IdealPrecisionAt, LabelledQuestion, NdcgAt, PrecisionAt, RecallAt,
                                      ReciprocalRank, compare_methods, evaluate_search, mean_table, miss_table,
                                      source_units)
from lab.retrieval.labelled_sets import (bakery_paraphrases, bakery_questions, blind_bakery_questions,
                                         handbook_questions, heldout_bakery_questions, study_note_corpus,
                                         study_note_questions, unanswerable_bakery_questions)
from lab.retrieval.feedback import BM25FRM3Retriever, RM3Retriever
from lab.retrieval.fields import BM25FRetriever
from lab.retrieval.fusion import RRF, RRF_K, RelativeScoreFusion, reciprocal_rank_fusion, relative_score_fusion
from lab.retrieval.headings import HeadingWeighted
from lab.retrieval.search_log import AuditedRetriever, SearchLog
from lab.retrieval.recipe import LEXICAL, RECIPES, TUNED, Ladder, MissingKeyError, Recipe, Step, climb
from lab.retrieval.second_stage import REWRITE_SYSTEM, Reranked, Reranker, Rewritten, claude_rewriter
from lab.retrieval.index_search import IndexNotSearchableError, IndexSearcher, search_serving
from lab.retrieval.offline_index import OfflineIndex, ask_index
from lab.retrieval.significance import Gain, paired_gain
from lab.retrieval.retrievers import (
    BM25Retriever,
    EmbeddingRetriever,
    LsaRetriever,
    Retriever,
    RowScorer,
    StoredVectorRetriever,
    TfidfRetriever,
)

__all__ = [
    "SearchCorpus",
    "UnknownAudienceError",
    "ChunkFilter",
    "UnknownVersionError",
    "InvalidDateError",
    "Retriever",
    "RowScorer",
    "TfidfRetriever",
    "LsaRetriever",
    "BM25Retriever",
    "StoredVectorRetriever",
    "EmbeddingRetriever",
    "RRF",
    "RelativeScoreFusion",
    "AuditedRetriever",
    "SearchLog",
    "RRF_K",
    "HeadingWeighted",
    "BM25FRetriever",
    "RM3Retriever",
    "BM25FRM3Retriever",
    "Recipe",
    "Step",
    "MissingKeyError",
    "Reranked",
    "Reranker",
    "Rewritten",
    "REWRITE_SYSTEM",
    "claude_rewriter",
    "Ladder",
    "climb",
    "TUNED",
    "RECIPES",
    "LEXICAL",
    "IndexSearcher",
    "IndexNotSearchableError",
    "search_serving",
    "OfflineIndex",
    "ask_index",
    "Gain",
    "paired_gain",
    "unanswerable_bakery_questions",
    "reciprocal_rank_fusion",
    "relative_score_fusion",
    "IdealPrecisionAt",
    "LabelledQuestion",
    "NdcgAt",
    "PrecisionAt",
    "RecallAt",
    "ReciprocalRank",
    "compare_methods",
    "evaluate_search",
    "mean_table",
    "miss_table",
    "source_units",
    "bakery_questions",
    "bakery_paraphrases",
    "heldout_bakery_questions",
    "blind_bakery_questions",
    "handbook_questions",
    "study_note_corpus",
    "study_note_questions",
]
