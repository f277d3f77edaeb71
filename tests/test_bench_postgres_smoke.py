"""The PostgreSQL benchmark runs end to end in quick mode on a cluster of its own (no timing is checked)."""

from __future__ import annotations

import pytest

from bench import postgres_vs_sqlite


@pytest.mark.slow
@pytest.mark.usefixtures("postgres_cluster")  # skips, saying why, where no cluster can start
def test_the_quick_postgres_benchmark_reports_every_run_on_both_backends_with_equal_indexes(capsys) -> None:
    tables = postgres_vs_sqlite.main(quick=True)
    count = postgres_vs_sqlite.QUICK["workspaces"]
    ratios = tables["ratios"]
    assert ratios["run"].tolist() == ["full index", "one-edit sync", f"{count} workspaces, one after another",
                                      f"{count} workspaces, at once"]
    assert ratios["same index"].all()
    measured = ratios[[f"{backend} {what}" for backend in ("SQLite", "PostgreSQL") for what in ("s", "CPU s", "MB")]]
    assert (measured > 0).all().all()
    assert (ratios["time PG/SQLite"] == ratios["PostgreSQL s"] / ratios["SQLite s"]).all()
    several = ratios.iloc[2:]
    assert (several["SQLite MB"] > count * 0.9 * ratios["SQLite MB"].iloc[0]).all()  # the workspaces' sizes add up
    assert tables["at once"]["backend"].tolist() == ["SQLite", "PostgreSQL"]
    assert "postgres vs sqlite" in capsys.readouterr().out
