"""The scale benchmark on its quick mode's smallest workspace (timings are not asserted)."""

from __future__ import annotations

import pytest

from bench import scale


RSS_READING_SLACK_MB = 1.0


@pytest.mark.slow
def test_a_sync_asks_fewer_requests_than_an_index_and_langchain_skips_every_unchanged_document() -> None:
    pages = scale.QUICK["sizes"][0]
    lab, langchain = scale.measure_lab(pages), scale.measure_langchain(pages)

    runs = scale.lab_table([lab])
    assert runs["run"].tolist() == list(scale.LAB_RUNS)
    assert list(runs.columns) == ["pages", "new words/page", "run", "seconds", "CPU s", "requests", "API s",
                                  "chunks", "embedded", "pages read", "reconciled"]
    assert (runs["API s"] > 0).all()  # the simulator's drawn latency, request after request
    full, unchanged, edited, reconciling = runs.to_dict("records")
    assert unchanged["requests"] < edited["requests"] < reconciling["requests"] < full["requests"]
    assert full["embedded"] == full["chunks"] and unchanged["embedded"] == 0
    assert edited["embedded"] == reconciling["embedded"] == 1
    assert full["chunks"] == unchanged["chunks"] == edited["chunks"] == reconciling["chunks"]
    assert runs["reconciled"].tolist() == [True, False, False, True]

    theirs = scale.langchain_table([langchain], [lab])
    assert theirs["run"].tolist() == list(scale.LANGCHAIN_RUNS)
    first, rerun, after_edit = theirs.to_dict("records")
    assert first["documents"] == full["chunks"] == first["added"] == first["stored"]  # the lab's own chunks
    assert rerun["skipped"] == rerun["documents"] and rerun["added"] == rerun["deleted"] == rerun["updated"] == 0
    assert 0 < after_edit["added"] == after_edit["deleted"] < after_edit["documents"]
    assert first["requests"] == rerun["requests"] == after_edit["requests"] == full["requests"]  # reads every page
    assert (theirs["CPU lab/LangChain"] > 0).all()

    memory = scale.memory_table([lab], [langchain]).iloc[0]
    # Linux updates a process's resident size lazily (per-thread counters, up to 64 pages each), so two
    # readings taken apart can disagree by a fraction of a megabyte in either direction
    assert memory["index file (MB)"] > 0
    assert memory["process peak, lab (MB)"] >= memory["workspace RSS (MB)"] - RSS_READING_SLACK_MB
    assert memory["lab's own (MB)"] == memory["process peak, lab (MB)"] - memory["workspace RSS (MB)"]
    hours = scale.rate_limit_table([lab])
    assert (hours["hours at 3 req/s"] * 3600 * 3 == hours["requests"]).all()


def test_a_workspace_whose_process_outgrows_its_memory_limit_is_stopped_and_reported() -> None:
    result = scale.run_in_child("lab", scale.QUICK["sizes"][0], limit_mb=1)
    assert result["stopped"].startswith("stopped at")


@pytest.mark.slow
def test_a_full_index_kept_in_the_cache_is_reused_by_the_next_measurement(tmp_path) -> None:
    pages = scale.QUICK["sizes"][0]
    first = scale.measure_lab(pages, index_cache=tmp_path)
    again = scale.measure_lab(pages, index_cache=tmp_path)
    assert again["runs"][0] == first["runs"][0] | {"cached": True}
    assert [run["requests"] for run in again["runs"][1:]] == [run["requests"] for run in first["runs"][1:]]
    assert [run["chunks"] for run in again["runs"]] == [run["chunks"] for run in first["runs"]]


@pytest.mark.slow
def test_a_sync_after_a_bulk_edit_is_checked_to_hold_every_edited_row() -> None:
    lab = scale.measure_lab(scale.QUICK["sizes"][0], bulk_rows=30)
    bulk = lab["runs"][-1]
    assert bulk["run"] == scale.BULK_RUN and bulk["pages read"] == 30 and bulk["every edit indexed"] is True
    assert bulk["embedded"] >= 30 and bulk["chunks"] == lab["runs"][0]["chunks"]
