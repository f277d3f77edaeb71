"""Vectors for retrieval: analyzers, TF-IDF, cosine search, the SVD map, LSA and BM25.

Pure computation over lists of texts: nothing here knows about Notion or chunks. Every search
in the lab ranks with :func:`top_k_rows` and returns :class:`Hit` records (id, score, title,
section, page), whatever it searched.
"""

from lab.vectors.analyzers import (
    ENGLISH_STOP_WORDS,
    SPANISH_STOP_WORDS,
    STOP_WORD_LISTS,
    Analyzer,
    CJKBigramAnalyzer,
    WordAnalyzer,
)
from lab.vectors.bm25 import BM25, BM25_IDF
from lab.vectors.estimator import NotFittedError
from lab.vectors.lsa import LsaVectorizer
from lab.vectors.purity import nearest_neighbour_purity, nearest_neighbours
from lab.vectors.search import LEAD, Hit, check_k, cosine_scores, top_k_rows
from lab.vectors.svd_map import GRAM_MAX_ROWS, SvdMap, svd_map
from lab.vectors.sparse_rows import normalize_rows
from lab.vectors.tfidf import TfidfVectorizer

__all__ = [
    "Analyzer",
    "WordAnalyzer",
    "CJKBigramAnalyzer",
    "SPANISH_STOP_WORDS",
    "ENGLISH_STOP_WORDS",
    "STOP_WORD_LISTS",
    "TfidfVectorizer",
    "normalize_rows",
    "NotFittedError",
    "Hit",
    "LEAD",
    "check_k",
    "cosine_scores",
    "top_k_rows",
    "svd_map",
    "SvdMap",
    "GRAM_MAX_ROWS",
    "nearest_neighbours",
    "nearest_neighbour_purity",
    "LsaVectorizer",
    "BM25",
    "BM25_IDF",
]
