"""The scikit-learn conventions the lab's vectorisers share.

Parameters are set in ``__init__`` and stored unchanged; what ``fit`` learns ends with ``_``;
using a model before ``fit`` raises :class:`NotFittedError`. A learner who knows scikit-learn
should be able to guess these APIs without reading them.
"""

from __future__ import annotations

import inspect
from typing import Any

from lab.errors import LabError

__all__ = ["NotFittedError", "Estimator"]


class NotFittedError(LabError, ValueError, AttributeError):
    """A model was used before ``fit`` (same bases as scikit-learn's, so either catch works)."""


class Estimator:
    """Parameters from the ``__init__`` signature, a readable repr and a fitted-state check."""

    def get_params(self) -> dict[str, Any]:
        """The constructor parameters and their current values, in signature order."""
        names = [name for name in inspect.signature(type(self).__init__).parameters if name != "self"]
        return {name: getattr(self, name) for name in names}

    def __repr__(self) -> str:
        defaults = {
            name: parameter.default
            for name, parameter in inspect.signature(type(self).__init__).parameters.items()
        }
        changed = [
            f"{name}={value!r}"
            for name, value in self.get_params().items()
            if not _same(value, defaults.get(name, inspect.Parameter.empty))
        ]
        return f"{type(self).__name__}({', '.join(changed)})"

    def _check_fitted(self, attribute: str) -> None:
        if not hasattr(self, attribute):
            raise NotFittedError(
                f"this {type(self).__name__} is not fitted yet: call fit (or fit_transform) "
                f"with the corpus before using it"
            )


def _same(value: Any, default: Any) -> bool:
    try:
        return bool(value == default) and type(value) is type(default)
    except (TypeError, ValueError):
        return value is default
