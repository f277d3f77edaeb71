"""The embedding benchmark's measurements on a few of the bakery's chunks (timings are not asserted)."""

from __future__ import annotations

import pandas as pd
import pytest

from bench import embedding
from lab.embedders.e5 import e5_unavailable_reason


@pytest.mark.slow
@pytest.mark.skipif(e5_unavailable_reason() is not None, reason=str(e5_unavailable_reason()))
def test_the_model_and_tuned_are_measured_on_the_same_chunks_and_summarised_side_by_side() -> None:
    e5 = embedding.measure_e5("bakery", chunks=4, threads=1, queries=2)
    tuned = embedding.measure_tuned("bakery", queries=2)
    assert e5["method"] == "multilingual-e5-small-q4" and e5["chunks"] == 4 and e5["threads"] == 1
    assert e5["model tokens"] > 4 * 50 and e5["tokens/s"] > e5["chunks/s"] > 0
    assert e5["load s"] > 0 and e5["query ms"] > 0 and e5["peak RSS MB"] > 0
    assert tuned["method"] == "LEXICAL fit" and tuned["chunks"] == 315 and tuned["seconds"] > 0
    lines = embedding.summary(pd.DataFrame([tuned, e5]))
    assert len(lines) == 1 and lines[0].startswith("bakery: e5 at its fastest here (1 thread(s)) takes")
    assert "all 315 chunks take" in lines[0] and "times LEXICAL's fit" in lines[0]
