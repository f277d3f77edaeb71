"""``make lab``: JupyterLab at the repository root with lesson 01 open, and saves that keep
``git status`` clean.

The server runs with a pre-save hook that normalises a notebook exactly as ``make run`` does
(no interpreter patch version, no timing metadata), so opening and saving an unchanged lesson
writes the committed bytes back.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path

from lab.course.paths import REPO_ROOT
from lab.course.pipeline import lesson_paths, normalise_notebook

__all__ = ["normalise_on_save", "jupyterlab_command", "main"]

# Lab-wide setting overrides: no news feed question, no update check (no network needed), and every cell of a
# lesson drawn when it opens (windowingMode "none"): a lesson is a few dozen cells, and drawing only what is
# on screen left the rest to appear while scrolling and took 2-3 times longer to show the whole lesson
SETTINGS_DIR = Path(__file__).with_name("jupyterlab_settings")


def normalise_on_save(model: dict, **_: object) -> None:
    """Jupyter's ``ContentsManager.pre_save_hook``: normalise a notebook before it is written."""
    if model.get("type") == "notebook" and isinstance(model.get("content"), dict):
        normalise_notebook(model["content"])


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (the system picks it)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def jupyterlab_command(port: int, token: str, open_browser: bool = True, root: Path = REPO_ROOT) -> list[str]:
    """The ``jupyter lab`` command line: repository root, loopback, the given port and token,
    the save hook, and ``--allow-root`` when running as root (JupyterLab refuses root otherwise)."""
    command = [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={root}", "--ServerApp.ip=127.0.0.1",
               f"--ServerApp.port={port}", f"--IdentityProvider.token={token}",
               "--ContentsManager.pre_save_hook=lab.course.jupyterlab.normalise_on_save",
               f"--LabApp.app_settings_dir={SETTINGS_DIR}", "--ServerApp.log_level=WARN",
               "--LabApp.check_for_updates_class=jupyterlab.handlers.announcements.NeverCheckForUpdate"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    if not open_browser:
        command.append("--no-browser")
    return command


def lesson_url(port: int, token: str) -> str:
    first = lesson_paths()[0].relative_to(REPO_ROOT).as_posix()
    return f"http://127.0.0.1:{port}/lab/tree/{first}?token={token}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.course.jupyterlab", description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="port to listen on (a free one by default)")
    parser.add_argument("--no-browser", action="store_true", help="do not try to open a browser")
    args = parser.parse_args(argv)
    port = args.port or free_port()
    token = secrets.token_hex(16)
    print(f"JupyterLab on {lesson_url(port, token)}\n(open that address in a browser; Ctrl-C stops the server)",
          flush=True)
    command = jupyterlab_command(port, token, open_browser=not args.no_browser) + [str(lesson_paths()[0])]
    try:
        return subprocess.call(command, cwd=REPO_ROOT)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
