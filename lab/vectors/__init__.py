"""Vectors for retrieval: analyzers (Spanish stems, character n-grams), TF-IDF, cosine search, the SVD
map, LSA and BM25.

Pure computation over lists of texts: nothing here knows about Notion or chunks. Every search
in the lab ranks with the one top-k selection (:func:`top_k_rows`, and for many queries at once
:func:`top_k_rows_many`, :func:`top_k_dense_product`, :func:`top_k_sparse_product`) and returns
:class:`Hit` records (id, score, title, section, page), whatever it searched.
"""

from lab.vectors import analyzers as _analyzers, bm25 as _bm25, estimator as _estimator, lsa as _lsa
from lab.vectors import purity as _purity, search as _search, svd_map as _svd_map, tfidf as _tfidf
from lab.vectors import spanish as _spanish
from lab.vectors.analyzers import *  # noqa: F403  each module's __all__ is its public API
from lab.vectors.bm25 import *  # noqa: F403
from lab.vectors.estimator import *  # noqa: F403
from lab.vectors.lsa import *  # noqa: F403
from lab.vectors.purity import *  # noqa: F403
from lab.vectors.search import *  # noqa: F403
from lab.vectors.spanish import *  # noqa: F403
from lab.vectors.sparse_rows import normalize_rows
from lab.vectors.svd_map import *  # noqa: F403
from lab.vectors.tfidf import *  # noqa: F403

__all__ = [*_analyzers.__all__, *_spanish.__all__, *_tfidf.__all__, "normalize_rows", *_estimator.__all__, *_search.__all__,
           *_svd_map.__all__, *_purity.__all__, *_lsa.__all__, *_bm25.__all__]
