"""What a fit learned, as named arrays: kept in the index so that another process searches without fitting.

A retriever's fitted state is its attributes ending in ``_`` (scikit-learn's convention) and those
of the retrievers and models inside it. :func:`fitted_state` walks the tree of a fitted retriever
and returns them as plain arrays (numbers or text; sparse matrices as their four arrays; a
vocabulary as its terms and columns), with a JSON description of the rest; :func:`restore_fitted`
pours them into a new, unfitted retriever built the same way. Nothing is pickled: a state read
from a file can hold numbers and text, never code, and only the lab's own model classes are
rebuilt from it.

What is not kept: the corpus (every ``corpus_`` is the corpus given back at restore time), and
private caches (an attribute starting with ``_``, such as a dense retriever's embedded queries).
"""

from __future__ import annotations

import importlib
import io
import json
import zipfile
import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np
import scipy.sparse as sp

from lab.errors import LabError
from lab.retrieval.corpus import SearchCorpus
from lab.vectors.estimator import Estimator

__all__ = ["FITTED_STATE_VERSION", "FittedStateError", "DamagedStateError", "fitted_state", "restore_fitted",
           "state_to_bytes", "state_from_bytes"]

#: Part of the key a state is kept under: raise it when what a fit keeps changes, so older states are fitted again.
FITTED_STATE_VERSION = 2
_DESCRIPTION = "__description__"
_JSON_SCALARS = (bool, int, float, str, type(None))


class FittedStateError(LabError, TypeError):
    """A fitted state that cannot be written as arrays, or that does not fit the retriever it is poured into."""


class DamagedStateError(FittedStateError, ValueError):
    """Bytes that are not a state :func:`state_to_bytes` wrote: cut short, damaged, or holding pickled objects."""


#: What NumPy and zipfile raise on bytes that are not a whole, plain ``.npz`` archive.
_UNREADABLE = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError, KeyError, OSError)


def fitted_state(retriever: Estimator) -> dict[str, np.ndarray]:
    """The fitted attributes of ``retriever`` and of every retriever or model inside it, as named arrays."""
    arrays: dict[str, np.ndarray] = {}
    description = _describe(retriever, "", arrays)
    arrays[_DESCRIPTION] = np.array(json.dumps(description, sort_keys=True))
    return arrays


def restore_fitted(retriever: Estimator, state: Mapping[str, np.ndarray], corpus: SearchCorpus) -> Estimator:
    """Make the unfitted ``retriever`` (built like the one the state came from) fitted, with ``corpus`` as its corpus."""
    if _DESCRIPTION not in state:
        raise FittedStateError("this is not a fitted state written by fitted_state (no description)")
    try:
        _pour(retriever, json.loads(str(state[_DESCRIPTION])), state, corpus)
    except FittedStateError:
        raise
    except (KeyError, IndexError, AttributeError, TypeError, ValueError) as error:  # a description that does not match
        raise DamagedStateError(f"this fitted state does not describe a retriever ({type(error).__name__}: "
                                f"{error}): fit again") from None
    return retriever


def state_to_bytes(state: Mapping[str, np.ndarray]) -> bytes:
    """The arrays in NumPy's ``.npz`` format (uncompressed: a state is read more often than written)."""
    buffer = io.BytesIO()
    np.savez(buffer, **state)
    return buffer.getvalue()


def state_from_bytes(blob: bytes) -> dict[str, np.ndarray]:
    """The arrays :func:`state_to_bytes` wrote; object arrays (which would unpickle) and bytes that are
    not a whole archive (cut short, damaged: each member's CRC-32 is checked) are a :class:`DamagedStateError`."""
    if not blob.startswith(b"PK\x03\x04"):  # np.load would read a lone array, or try to unpickle
        raise DamagedStateError("these bytes are not a fitted state (not an .npz archive): fit again")
    try:
        with np.load(io.BytesIO(blob), allow_pickle=False) as archive:
            return {name: archive[name] for name in archive.files}
    except _UNREADABLE as error:
        raise DamagedStateError(f"this fitted state cannot be read ({type(error).__name__}: {error}): fit "
                                "again") from None


def _children(estimator: Estimator) -> list[tuple[str, Estimator]]:
    """The retrievers and models an estimator holds as parameters (RRF's list, a wrapper's inner one)."""
    found = []
    for name, value in sorted(vars(estimator).items()):
        if name.startswith("_") or name.endswith("_"):
            continue
        if isinstance(value, Estimator):
            found.append((name, value))
        elif isinstance(value, (list, tuple)):
            found += [(f"{name}.{i}", item) for i, item in enumerate(value) if isinstance(item, Estimator)]
    return found


