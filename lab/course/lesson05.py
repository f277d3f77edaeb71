"""Lesson 05's seed its questions and the figures its run summary reports."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

__all__ = ["SEED", "QUESTIONS", "NOT_SOLD", "key_figures"]

SEED = 5  # seeds the simulated read (latency, faults) and the SVD map's solver
QUESTIONS = ("¿El rol de canela lleva nuez?", "¿Hasta cuándo puedo cancelar un pastel?", "¿Abren el 1 de mayo?")
NOT_SOLD = "¿Venden bicicletas eléctricas?"


def key_figures(tables: Path) -> str:
    """The lesson's figures a maintainer checks after a run, read from the tables it wrote."""
    matrix = pd.read_csv(tables / "05_tfidf_matrix.csv").iloc[0]
    answers = pd.read_csv(tables / "05_counter_questions.csv")
    top = answers[answers["rank"] == 1]
    mapped = pd.read_csv(tables / "05_map_stats.csv").iloc[0]
    return (f"TF-IDF {int(matrix['chunks'])} x {int(matrix['vocabulary'])} ({matrix['non_zero_pct']} % non-zero); "
            f"top-1 scores {', '.join(f'{s:.3f}' for s in top['score'])}; map variance "
            f"{mapped['explained_variance_pct']} %, purity {mapped['nearest_neighbour_purity_pct']} %")
