"""Run every benchmark: ``python -m bench`` (full size) or ``python -m bench --quick``."""

import sys

from bench import chunking_vs_langchain

quick = "--quick" in sys.argv[1:]
chunking_vs_langchain.main(quick=quick)
