"""What a lesson's table cell saves: the index only when it labels the rows."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from lab.course.notebook import save_shown
from lab.course.paths import OUTPUT_ENV


@pytest.mark.parametrize("table, header", [
    (pd.DataFrame({"source": [1, 2], "score": [0.9, 0.5]}), "source,score"),               # row numbers: left out
    (pd.DataFrame({"source": [1, 2], "score": [0.9, 0.5]}).set_index("source"), "source,score"),  # named: kept
    (pd.DataFrame({"score": [0.9, 0.5]}, index=pd.Index(["a", "b"])), ",score"),           # labels: kept
])
def test_a_table_keeps_its_index_only_when_the_index_labels_the_rows(table: pd.DataFrame, header: str,
                                                                     tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(OUTPUT_ENV, str(tmp_path))
    save_shown(table, "hits", "99")
    lines = (tmp_path / "tables" / "99_hits.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == header and lines[1].endswith("0.9") and len(lines) == 3
