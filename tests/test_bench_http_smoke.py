"""The HTTP benchmark runs end to end in its quick mode (timings are not asserted)."""

from __future__ import annotations

import pytest

from bench import http_simulator


@pytest.mark.slow
def test_quick_benchmark_reports_every_client_and_connection_count_and_the_server_memory(capsys) -> None:
    tables = http_simulator.main(quick=True)
    throughput = tables["throughput"]
    assert len(throughput) == 2 * len(http_simulator.CLIENTS)
    assert set(throughput["connection"]) == {"keep-alive", "new per request"}
    rates = throughput[[f"{n} conn. (req/s)" for n in http_simulator.CONNECTIONS]]
    assert (rates > 0).all().all()
    assert (tables["latency"]["median (ms)"] > 0).all() and len(tables["latency"]) == len(http_simulator.CLIENTS)
    assert tables["memory"]["requests served"].tolist() == list(http_simulator.QUICK["memory_marks"])
    assert "served simulator over HTTP" in capsys.readouterr().out
