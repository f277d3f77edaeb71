"""The semantic chunking benchmark runs end to end on one file (timings are not asserted)."""

from __future__ import annotations

import pytest

from bench import semantic_chunking
from lab.embedders.e5 import e5_unavailable_reason


@pytest.mark.slow
@pytest.mark.skipif(e5_unavailable_reason() is not None, reason=str(e5_unavailable_reason()))
def test_quick_benchmark_embeds_each_sentence_window_once_beside_the_structural_chunkers(capsys) -> None:
    table = semantic_chunking.main(quick=True)
    assert table["chunker"].tolist() == ["markdown headers", "paragraphs", "word windows", "semantic (e5)"]
    semantic = table.iloc[-1]
    assert semantic["files"] == 1 and semantic["chunks"] > 0
    assert semantic["texts embedded"] == semantic["sentences"] > semantic["chunks"]
    assert semantic["model tokens"] > semantic["texts embedded"] and semantic["seconds"] > 0
    assert "semantic chunking of the docs corpus" in capsys.readouterr().out
