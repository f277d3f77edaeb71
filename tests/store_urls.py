"""Where a second index goes beside a test's ``store_url``, whichever backend the test runs on."""

from __future__ import annotations

from pathlib import Path


def another_store(store_url: str, name: str) -> str:
    """Another index beside ``store_url``: a file in its folder, or a workspace in its PostgreSQL database."""
    if store_url.startswith("postgresql://"):
        return f"{store_url}{'&' if '?' in store_url else '?'}workspace={name}"
    return str(Path(store_url).with_name(f"{name}.sqlite"))
