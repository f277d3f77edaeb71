"""The ``notion_simulator`` pytest fixture: a Notion workspace served for one test, on a free port.

Installing the lab registers this plugin (entry point ``pytest11``), so any project's tests can ask
for the fixture::

    def test_lists_the_knowledge_base(notion_simulator):
        notion = notion_client.Client(auth=notion_simulator.token, base_url=notion_simulator.base_url)
        assert notion.search()["results"]

Which workspace it serves, first found: the ``workspace`` of a ``notion_simulator`` marker on the
test, its class or its module (a path relative to the test file, or a dict); the ``notion_workspace``
ini option (a path relative to the ini file); the lab's bakery. The marker's other keywords set the
seed and the limits (``plan``, ``connection_budget``, ``p_overload``...: :data:`lab.testing.LIMIT_OPTIONS`);
inside a test, ``notion_simulator.set_limits(...)`` or ``with notion_simulator.limited(...)``
switch them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from lab.testing.served import ServedNotion

__all__ = ["notion_simulator", "MARKER", "INI_WORKSPACE"]

MARKER = "notion_simulator"
INI_WORKSPACE = "notion_workspace"


def pytest_addoption(parser: pytest.Parser) -> None:
    """Declare the ini option that names the workspace spec every test serves by default."""
    parser.addini(INI_WORKSPACE, "workspace spec (JSON) the notion_simulator fixture serves, relative to the "
                                 "ini file; the lab's bakery when unset", default="")


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker, so ``--strict-markers`` accepts it and ``pytest --markers`` lists it."""
    config.addinivalue_line("markers", f"{MARKER}(workspace=None, seed=0, **limits): the workspace spec, seed, "
                                       "plan, budgets and fault probabilities of the notion_simulator fixture")


def _workspace(request: pytest.FixtureRequest, marked: Any) -> Any:
    if isinstance(marked, (str, Path)):
        return request.path.parent / marked
    if marked is not None:
        return marked
    configured = request.config.getini(INI_WORKSPACE)
    if configured:
        base = request.config.inipath.parent if request.config.inipath else request.config.rootpath
        return base / configured
    return None


@pytest.fixture
def notion_simulator(request: pytest.FixtureRequest) -> Iterator["ServedNotion"]:
    """A Notion workspace served on a free loopback port for this test, with a fresh token."""
    from lab.testing.served import ServedNotion, limits_from

    marker = request.node.get_closest_marker(MARKER)
    options = dict(marker.kwargs) if marker else {}
    workspace = _workspace(request, options.pop("workspace", None))
    seed = options.pop("seed", 0)
    with ServedNotion(workspace, limits=limits_from(options), seed=seed) as served:
        yield served
