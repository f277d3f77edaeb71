"""The simulator as a test double for anyone's Notion code.

:class:`ServedNotion` (or the ``with served_notion(...)`` form) serves a workspace, the lab's bakery
or one described in a JSON spec (``docs/workspace-spec.md``), on a free loopback port with a fresh
token; any Notion client, the official Python and JavaScript SDKs included, is pointed at its
``base_url``. Installing the lab also registers a pytest plugin (:mod:`lab.testing.pytest_plugin`)
whose ``notion_simulator`` fixture gives each test its own. From a shell, ``notion-lab serve
--workspace SPEC.json`` serves the same thing until Ctrl-C.

The names below are imported when first used: pytest imports this package in every project where
the lab is installed, and the simulator (numpy, pandas) should cost a test run only when it serves.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ServedNotion", "served_notion", "workspace_spec", "LIMIT_OPTIONS"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from lab.testing import served

        return getattr(served, name)
    raise AttributeError(f"module 'lab.testing' has no attribute {name!r}")
