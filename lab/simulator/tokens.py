"""The simulator's secrets: each integration's token.

In process they derive from the seed, so a lesson is reproducible run after run (and anyone who
reads this file can compute them, which is harmless without a socket). A served simulator is
given a secret instead (``python -m lab serve --token T``): every token is then an HMAC of that
secret, so nothing that lets a client in can be computed from the source.
"""

from __future__ import annotations

import hashlib
import hmac

__all__ = ["default_token", "derived_token"]


def default_token(integration_key: str, seed: int = 0) -> str:
    """The token the simulator issues to an integration unless told otherwise (secret-shaped)."""
    digest = hashlib.sha256(f"lab-notion-token/{seed}/{integration_key}".encode()).hexdigest()
    return "ntn_" + digest[:46]


def derived_token(secret: str, integration_key: str) -> str:
    """An integration's token derived from ``secret``: whoever holds the secret can compute it,
    nobody else can."""
    digest = hmac.new(secret.encode(), f"lab-notion-token/{integration_key}".encode(), hashlib.sha256).hexdigest()
    return "ntn_" + digest[:46]
