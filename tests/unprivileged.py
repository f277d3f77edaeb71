"""Running a command that the file system may refuse, even when the tests run as root.

Root reads and writes any file whatever its mode bits, so ``chmod 000`` proves nothing there. As
root, the child process drops the two capabilities that let it override file permissions
(``CAP_DAC_OVERRIDE``, ``CAP_DAC_READ_SEARCH``) from its bounding set before it starts, so it is
refused exactly as any other user would be; as any other user, nothing needs to change.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
from typing import Any

_PR_CAPBSET_DROP = 24
_PERMISSION_OVERRIDES = (1, 2)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH


def _drop_permission_overrides() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in _PERMISSION_OVERRIDES:
        if libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "cannot drop the capability to override file permissions")


def run_refusable(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess:
    """``subprocess.run(command, **kwargs)`` in a process that file permissions apply to."""
    if os.geteuid() == 0:
        kwargs["preexec_fn"] = _drop_permission_overrides
    return subprocess.run(command, **kwargs)
