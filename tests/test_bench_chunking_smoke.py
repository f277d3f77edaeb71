"""The chunking benchmark runs end to end in its quick mode (timings are not asserted)."""

from __future__ import annotations

import pytest

from bench import chunking_vs_langchain


@pytest.mark.slow
def test_quick_benchmark_reports_a_ratio_for_each_comparison(capsys) -> None:
    table = chunking_vs_langchain.main(quick=True)
    assert list(table.columns) == ["comparison", "corpus_mb", "lab_mb_per_s", "reference_mb_per_s", "ratio",
                                   "lab_chunks", "reference_chunks"]
    assert len(table) == 3 and table["comparison"].str.startswith(("markdown", "token windows")).all()
    assert (table["ratio"] > 0).all() and (table["lab_chunks"] > 0).all() and (table["reference_chunks"] > 0).all()
    assert table["corpus_mb"].between(0.9, 1.2).all()
    assert "chunking vs LangChain" in capsys.readouterr().out


def test_the_generated_corpus_is_the_same_for_the_same_seed() -> None:
    first = chunking_vs_langchain.generate_corpus(20_000, seed=7)
    second = chunking_vs_langchain.generate_corpus(20_000, seed=7)
    assert first.markdown == second.markdown and first.markdown_bytes >= 20_000
    assert [flat.text for flat, _ in first.flat] == [flat.text for flat, _ in second.flat]
