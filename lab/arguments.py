"""The two argument checks every layer makes: a positive whole number, and a share between 0 and 1.

Each refuses, naming the parameter, what Python would otherwise accept and get wrong: ``True``
for 1, ``2.5`` or ``"3"`` for a count, NaN for a share (it compares false with everything, so
no bound stops it), ``2`` for a share. ``why`` adds what the value means, for the message.
"""

from __future__ import annotations

import numpy as np

__all__ = ["check_positive_int", "check_share"]


def check_positive_int(name: str, value: object, why: str = "", error: type[Exception] = ValueError) -> int:
    """``value`` as an ``int`` if it is a whole number of at least 1; ``error`` naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise error(f"{name} must be a positive integer{why}, not {value!r}")
    return int(value)


def check_share(name: str, value: object, why: str = "", error: type[Exception] = ValueError) -> float:
    """``value`` as a ``float`` if it is a number in [0, 1]; ``error`` naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not 0 <= value <= 1:
        raise error(f"{name} must be a number between 0 and 1{why}, not {value!r}")
    return float(value)
