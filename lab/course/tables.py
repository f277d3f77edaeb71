"""Writing the tables a lesson prints, so a maintainer can see when one moves."""

from __future__ import annotations

import pandas as pd

from lab.course.paths import tables_dir

__all__ = ["save_table"]


def save_table(df: pd.DataFrame, name: str, index: bool = False) -> pd.DataFrame:
    """Write ``df`` to ``data/tables/<name>`` (UTF-8, ``\\n`` line ends) and return it for display.

    Lessons end a cell with ``save_table(table, "02_clients.csv")`` so that what the learner
    sees and what CI compares are the same object.
    """
    if not name.endswith(".csv"):
        raise ValueError(f"table names end in .csv, got {name!r}")
    path = tables_dir() / name
    df.to_csv(path, index=index, lineterminator="\n")
    return df
