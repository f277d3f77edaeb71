"""The scale benchmark on its quick mode's smallest workspace (timings are not asserted)."""

from __future__ import annotations

from bench import scale


def test_a_sync_asks_fewer_requests_than_an_index_and_langchain_skips_every_unchanged_document() -> None:
    pages = scale.QUICK["sizes"][0]
    lab, langchain = scale.measure_lab(pages), scale.measure_langchain(pages)

    runs = scale.lab_table([lab])
    assert runs["run"].tolist() == list(scale.LAB_RUNS)
    assert list(runs.columns) == ["pages", "new words/page", "run", "seconds", "CPU s", "requests", "chunks",
                                  "embedded"]
    full, unchanged, edited = runs.to_dict("records")
    assert unchanged["requests"] < edited["requests"] < full["requests"]
    assert full["embedded"] == full["chunks"] and unchanged["embedded"] == 0 and edited["embedded"] == 1
    assert full["chunks"] == unchanged["chunks"] == edited["chunks"]

    theirs = scale.langchain_table([langchain], [lab])
    assert theirs["run"].tolist() == list(scale.LANGCHAIN_RUNS)
    first, rerun, after_edit = theirs.to_dict("records")
    assert first["documents"] == full["chunks"] == first["added"] == first["stored"]  # the lab's own chunks
    assert rerun["skipped"] == rerun["documents"] and rerun["added"] == rerun["deleted"] == rerun["updated"] == 0
    assert 0 < after_edit["added"] == after_edit["deleted"] < after_edit["documents"]
    assert first["requests"] == rerun["requests"] == after_edit["requests"] == full["requests"]  # reads every page
    assert (theirs["CPU lab/LangChain"] > 0).all()

    memory = scale.memory_table([lab], [langchain]).iloc[0]
    assert memory["index file (MB)"] > 0 and memory["lab peak RSS (MB)"] >= memory["workspace RSS (MB)"]


def test_a_workspace_whose_process_outgrows_its_memory_limit_is_stopped_and_reported() -> None:
    result = scale.run_in_child("lab", scale.QUICK["sizes"][0], limit_mb=1)
    assert result["stopped"].startswith("stopped at")
