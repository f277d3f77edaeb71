"""The offline rungs benchmark measures its first candidate against TUNED on the 55 (quick mode)."""

from __future__ import annotations

import pytest

from bench import offline_rungs


@pytest.mark.slow
def test_quick_run_measures_dense_feedback_against_tuned_with_the_ladders_rule(capsys) -> None:
    table = offline_rungs.main(quick=True)
    assert table.index.tolist() == ["1a dense feedback, dense top 3"]
    first = table.iloc[0]
    assert 0 < first["55 recall@8"] <= 1 and 0 < first["55 MRR"] <= 1
    assert first["55 gain recall@8"].startswith(("+", "-")) and "[" in first["55 gain MRR"]
    assert first["kept by the rule"] in (True, False)
    assert "measured" in capsys.readouterr().out
