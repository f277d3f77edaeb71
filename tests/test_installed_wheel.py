"""The lab installed the way a user installs a tool: a wheel built from a clean checkout, installed
into a fresh virtual environment outside the repository, and run from another folder.

The wheel is built from the files git knows (as a clone has them), without build isolation, so
nothing is downloaded: setuptools comes from the dev extra. The fresh environment installs only the
wheel; the libraries it depends on are borrowed from this environment's site-packages through a
``.pth`` line, which adds them to ``sys.path`` without running this environment's editable install
of the lab. From a folder outside the repository it then runs the console script's help, ``serve``
with the official Python SDK against it, an index and a search of the bakery, and the
``notion_simulator`` pytest fixture in the documented example project.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from lab.cli import DEFAULT_SERVE_TOKEN

REPO = Path(__file__).resolve().parents[1]
#: A wheel past this size holds something it should not (a lesson's outputs, an index file). Most of
#: what it holds by right is the e5 vectors kept for the bakery's texts (about 1.5 MB, 2.3 MB with
#: the English/Portuguese variant's), so that lessons and the bakery's index never run the model.
MAX_WHEEL_BYTES = 2_750_000
#: Paths no wheel may hold: the lessons' outputs and machinery, the tests, the notebooks.
NOT_SHIPPED = ("data/", "notebooks/", "tests/", "bench/", "lab/course/", "lab/exercises/", "docs/")


class Installed:
    """A fresh environment with the wheel installed, and a folder outside the repository to run in."""

    def __init__(self, root: Path, wheel: Path) -> None:
        self.root, self.wheel = root, wheel
        self.venv = root / "venv"
        self.python = self.venv / "bin" / "python"
        self.script = self.venv / "bin" / "notion-lab"
        self.elsewhere = root / "elsewhere"
        self.elsewhere.mkdir()
        self.env = {name: value for name, value in os.environ.items()
                    if name not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "LAB_OUTPUT_DIR")}
        self.env["PATH"] = f"{self.venv / 'bin'}{os.pathsep}{self.env.get('PATH', '')}"

    def run(self, *command: str | Path, cwd: Path | None = None, timeout: float = 300,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """Run a command in the fresh environment, from the folder outside the repository by default."""
        return subprocess.run([str(part) for part in command], cwd=cwd or self.elsewhere,
                              env={**self.env, **(env or {})}, capture_output=True, text=True, timeout=timeout)


def _clean_checkout(target: Path) -> Path:
    """The files a clone would have (tracked, or new and not ignored), copied to ``target``."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():  # a file deleted in the work tree but not yet in git is gone from a clone too
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("building from a clean checkout needs git and a git checkout")
    root = tmp_path_factory.mktemp("installed-lab")
    source = _clean_checkout(root / "checkout")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                            "--quiet", "--disable-pip-version-check", "-w", str(root / "dist"), str(source)],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    wheel = next((root / "dist").glob("lab-*.whl"))
    lab = Installed(root, wheel)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(lab.venv)], check=True, timeout=120)
    site = Path(subprocess.run([lab.python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    borrowed = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "borrowed-from-the-lab-environment.pth").write_text("".join(f"{path}\n" for path in sorted(borrowed)))
    # lab.env has no PYTHONPATH: one naming a checkout with lab.egg-info would make pip see lab installed
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(lab.python), "install", "--no-index",
                              "--no-deps", "--quiet", "--disable-pip-version-check", str(wheel)],
                             capture_output=True, text=True, timeout=300, env=lab.env)
    assert install.returncode == 0, install.stdout + install.stderr
    return lab


@pytest.mark.slow
def test_the_wheel_holds_the_library_and_its_data_and_no_lesson_output(installed: Installed) -> None:
    names = zipfile.ZipFile(installed.wheel).namelist()
    assert "lab/datasets/data/workspace/bakery.json" in names and "lab/testing/pytest_plugin.py" in names
    assert any(name.startswith("lab/datasets/data/pages/bakery/") for name in names)
    shipped_outside = [name for name in names if name.startswith(NOT_SHIPPED)]
    assert not shipped_outside, f"the wheel should not hold {shipped_outside[:5]}"
    size = installed.wheel.stat().st_size
    assert size < MAX_WHEEL_BYTES, f"the wheel is {size:,} bytes: {sorted(names, key=len)[-5:]}"


