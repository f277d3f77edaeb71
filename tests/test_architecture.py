"""The layers are visible in the tree, and imports only go down.

Each top-level folder of ``lab`` is one layer. A module may import its own layer and the layers
below it, never one above: the library never imports the course machinery, and the client meant
for the real API never imports the simulator.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

LAB = Path(__file__).resolve().parents[1] / "lab"

#: Lower numbers are lower layers; a layer may import layers with a smaller number, or itself.
LAYERS = {
    "errors": -1,                                           # the root of every error: any module may raise one
    "clock": 0, "atomic_files": 0, "arguments": 0,
    "retry": 0, "redaction": 0,                             # shared by the client and services layers
    "json_files": 0, "file_lock": 0,                        # reading JSON within bounds, locking a shared file
    "notion": 1,                                            # the wire vocabulary both sides share
    "chunking": 2, "vectors": 2, "client": 2, "services": 2,
    "datasets": 3, "embedders": 3,                          # dense models of meaning, offline, and their kept vectors
    "simulator": 4, "index": 4,                             # the index file: the indexer writes it, retrieval reads it
    "ingest": 5, "retrieval": 5, "memory": 5,               # siblings: the indexer and retrieval never import each other
    "testing": 5,                                           # the simulator as a test double for other projects
    "answering": 6,                                         # answering reads the retrieval layer
    "cli": 7,
    "course": 8,
    "exercises": 9,                                         # checkers compute their answers with any layer
    "__main__": 10, "__init__": 10,
}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _module_name(path: Path) -> str:
    rel = path.relative_to(LAB.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1] if len(parts) > 2 else parts
    return ".".join(parts)


@functools.cache
def _imports() -> tuple[tuple[str, str], ...]:
    """(importing module, imported lab module) for every import in the package, nested ones too (read once
    per test process: every layer's test asks)."""
    found = []
    for path in sorted(LAB.rglob("*.py")):
        module = _module_name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lab"):
                found.append((module, node.module))
            elif isinstance(node, ast.Import):
                found += [(module, alias.name) for alias in node.names if alias.name.startswith("lab")]
    return tuple(found)


def test_every_top_level_folder_and_module_has_a_layer() -> None:
    names = {p.stem if p.is_file() else p.name for p in LAB.iterdir()
             if (p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists()))}
    assert names - set(LAYERS) == set(), f"give these a layer: {sorted(names - set(LAYERS))}"


@pytest.mark.parametrize("layer", sorted(set(LAYERS) - {"__init__", "__main__"}))
def test_a_layer_imports_only_itself_and_the_layers_below(layer: str) -> None:
    upward = [(src, dst) for src, dst in _imports() if _layer(src) == layer and dst != "lab"
              and LAYERS[_layer(dst)] >= LAYERS[layer] and _layer(dst) != layer]
    assert not upward, "imports that go up or sideways: " + ", ".join(f"{s} -> {d}" for s, d in upward)


def test_the_library_never_imports_the_course() -> None:
    lessons_only = ("lab.course", "lab.exercises")
    arrows = [(s, d) for s, d in _imports() if d.startswith(lessons_only) and not s.startswith(lessons_only)]
    assert not arrows, arrows


def test_the_client_never_imports_the_simulator() -> None:
    arrows = [(s, d) for s, d in _imports() if s.startswith("lab.client") and d.startswith("lab.simulator")]
    assert not arrows, arrows


def test_retrieval_and_the_indexer_never_import_each_other() -> None:
    arrows = [(s, d) for s, d in _imports()
              if {_layer(s), _layer(d)} == {"retrieval", "ingest"}]
    assert not arrows, "what both need belongs in lab.index or below: " + ", ".join(f"{s} -> {d}" for s, d in arrows)


#: The calls that run an experiment: a lesson shows them in its cells, never behind a course helper.
EXPERIMENT_CALLS = {"fit", "fit_transform", "search", "search_many", "search_serving", "climb", "full_index",
                    "resume_first_index", "incremental_sync", "sync", "ingest_folder"}


def _experiment_calls(path: Path, root: Path = LAB.parent) -> list[str]:
    """Each call in the module named like an experiment step, but not a regular expression's search."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    patterns = {"re"} | {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign)
                         and isinstance(node.value, ast.Call) and ast.unparse(node.value.func) == "re.compile"
                         for target in node.targets if isinstance(target, ast.Name)}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        on_a_pattern = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in patterns
        if name in EXPERIMENT_CALLS and not on_a_pattern:
            found.append(f"{path.relative_to(root)}:{node.lineno} {ast.unparse(func)}(...)")
    return found


def test_the_course_package_holds_presentation_only_and_never_fits_searches_climbs_or_syncs() -> None:
    calls = [call for path in sorted((LAB / "course").rglob("*.py")) for call in _experiment_calls(path)]
    assert not calls, "an experiment belongs in the lesson's cells, not in lab.course:\n" + "\n".join(calls)


def test_the_presentation_check_sees_a_hidden_fit_and_ignores_a_regular_expression(tmp_path: Path) -> None:
    module = tmp_path / "helper.py"
    module.write_text("import re\nWORD = re.compile('w')\n\ndef shown(x):\n    return WORD.search(x)\n\n"
                      "def hidden(recipe, corpus):\n    return recipe.retriever().fit(corpus)\n")
    assert _experiment_calls(module, root=tmp_path) == ["helper.py:8 recipe.retriever().fit(...)"]