def _describe(estimator: Estimator, path: str, arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    fitted = {}
    for name, value in sorted(vars(estimator).items()):
        if name.endswith("_") and not name.startswith("_"):
            fitted[name] = _encode(value, f"{path}{name}", arrays, estimator)
    children = {name: _describe(child, f"{path}{name}.", arrays) for name, child in _children(estimator)}
    return {"class": type(estimator).__name__, "fitted": fitted, "children": children}


def _encode(value: Any, key: str, arrays: dict[str, np.ndarray], owner: Estimator) -> dict[str, Any]:
    if isinstance(value, SearchCorpus):
        return {"kind": "corpus"}
    if isinstance(value, _JSON_SCALARS) or isinstance(value, (np.integer, np.floating)):
        return {"kind": "scalar", "value": value.item() if isinstance(value, np.generic) else value}
    if isinstance(value, np.ndarray) and value.dtype != object:
        arrays[key] = value
        return {"kind": "array"}
    if sp.issparse(value):
        matrix = value if value.format in ("csr", "csc") else value.tocsr()
        for part in ("data", "indices", "indptr"):
            arrays[f"{key}.{part}"] = getattr(matrix, part)
        return {"kind": "sparse", "format": matrix.format, "shape": list(matrix.shape),
                "sorted": bool(matrix.has_sorted_indices)}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value) and all(
            isinstance(v, (int, np.integer)) for v in value.values()):
        arrays[f"{key}.keys"] = np.array(list(value), dtype=str)
        arrays[f"{key}.values"] = np.fromiter(value.values(), dtype=np.int64, count=len(value))
        return {"kind": "vocabulary"}
    if isinstance(value, Estimator):
        return {"kind": "model", **_describe_model(value, key, arrays, owner)}
    raise FittedStateError(f"{type(owner).__name__}.{key.rsplit('.', 1)[-1]} holds a {type(value).__name__}, "
                           "which a fitted state cannot keep as arrays")


def _describe_model(model: Estimator, key: str, arrays: dict[str, np.ndarray], owner: Estimator) -> dict[str, Any]:
    """A model a retriever made while fitting (a TF-IDF, an LSA, a BM25): its class, its parameters
    (values, or the owner's parameter it shares, such as the analyzer) and its fitted state."""
    params: dict[str, Any] = {}
    owner_params = owner.get_params()
    for name, value in model.get_params().items():
        shared = next((n for n, v in owner_params.items() if v is value), None)
        if shared is not None:
            params[name] = {"owner": shared}
        elif isinstance(value, type) and issubclass(value, np.generic):
            params[name] = {"numpy_type": np.dtype(value).name}
        elif isinstance(value, _JSON_SCALARS):
            params[name] = {"value": value}
        else:
            raise FittedStateError(f"the {type(model).__name__} inside {type(owner).__name__} has a parameter "
                                   f"{name}={value!r} that a fitted state cannot keep")
    described = _describe(model, f"{key}.", arrays)
    return {"module": type(model).__module__, "params": params, **described}


def _pour(estimator: Estimator, description: Mapping[str, Any], state: Mapping[str, np.ndarray],
          corpus: SearchCorpus, path: str = "") -> None:
    if description["class"] != type(estimator).__name__:
        raise FittedStateError(f"the state at {path or 'the top'} was written by a {description['class']}, "
                               f"not a {type(estimator).__name__}: build the retriever the way the state's was built")
    for name, encoded in description["fitted"].items():
        setattr(estimator, name, _decode(encoded, f"{path}{name}", state, corpus, estimator))
    children = dict(_children(estimator))
    if set(children) != set(description["children"]):
        raise FittedStateError(f"the retriever at {path or 'the top'} holds {sorted(children)}, the state "
                               f"{sorted(description['children'])}")
    for name, child in children.items():
        _pour(child, description["children"][name], state, corpus, f"{path}{name}.")


def _decode(encoded: Mapping[str, Any], key: str, state: Mapping[str, np.ndarray], corpus: SearchCorpus,
            owner: Estimator) -> Any:
    kind = encoded["kind"]
    if kind == "corpus":
        return corpus
    if kind == "scalar":
        return encoded["value"]
    if kind == "array":
        return state[key]
    if kind == "sparse":
        matrix_class = sp.csr_matrix if encoded["format"] == "csr" else sp.csc_matrix
        matrix = matrix_class((state[f"{key}.data"], state[f"{key}.indices"], state[f"{key}.indptr"]),
                              shape=tuple(encoded["shape"]))
        matrix.has_sorted_indices = encoded["sorted"]
        return matrix
    if kind == "vocabulary":
        return dict(zip(state[f"{key}.keys"].tolist(), state[f"{key}.values"].tolist()))
    if kind == "model":
        return _rebuild_model(encoded, key, state, corpus, owner)
    raise FittedStateError(f"unknown kind {kind!r} in the fitted state at {key}")


def _rebuild_model(encoded: Mapping[str, Any], key: str, state: Mapping[str, np.ndarray], corpus: SearchCorpus,
                   owner: Estimator) -> Estimator:
    module = encoded["module"]
    if not module.startswith("lab."):
        raise FittedStateError(f"the fitted state at {key} names a class from {module!r}; only the lab's own "
                               "models are rebuilt from a state")
    model_class = getattr(importlib.import_module(module), encoded["class"], None)
    if not (isinstance(model_class, type) and issubclass(model_class, Estimator)):
        raise FittedStateError(f"the fitted state at {key} names {module}.{encoded['class']}, which is not a model")
    model = model_class.__new__(model_class)  # parameters and fitted state are set below; nothing runs
    owner_params = owner.get_params()
    for name, param in encoded["params"].items():
        if "owner" in param:
            value = owner_params[param["owner"]]
        elif "numpy_type" in param:
            value = np.dtype(param["numpy_type"]).type
        else:
            value = param["value"]
        setattr(model, name, value)
    _pour(model, encoded, state, corpus, f"{key}.")
    return model
