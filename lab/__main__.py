"""``python -m lab``, the same commands as the ``notion-lab`` script: see :mod:`lab.cli`."""

import sys

from lab.cli import main

sys.exit(main(prog="python -m lab"))
