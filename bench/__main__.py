"""Run every benchmark and print the results: ``python -m bench [--quick] [--only NAME ...]``."""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("DISABLE_TQDM", "1")  # bm25s draws progress bars otherwise

from bench import (blind_questions, bm25_vs_bm25s, chunking_vs_langchain, embedding, engine_figures,  # noqa: E402
                   http_simulator, map_vs_sklearn, offline_rungs, overlap, postgres_vs_sqlite, scale, search_vs_sklearn, semantic_chunking,
                   served_indexer, served_search, tfidf_vs_sklearn)
from bench.measure import format_table  # noqa: E402

BENCHMARKS = {"tfidf": tfidf_vs_sklearn, "map": map_vs_sklearn, "search": search_vs_sklearn}
# each prints its own tables
OTHERS = {"bm25": bm25_vs_bm25s, "chunking": chunking_vs_langchain, "http": http_simulator, "scale": scale,
          "served": served_search, "embedding": embedding, "semantic": semantic_chunking, "postgres": postgres_vs_sqlite,
          "served-index": served_indexer, "overlap": overlap, "rungs": offline_rungs,
          "engine-figures": engine_figures, "blind": blind_questions}
HAS_LARGE = {"bm25"}  # benchmarks with sizes that run only with --large


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, run the chosen benchmarks, print their tables."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run of a few seconds")
    parser.add_argument("--only", nargs="+", choices=sorted(BENCHMARKS | OTHERS), help="run only these benchmarks")
    parser.add_argument("--large", action="store_true",
                        help="also the largest sizes (bm25: 1,000,000 documents; minutes and some 15 GB)")
    args = parser.parse_args(argv)
    chosen = args.only or [*BENCHMARKS, *OTHERS]
    rows = []
    for name in chosen:
        if name in BENCHMARKS:
            module = BENCHMARKS[name]
            rows += module.main(**module.QUICK) if args.quick else module.main()
    if rows:
        print(format_table(rows))
    for name in chosen:
        if name in OTHERS:
            print()
            options = {"large": args.large} if name in HAS_LARGE else {}
            OTHERS[name].main(quick=args.quick, **options)


if __name__ == "__main__":
    main()
