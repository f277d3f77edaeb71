"""Benchmarks: the lab's speed against reference libraries, reported as ratios from one process."""
