"""The guardrail against mass deletion, shared by the page sync and the files run.

A run that would delete more than a share of what the index holds is far more often a mistake
(an integration that lost access, a half-copied folder, a wrong path) than a real retirement:
from the index's side the two look the same. Such a run refuses and writes nothing, unless its
caller says ``force=True``.
"""

from __future__ import annotations

from lab.errors import LabError

__all__ = ["GuardrailError", "check_deletion_share"]


class GuardrailError(LabError, RuntimeError):
    """A reconciliation would delete more of the index than allowed; nothing was written."""


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