@pytest.mark.slow
def test_the_installed_library_is_the_wheel_and_its_dependencies_are_met(installed: Installed) -> None:
    run = installed.run(installed.python, "-c", "import lab, lab.simulator; print(lab.__file__)")
    assert run.returncode == 0, run.stderr
    assert Path(run.stdout.strip()).is_relative_to(installed.venv)  # not the checkout's editable install
    check = installed.run(sys.executable, "-m", "pip", "--python", installed.python, "check",
                          "--disable-pip-version-check")
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.slow
def test_the_console_script_answers_help_and_version_from_another_folder(installed: Installed) -> None:
    run = installed.run("notion-lab", "--help")
    assert run.returncode == 0 and run.stdout.startswith("usage: notion-lab")
    for command in ("serve", "index", "sync", "audit", "ingest-folder", "search", "ask", "embed"):
        assert command in run.stdout
    version = installed.run("notion-lab", "--version")
    assert version.returncode == 0 and version.stdout.startswith("notion-lab ")
    module = installed.run(installed.python, "-m", "lab", "serve", "--help")
    assert module.returncode == 0 and "--workspace SPEC.json" in module.stdout


@pytest.mark.slow
def test_bakery_workspace_loads_from_the_package_data(installed: Installed) -> None:
    run = installed.run(installed.python, "-c", "from lab.simulator import bakery_workspace; ws = bakery_workspace(); "
                                                "print(len(ws.pages), ws.name)")
    assert run.returncode == 0 and run.stdout.strip() == "50 Trigo Lento", run.stderr


SDK_CHECK = """
import sys
from notion_client import Client
from notion_client.helpers import collect_paginated_api
notion = Client(auth=sys.argv[2], base_url=sys.argv[1])
sources = notion.search(filter={"property": "object", "value": "data_source"})["results"]
rows = collect_paginated_api(notion.data_sources.query, data_source_id=sources[0]["id"], page_size=10)
print(notion.users.me()["bot"]["workspace_name"], len(rows))
"""


@pytest.mark.slow
def test_serve_answers_the_official_sdk_then_index_and_search_the_bakery(installed: Installed) -> None:
    server = subprocess.Popen([str(installed.script), "serve", "--port", "0", "--plan", "enterprise"],
                              cwd=installed.elsewhere, env=installed.env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        banner = server.stdout.readline()
        assert " at http://127.0.0.1:" in banner, banner + server.stderr.read()
        base_url = banner.split(" at ")[1].split()[0]
        sdk = installed.run(installed.python, "-c", SDK_CHECK, base_url, DEFAULT_SERVE_TOKEN)
        assert sdk.returncode == 0 and sdk.stdout.strip() == "Trigo Lento 43", sdk.stderr  # 40 published, 3 drafts
        token = {"NOTION_TOKEN": DEFAULT_SERVE_TOKEN}
        index = installed.run("notion-lab", "index", "--base-url", base_url, "--db", "kb.sqlite", "--rate", "50",
                              env=token)
        assert index.returncode == 0 and "315 chunks in the index" in index.stdout, index.stdout + index.stderr
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=30)
    search = installed.run("notion-lab", "search", "--db", "kb.sqlite", "-k", "3", "¿Abren el 1 de mayo?")
    best = search.stdout.splitlines()[1].strip() if search.returncode == 0 else ""
    assert best.startswith("1. Aviso: puente del 1 de mayo"), search.stdout + search.stderr
    assert (installed.elsewhere / "kb.sqlite").is_file() and not (REPO / "kb.sqlite").exists()


#: pytest plugins of the lab's own test references, borrowed with its site-packages: a user's project
#: does not have them, and loading them (nbval's notebook schemas above all) takes seconds.
NOT_THE_EXAMPLES_PLUGINS = ("nbval", "hypothesispytest", "langsmith_plugin", "anyio")


@pytest.mark.slow
def test_the_example_project_passes_with_the_pytest_fixture(installed: Installed) -> None:
    project = shutil.copytree(REPO / "docs" / "examples" / "python", installed.root / "example")
    blocked = [option for name in NOT_THE_EXAMPLES_PLUGINS for option in ("-p", f"no:{name}")]
    run = installed.run(installed.python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *blocked, cwd=project)
    assert run.returncode == 0 and "6 passed" in run.stdout, run.stdout[-3000:] + run.stderr[-3000:]
