"""``python -m lab``: see :mod:`lab.cli`."""

import sys

from lab.cli import main

sys.exit(main())
