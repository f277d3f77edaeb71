"""Notion's search index lags behind the workspace: with ``LimitsConfig(search_delay=N)`` (``serve
--search-delay N``), ``POST /v1/search`` leaves out a page created or edited less than N seconds ago
(simulated clock), while a data source query, a page read and a block listing see it at once. Off by
default: search then shows every edit at once, as the simulator always has."""

from __future__ import annotations

import dataclasses

import pytest

from lab.cli import main
from lab.simulator import LimitsConfig
from tests.notion_fixtures import call, data_source_id, make_simulator

NEW = {"key": "nueva", "title": "Aviso: horario de verano", "type": "faq", "publishable": True,
       "parent": {"type": "data_source", "key": "kb"}, "blocks": [{"type": "paragraph", "text": "De 7:00 a 21:00."}]}


def _search_titles(sim, query: str = "") -> list[str]:
    response = call(sim, "POST", "/v1/search", {"query": query, "filter": {"property": "object", "value": "page"}})
    assert response.status == 200, response.body
    return [result["properties"]["Nombre"]["title"][0]["plain_text"] for result in response.body["results"]]


def _query_ids(sim) -> list[str]:
    response = call(sim, "POST", f"/v1/data_sources/{data_source_id(sim)}/query", {})
    assert response.status == 200, response.body
    return [row["id"] for row in response.body["results"]]


def test_without_a_delay_search_shows_a_new_page_at_once() -> None:
    sim = make_simulator()
    assert LimitsConfig().search_delay == 0
    sim.workspace.add_page(NEW)
    assert "Aviso: horario de verano" in _search_titles(sim, "horario")


def test_with_a_delay_a_new_page_is_missing_from_search_until_the_delay_has_passed() -> None:
    sim = make_simulator(limits=LimitsConfig(search_delay=120))
    page = sim.workspace.add_page(NEW)
    assert _search_titles(sim, "horario") == []
    assert page.id in _query_ids(sim)  # a data source query sees it at once
    assert call(sim, "GET", f"/v1/pages/{page.id}").status == 200
    assert call(sim, "GET", f"/v1/blocks/{page.id}/children").status == 200
    sim.clock.advance(60)
    assert _search_titles(sim, "horario") == []
    sim.clock.advance(61)
    assert _search_titles(sim, "horario") == ["Aviso: horario de verano"]


def test_with_a_delay_an_edited_page_leaves_search_until_the_delay_has_passed_and_old_pages_stay() -> None:
    sim = make_simulator(limits=LimitsConfig(search_delay=300))
    sim.clock.advance(3600)
    before = _search_titles(sim)
    assert "Política de cancelaciones" in before and "Ficha: Rol de canela" in before  # edited long ago
    sim.workspace.rename(sim.workspace.page_id("politica-cancel"), "Política de cancelaciones y cambios")
    during = _search_titles(sim)
    assert "Política de cancelaciones y cambios" not in during and "Ficha: Rol de canela" in during
    sim.clock.advance(301)
    assert "Política de cancelaciones y cambios" in _search_titles(sim)


def test_the_delay_can_be_switched_on_and_off_on_a_running_simulator() -> None:
    sim = make_simulator()
    sim.workspace.add_page(NEW)
    assert _search_titles(sim, "horario")
    sim.set_limits(dataclasses.replace(sim.limits, search_delay=600))
    assert _search_titles(sim, "horario") == []  # the cached listing is not reused under the delay
    sim.set_limits(dataclasses.replace(sim.limits, search_delay=0))
    assert _search_titles(sim, "horario")


@pytest.mark.parametrize("delay", [-1, float("inf"), float("nan"), "60", True])
def test_a_delay_that_is_not_seconds_is_refused(delay) -> None:
    with pytest.raises(ValueError, match="search_delay"):
        LimitsConfig(search_delay=delay)


@pytest.mark.parametrize("value", ["-1", "inf", "nan", "two"])
def test_serve_refuses_a_search_delay_that_is_not_seconds_in_one_line(value, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--search-delay", value])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "--search-delay" in err


def test_serve_search_delay_reaches_the_served_simulator(monkeypatch, capsys) -> None:
    import lab.cli.serve as serve

    served = []

    def refuse(simulator, *args, **kwargs):
        served.append(simulator)
        raise OSError(98, "Address already in use")

    monkeypatch.setattr(serve, "SimulatorHTTPServer", refuse)
    assert main(["serve", "--port", "0", "--search-delay", "45"]) == 6  # stops before it listens
    assert served[0].limits.search_delay == 45
    assert main(["serve", "--port", "0"]) == 6 and served[1].limits.search_delay == 0
