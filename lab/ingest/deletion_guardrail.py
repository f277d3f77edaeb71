"""The guardrail against mass deletion, shared by the page sync and the files run.

A run that would delete more than a share of what the index holds is far more often a mistake
(an integration that lost access, a half-copied folder, a wrong path) than a real retirement:
from the index's side the two look the same. Such a run refuses and writes nothing, unless its
caller says ``force=True``.
"""

from __future__ import annotations

from lab.arguments import check_share
from lab.errors import LabError

__all__ = ["GuardrailError", "check_deletion_share", "check_max_share"]


class GuardrailError(LabError, RuntimeError):
    """A reconciliation would delete more of the index than allowed; nothing was written."""


def check_max_share(max_share: float) -> float:
    """``max_share`` if it is a share between 0 and 1 (0: refuse any deletion, 1: never refuse);
    a ``ValueError`` before the run reads anything otherwise (1.5 would silently disarm the guardrail)."""
    return check_share("max_delete_share", max_share, " (0.5 refuses deleting more than half)")


def check_deletion_share(deleting: int, held: int, max_share: float, *, force: bool, run: str, scope: str,
                         explanation: str) -> None:
    """Raise :class:`GuardrailError` if deleting ``deleting`` of ``held`` chunks passes ``max_share``
    (unless ``force``).

    The message reads "{run} would delete D of the H chunks {scope} (P %, more than the M %
    allowed){explanation}": ``explanation`` starts with its own connective (": ", " and ") and
    tells the caller's likely cause and fix. An empty index has nothing to protect.
    """
    if force or not held or deleting / held <= max_share:
        return
    raise GuardrailError(
        f"{run} would delete {deleting} of the {held} chunks {scope} ({100 * deleting / held:.0f} %, more than the "
        f"{100 * max_share:.0f} % allowed){explanation}")
