"""Run every benchmark and print the results: ``python -m bench [--quick] [--only NAME ...]``."""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("DISABLE_TQDM", "1")  # bm25s draws progress bars otherwise

from bench import (bm25_vs_bm25s, chunking_vs_langchain, embedding, http_simulator, map_vs_sklearn,  # noqa: E402
                   scale, search_vs_sklearn, served_search, tfidf_vs_sklearn)
from bench.measure import format_table  # noqa: E402

BENCHMARKS = {"tfidf": tfidf_vs_sklearn, "map": map_vs_sklearn, "bm25": bm25_vs_bm25s, "search": search_vs_sklearn}
OTHERS = {"chunking": chunking_vs_langchain, "http": http_simulator, "scale": scale,  # each prints its own tables
          "served": served_search, "embedding": embedding}


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, run the chosen benchmarks, print their tables."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run of a few seconds")
    parser.add_argument("--only", nargs="+", choices=sorted(BENCHMARKS | OTHERS), help="run only these benchmarks")
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
            OTHERS[name].main(quick=args.quick)


if __name__ == "__main__":
    main()
