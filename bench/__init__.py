"""Benchmarks: the lab's vectors against reference libraries, as ratios measured in one process.

Run ``python -m bench`` (or ``make bench``) for the full sizes, ``python -m bench --quick`` for a
smoke run of a few seconds. Absolute times depend on the machine; ratios measured side by side
in the same process are what carry over.
"""
